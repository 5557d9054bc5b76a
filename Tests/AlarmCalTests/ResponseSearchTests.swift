import AlarmCal
import Foundation
import ICalendar
import Testing

/// How far and how long `snooze` and `dismiss` look for a firing id (issue 37, item 10): the
/// nearest firings before `now` first, at most ``FiringResponder/searchLimit`` of them.
@Suite struct ResponseSearchTests {
  /// One event on `rule` from 2026-01-01 with `alarms` VALARMs that all ring 5 minutes before
  /// each instance (so every instance's firings tie on their trigger).
  private func event(alarms: Int, rule: String?) -> [UInt8] {
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\n"
    text += "UID:dense\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T000000Z\r\n"
    if let rule { text += "RRULE:\(rule)\r\n" }
    text += "SUMMARY:Dense\r\n"
    for _ in 0..<alarms {
      text += "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:a\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\n"
    }
    return Array((text + "END:VEVENT\r\nEND:VCALENDAR\r\n").utf8)
  }

  /// The first firing of `bytes` at or after `from`.
  private func firing(in bytes: [UInt8], from: Instant) throws -> Firing {
    var schedule = FiringSchedule(defaultZone: .utc, includeAcknowledged: true)
    try schedule.read(bytes, file: "dense.ics")
    let found = Array(schedule.firings(from: from, to: nil, limit: 1))
    return try #require(found.first)
  }

  @Test("an unknown id among 1,000 VALARMs on a MINUTELY rule is reported after the limit")
  func unknownIDInDenseRule() throws {
    // The five months before `now` hold over 200,000,000 firings.
    let bytes = event(alarms: 1_000, rule: "FREQ=MINUTELY")
    let now = try instant("20260601T000000Z")
    let unknown = "00000000-0000-8000-8000-000000000000"
    // The span named is the hour the search reached before its limit: it did not walk on
    // through every firing (no wall-clock bound: speed lives in benchmarks).
    #expect {
      _ = try FiringResponder.respond(
        .dismiss, toFiring: unknown, in: bytes, file: "dense.ics", now: now, zone: .utc)
    } throws: { error in
      (error as? ResponseError)?.message
        == "dense.ics: no firing with id \(unknown) from 2026-05-31T23:00:00Z to 2026-06-01T00:00:00Z, and a search stops after 65536 firings; answer at a moment just after the firing rang"
    }
  }

  @Test("a firing that just rang in a dense file is found at once; an old one with --now near it")
  func nearestFirst() throws {
    let bytes = event(alarms: 1_000, rule: "FREQ=MINUTELY")
    let now = try instant("20260601T000000Z")
    let recent = try firing(in: bytes, from: now.adding(seconds: -30))
    let dismissed = try FiringResponder.respond(
      .dismiss, toFiring: recent.id.description, in: bytes, file: "dense.ics", now: now,
      zone: .utc)
    #expect(dismissed.firing.id == recent.id)
    // A firing of a month ago lies past the limit from `now`, but not from just after it.
    let old = try firing(in: bytes, from: now.adding(seconds: -30 * 86_400))
    #expect(throws: ResponseError.self) {
      try FiringResponder.respond(
        .dismiss, toFiring: old.id.description, in: bytes, file: "dense.ics", now: now,
        zone: .utc)
    }
    let written = try FiringResponder.respond(
      .dismiss, toFiring: old.id.description, in: bytes, file: "dense.ics",
      now: old.trigger.adding(seconds: 1), zone: .utc)
    #expect(written.firing.id == old.id)
  }

  @Test("an unknown id in a sparse file is still looked for through the year on either side")
  func sparseYear() throws {
    let bytes = event(alarms: 2, rule: "FREQ=DAILY")
    let now = try instant("20260601T000000Z")
    // A firing 300 days before now, and one 300 days after (not rung: a different error).
    let past = try firing(in: bytes, from: now.adding(seconds: -300 * 86_400))
    let written = try FiringResponder.respond(
      .dismiss, toFiring: past.id.description, in: bytes, file: "d.ics", now: now, zone: .utc)
    #expect(written.firing.id == past.id)
    let future = try firing(in: bytes, from: now.adding(seconds: 300 * 86_400))
    #expect {
      _ = try FiringResponder.respond(
        .dismiss, toFiring: future.id.description, in: bytes, file: "d.ics", now: now,
        zone: .utc)
    } throws: { error in
      (error as? ResponseError)?.message.contains("only a firing that has rung") == true
    }
  }
}
