import AlarmCal
import Foundation
import ICalendar
import Testing

/// Snoozes and dismissals written into iCalendar text (RFC 9074 §6.1, §7; Thunderbird's way).
@Suite struct ResponseTests {
  /// The firings of `bytes` from `from`, acknowledged ones included.
  private func firings(
    _ bytes: [UInt8], from: Instant, limit: Int = 50, includeAcknowledged: Bool = true
  ) throws -> [Firing] {
    var schedule = FiringSchedule(defaultZone: .utc, includeAcknowledged: includeAcknowledged)
    try schedule.read(bytes, file: "f.ics")
    let found = Array(schedule.firings(from: from, to: nil, limit: limit))
    return found
  }

  private func respond(
    _ response: AlarmResponse, _ firing: Firing, in bytes: [UInt8], now: Instant
  ) throws -> WrittenResponse {
    try FiringResponder.respond(
      response, toFiring: firing.id.description, in: bytes, file: "f.ics", now: now, zone: .utc)
  }

  /// An instant from ISO 8601 in UTC (`2021-03-02T15:15:00Z`).
  private func at(_ text: String) throws -> Instant {
    try instant(
      text.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: ""))
  }

  private func lines(_ text: String) -> [UInt8] {
    Array(
      text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n").utf8)
  }

  /// The event of RFC 9074 §7's example, before any snooze.
  private let rfcExample = """
    BEGIN:VCALENDAR
    VERSION:2.0
    PRODID:-//Example Corp.//Example Client//EN
    BEGIN:VEVENT
    CREATED:20210302T151004Z
    UID:AC67C078-CED3-4BF5-9726-832C3749F627
    DTSTAMP:20210302T151004Z
    DTSTART;TZID=America/New_York:20210302T103000
    DTEND;TZID=America/New_York:20210302T113000
    SUMMARY:Meeting
    BEGIN:VALARM
    UID:8297C37D-BA2D-4476-91AE-C1EAA364F8E1
    TRIGGER:-PT15M
    DESCRIPTION:Event reminder
    ACTION:DISPLAY
    END:VALARM
    END:VEVENT
    END:VCALENDAR

    """

  @Test("RFC 9074 §7's example: snooze, snooze the snooze, dismiss, written as the RFC shows")
  func rfcExample9074() throws {
    let original = lines(rfcExample)
    let first = try #require(try firings(original, from: at("2021-03-02T00:00:00Z")).first)
    #expect(first.trigger == (try at("2021-03-02T15:15:00Z")))
    // 1. Snoozed at 15:15:14 until 15:20.
    let snoozed = try respond(
      .snooze(until: at("2021-03-02T15:20:00Z")), first, in: original,
      now: at("2021-03-02T15:15:14Z"))
    let snooze = try #require(snoozed.snooze)
    let snoozeUID = try #require(snooze.alarmUID)
    #expect(
      snoozeUID.wholeMatch(of: /[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}/)
        != nil)
    #expect(snooze.snoozeOf == "8297C37D-BA2D-4476-91AE-C1EAA364F8E1")
    #expect(snooze.trigger == (try at("2021-03-02T15:20:00Z")))
    let afterFirst =
      rfcExample
      .replacingOccurrences(of: "DTSTAMP:20210302T151004Z", with: "DTSTAMP:20210302T151514Z")
      .replacingOccurrences(
        of: "ACTION:DISPLAY\nEND:VALARM\n",
        with: """
          ACTION:DISPLAY
          ACKNOWLEDGED:20210302T151514Z
          END:VALARM
          BEGIN:VALARM
          UID:\(snoozeUID)
          DESCRIPTION:Event reminder
          ACTION:DISPLAY
          TRIGGER;VALUE=DATE-TIME:20210302T152000Z
          RELATED-TO;RELTYPE=SNOOZE:8297C37D-BA2D-4476-91AE-C1EAA364F8E1
          END:VALARM

          """)
    #expect(
      String(decoding: snoozed.bytes, as: UTF8.self)
        == String(decoding: lines(afterFirst), as: UTF8.self))
    // The acknowledged ring is hidden; the snooze is what rings next.
    let pending = try firings(
      snoozed.bytes, from: at("2021-03-02T15:15:14Z"), includeAcknowledged: false)
    #expect(pending.map(\.id) == [snooze.id])

    // 2. The snooze rings and is snoozed again at 15:20:24 until 15:25: it is replaced.
    let again = try respond(
      .snooze(until: at("2021-03-02T15:25:00Z")), snooze, in: snoozed.bytes,
      now: at("2021-03-02T15:20:24Z"))
    let second = try #require(again.snooze)
    let secondUID = try #require(second.alarmUID)
    #expect(secondUID != snoozeUID)
    #expect(second.snoozeOf == "8297C37D-BA2D-4476-91AE-C1EAA364F8E1")
    let afterSecond =
      afterFirst
      .replacingOccurrences(of: "DTSTAMP:20210302T151514Z", with: "DTSTAMP:20210302T152024Z")
      .replacingOccurrences(
        of: "ACKNOWLEDGED:20210302T151514Z", with: "ACKNOWLEDGED:20210302T152024Z"
      )
      .replacingOccurrences(of: snoozeUID, with: secondUID)
      .replacingOccurrences(of: "20210302T152000Z", with: "20210302T152500Z")
    #expect(
      String(decoding: again.bytes, as: UTF8.self)
        == String(decoding: lines(afterSecond), as: UTF8.self))

    // 3. Dismissed at 15:25:07: acknowledged, the snooze removed (§7 step 3.3, second choice).
    let dismissed = try respond(.dismiss, second, in: again.bytes, now: at("2021-03-02T15:25:07Z"))
    #expect(dismissed.snooze == nil)
    let afterDismiss =
      rfcExample
      .replacingOccurrences(of: "DTSTAMP:20210302T151004Z", with: "DTSTAMP:20210302T152507Z")
      .replacingOccurrences(
        of: "ACTION:DISPLAY\nEND:VALARM\n",
        with: "ACTION:DISPLAY\nACKNOWLEDGED:20210302T152507Z\nEND:VALARM\n")
    #expect(
      String(decoding: dismissed.bytes, as: UTF8.self)
        == String(decoding: lines(afterDismiss), as: UTF8.self))
    #expect(
      try firings(dismissed.bytes, from: at("2021-03-02T00:00:00Z"), includeAcknowledged: false)
        .isEmpty)
  }

  /// A weekly series with one alarm and no UID on it.
  private let weekly = """
    BEGIN:VCALENDAR
    VERSION:2.0
    PRODID:x
    BEGIN:VEVENT
    UID:wk-1@example.com
    DTSTAMP:20300101T000000Z
    DTSTART;TZID=Europe/Berlin:20300303T063000
    RRULE:FREQ=WEEKLY
    SUMMARY:Wake up
    BEGIN:VALARM
    ACTION:AUDIO
    TRIGGER:PT0S
    END:VALARM
    END:VEVENT
    END:VCALENDAR

    """

  @Test("an alarm with only Apple's X-WR-ALARMUID gets the same value as its RFC 9074 UID")
  func appleAlarmUID() throws {
    let original = lines(
      rfcExample.replacingOccurrences(
        of: "UID:8297C37D-BA2D-4476-91AE-C1EAA364F8E1", with: "X-WR-ALARMUID:APPLE-1"))
    let rang = try #require(try firings(original, from: at("2021-03-02T00:00:00Z")).first)
    let now = try at("2021-03-02T15:15:00Z")
    let snoozed = try respond(
      .snooze(until: now.adding(seconds: 300)), rang, in: original, now: now)
    let text = String(decoding: snoozed.bytes, as: UTF8.self)
    #expect(text.contains("X-WR-ALARMUID:APPLE-1\r\n"))
    #expect(text.components(separatedBy: "\r\nUID:APPLE-1\r\n").count == 2)
    #expect(text.contains("RELATED-TO;RELTYPE=SNOOZE:APPLE-1\r\n"))
    // The ids stay: the alarm's firing is found again, acknowledged, and the snooze names it.
    let after = try firings(snoozed.bytes, from: at("2021-03-02T00:00:00Z"))
    #expect(after.filter { !$0.isSnooze }.map(\.id) == [rang.id])
    #expect(after.filter(\.isSnooze).map(\.snoozeOf) == ["APPLE-1"])
  }

  @Test("snoozing one instance of a series leaves the later ones ringing, with the same ids")
  func seriesInstance() throws {
    let original = lines(weekly)
    let before = try firings(original, from: at("2030-03-20T00:00:00Z"), limit: 6)
    // Sunday 2030-03-31 is the day Berlin moves to summer time: 06:30 is 04:30Z.
    let dstDay = try #require(before.first { $0.trigger == (try? at("2030-03-31T04:30:00Z")) })
    let now = try at("2030-03-31T04:30:40Z")
    let snoozed = try respond(
      .snooze(until: now.adding(seconds: 1800)), dstDay, in: original, now: now)
    let after = try firings(snoozed.bytes, from: at("2030-03-20T00:00:00Z"), limit: 7)
    let snooze = try #require(snoozed.snooze)
    #expect(snooze.trigger == (try at("2030-03-31T05:00:40Z")))
    #expect(after.filter(\.isSnooze).map(\.id) == [snooze.id])
    // Every firing keeps its id; only those up to now are acknowledged.
    #expect(after.filter { !$0.isSnooze }.map(\.id) == before.map(\.id))
    #expect(
      after.filter { !$0.isSnooze }.map(\.acknowledged)
        == before.map { $0.trigger <= now })
    // Nothing else of the series changed: no override, DTSTART and RRULE as they were.
    let text = String(decoding: snoozed.bytes, as: UTF8.self)
    #expect(!text.contains("RECURRENCE-ID"))
    #expect(text.contains("DTSTART;TZID=Europe/Berlin:20300303T063000\r\nRRULE:FREQ=WEEKLY\r\n"))
  }

  @Test(
    "a Thunderbird file gets X-MOZ-LASTACK and X-MOZ-SNOOZE-TIME-<instance>, as Thunderbird writes")
  func thunderbird() throws {
    let original = lines(
      """
      BEGIN:VCALENDAR
      PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN
      VERSION:2.0
      BEGIN:VEVENT
      LAST-MODIFIED:20291220T100000Z
      DTSTAMP:20291220T100000Z
      UID:tbwk-1
      SUMMARY:Weekly
      RRULE:FREQ=WEEKLY
      DTSTART:20300107T090000Z
      DTEND:20300107T100000Z
      X-MOZ-GENERATION:2
      BEGIN:VALARM
      ACTION:DISPLAY
      TRIGGER;VALUE=DURATION:-PT15M
      DESCRIPTION:Default Mozilla Description
      END:VALARM
      END:VEVENT
      END:VCALENDAR

      """)
    let ring = try #require(try firings(original, from: at("2030-01-14T00:00:00Z")).first)
    let now = try at("2030-01-14T08:46:30Z")
    let snoozed = try respond(
      .snooze(until: now.adding(seconds: 300)), ring, in: original, now: now)
    let expected = """
      LAST-MODIFIED:20300114T084630Z
      DTSTAMP:20300114T084630Z
      UID:tbwk-1
      SUMMARY:Weekly
      RRULE:FREQ=WEEKLY
      DTSTART:20300107T090000Z
      DTEND:20300107T100000Z
      X-MOZ-GENERATION:3
      X-MOZ-LASTACK:20300114T084630Z
      X-MOZ-SNOOZE-TIME-1894611600000000:20300114T085130Z
      BEGIN:VALARM

      """
    #expect(
      String(decoding: snoozed.bytes, as: UTF8.self).contains(
        String(decoding: lines(expected), as: UTF8.self)))
    let snooze = try #require(snoozed.snooze)
    #expect(snooze.trigger == now.adding(seconds: 300))
    let dismissed = try respond(.dismiss, snooze, in: snoozed.bytes, now: now.adding(seconds: 330))
    let text = String(decoding: dismissed.bytes, as: UTF8.self)
    #expect(!text.contains("X-MOZ-SNOOZE-TIME"))
    #expect(text.contains("X-MOZ-GENERATION:4\r\nX-MOZ-LASTACK:20300114T085200Z\r\n"))
    let next = try firings(dismissed.bytes, from: now, includeAcknowledged: false)
    #expect(next.first?.trigger == (try at("2030-01-21T08:45:00Z")))
  }

  @Test("a firing still to ring, an unknown id, and a snooze ending in the past are refused")
  func refusals() throws {
    let original = lines(weekly)
    let later = try #require(try firings(original, from: at("2030-04-01T00:00:00Z")).first)
    #expect(throws: ResponseError.self) {
      try respond(.dismiss, later, in: original, now: at("2030-03-20T00:00:00Z"))
    }
    #expect(throws: ResponseError.self) {
      try FiringResponder.respond(
        .dismiss, toFiring: "00000000-0000-8000-8000-000000000000", in: original, file: "f.ics",
        now: at("2030-04-10T00:00:00Z"), zone: .utc)
    }
    #expect(throws: ResponseError.self) {
      try respond(
        .snooze(until: at("2030-04-01T00:00:00Z")), later, in: original,
        now: at("2030-04-10T00:00:00Z"))
    }
  }

  /// Checks one snooze and one dismissal of the first firing of `bytes` from 1900 on: only the
  /// component holding the alarm changes, and every other firing keeps its id. Returns whether
  /// the file had a firing.
  private func checkEdits(_ bytes: [UInt8], name: String) throws -> Bool {
    guard let ring = try? firings(bytes, from: at("1900-01-01T00:00:00Z"), limit: 1).first
    else { return false }
    let now = ring.trigger.adding(seconds: 1)
    let before = try firings(bytes, from: now, limit: 40).filter { !$0.isSnooze }.map(\.id)
    for response in [AlarmResponse.snooze(until: now.adding(seconds: 600)), .dismiss] {
      let written = try respond(response, ring, in: bytes, now: now)
      try expectOneComponentChanged(bytes, written.bytes, name: name)
      let after = try firings(written.bytes, from: now, limit: 60).filter { !$0.isSnooze }
        .map(\.id)
      #expect(Array(after.prefix(before.count)) == before, "\(name): ids changed")
      if case .snooze(let until) = response {
        #expect(written.snooze?.trigger == until, "\(name): no snooze at \(until)")
      }
    }
    return true
  }

  /// Every byte outside one VCALENDAR child is the same in `a` and `b`.
  private func expectOneComponentChanged(_ a: [UInt8], _ b: [UInt8], name: String) throws {
    let prefix = zip(a, b).prefix { $0 == $1 }.count
    let suffix = zip(a.reversed(), b.reversed()).prefix { $0 == $1 }.count
    let calendars = try ICalendarReader.read(a)
    let child = calendars.flatMap(\.components).first { $0.sourceRange?.contains(prefix) == true }
    let range = try #require(child?.sourceRange, "\(name): a change outside every component")
    // The change lies within that child: it starts inside it and ends inside it.
    #expect(prefix >= range.lowerBound, "\(name)")
    #expect(a.count - suffix <= range.upperBound + 2, "\(name): bytes after the component changed")
  }

  @Test("each sample: a snooze and a dismissal change only their component, and no other id")
  func samplesKeepTheirBytes() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: samplesFolder.path)
      .filter { $0.hasSuffix(".ics") }.sorted()
    #expect(names.count >= 4)
    var withFirings = 0
    for name in names {
      let bytes = try Array(Data(contentsOf: samplesFolder.appendingPathComponent(name)))
      if try checkEdits(bytes, name: name) { withFirings += 1 }
    }
    #expect(withFirings == names.count)
  }

  @Test(
    "each corpus file with an alarm: a snooze and a dismissal change only their component",
    .enabled(if: SharedCorpus.isPresent))
  func corpusKeepsItsBytes() throws {
    var withFirings = 0
    for name in try SharedCorpus.files() {
      let bytes = try Array(Data(contentsOf: SharedCorpus.folder.appendingPathComponent(name)))
      guard (try? ICalendarReader.read(bytes)) != nil else { continue }
      if try checkEdits(bytes, name: name) { withFirings += 1 }
    }
    #expect(withFirings >= 20)
  }
}
