import AlarmCal
import Foundation
import ICalendar
import Testing

/// An alarm's RFC 9074 state in the alarm list: alarmUid, acknowledgedAt and snoozedUntil.
@Suite struct AlarmStateTests {
  private let now = Instant(secondsSince1970: 1_796_198_400)  // 2026-12-02T08:00:00Z

  private func read(_ json: String) throws -> [Alarm] {
    try AlarmFileReader(fileName: "a.json", defaultTimeZone: "Europe/Berlin").read(
      Array(json.utf8)
    ).get()
  }

  private func importing(_ text: String) throws -> ImportResult {
    try AlarmImporter(fileName: "a.ics", defaultTimeZone: "Europe/Berlin", now: now)
      .importAlarms(fromText: text)
  }

  private let stateful = """
    {"alarms": [
      {"id": "a1", "time": "06:30", "repeat": ["mon", "fri"], "label": "Wake up",
       "acknowledgedAt": "2026-12-04T05:30:20Z", "snoozedUntil": "2026-12-04T06:39:20+01:00"},
      {"id": "a2", "at": "2026-12-24T18:00", "label": "Presents", "alarmUid": "apple-uid-1"}
    ]}
    """

  @Test("the state is read: times with Z or an offset, a kept alarm UID")
  func reading() throws {
    let alarms = try read(stateful)
    #expect(alarms[0].acknowledgedAt == Instant(secondsSince1970: 1_796_362_220))
    #expect(alarms[0].snoozedUntil == Instant(secondsSince1970: 1_796_362_760))
    #expect(alarms[0].alarmUID == nil)
    #expect(alarms[1].alarmUID == "apple-uid-1")
    #expect(alarms[1].acknowledgedAt == nil && alarms[1].snoozedUntil == nil)
  }

  @Test("an ACKNOWLEDGED or X-MOZ-LASTACK written in a zone, not UTC, is read in that zone")
  func zonedAcknowledgement() throws {
    // A daily 06:30 alarm acknowledged at 06:30:20 on its first day, written three ways.
    let acknowledgements = [
      ("z", "", "ACKNOWLEDGED;TZID=Europe/Berlin:20261204T063020\r\n"),
      ("f", "", "ACKNOWLEDGED:20261204T063020\r\n"),
      ("m", "X-MOZ-LASTACK;TZID=Europe/Berlin:20261204T063020\r\n", ""),
    ]
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\n"
    for (uid, onEvent, onAlarm) in acknowledgements {
      text += "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20261201T000000Z\r\n"
      text += "DTSTART;TZID=Europe/Berlin:20261204T063000\r\nRRULE:FREQ=DAILY\r\n\(onEvent)"
      text +=
        "BEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:PT0S\r\n\(onAlarm)END:VALARM\r\nEND:VEVENT\r\n"
    }
    text += "END:VCALENDAR\r\n"
    // 06:30:20 in Berlin, the zone named and --tz for the floating one: 05:30:20Z.
    let expected = Instant(secondsSince1970: 1_796_362_220)
    #expect(try importing(text).alarms.map(\.acknowledgedAt) == [expected, expected, expected])
    // upcoming agrees: the 06:30 ring that day is acknowledged, the next is not.
    var schedule = FiringSchedule(
      defaultZone: try #require(TimeZoneRules(identifier: "Europe/Berlin")),
      includeAcknowledged: true)
    try schedule.read(Array(text.utf8), file: "a.ics")
    let found = Array(schedule.firings(from: now, to: nil, limit: 6))
    #expect(found.map(\.acknowledged) == [true, true, true, false, false, false])
  }

  @Test("a state time without Z or offset is refused, naming the field")
  func badTime() throws {
    let result = AlarmFileReader(fileName: "a.json", defaultTimeZone: "UTC").read(
      Array(#"{"alarms": [{"time": "06:30", "snoozedUntil": "2026-12-04T06:39"}]}"#.utf8))
    guard case .failure(let problems) = result else {
      Issue.record("read an alarm with a local snoozedUntil")
      return
    }
    #expect(
      problems.problems.map(\.description).joined().contains(
        "snoozedUntil \"2026-12-04T06:39\" must be a date-time with Z or an offset"))
  }

  @Test("convert writes ACKNOWLEDGED, the VALARM's UID and a snooze alarm; import reads them back")
  func roundTrip() throws {
    let alarms = try read(stateful)
    let text = try AlarmExporter(now: now, timestamp: now).text(alarms)
    let derived = try #require(
      text.firstMatch(of: /BEGIN:VALARM\r\nUID:([0-9A-F-]{36})\r\n/)?.output.1)
    #expect(text.contains("ACKNOWLEDGED:20261204T053020Z\r\nEND:VALARM\r\n"))
    #expect(text.contains("TRIGGER;VALUE=DATE-TIME:20261204T053920Z\r\n"))
    #expect(text.contains("RELATED-TO;RELTYPE=SNOOZE:\(derived)\r\n"))
    #expect(text.contains("BEGIN:VALARM\r\nUID:apple-uid-1\r\n"))
    let back = try importing(text)
    #expect(back.losses.isEmpty)
    #expect(back.alarms == alarms)
    // The same text again: exports are byte-identical for the same input and time.
    #expect(try AlarmExporter(now: now, timestamp: now).text(back.alarms) == text)
    // The list says what the calendar rings: the snooze at 05:39:20Z, not the acknowledged ring.
    var schedule = FiringSchedule(defaultZone: .utc)
    try schedule.read(Array(text.utf8), file: "a.ics")
    var firings: [Firing] = []
    for firing in schedule.firings(
      from: Instant(secondsSince1970: 1_796_360_000), to: nil, limit: 2)
    {
      firings.append(firing)
    }
    #expect(firings.map(\.trigger.description) == ["2026-12-04T05:39:20Z", "2026-12-07T05:30:00Z"])
    #expect(firings.map(\.isSnooze) == [true, false])
  }

  @Test("Thunderbird's X-MOZ-LASTACK and X-MOZ-SNOOZE-TIME become acknowledgedAt and snoozedUntil")
  func thunderbird() throws {
    let result = try importing(
      """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN\r
      BEGIN:VEVENT\r
      UID:tb\r
      DTSTAMP:20261201T000000Z\r
      DTSTART;TZID=Europe/Berlin:20261204T090000\r
      SUMMARY:Call\r
      X-MOZ-LASTACK:20261204T074630Z\r
      X-MOZ-SNOOZE-TIME:20261204T075130Z\r
      BEGIN:VALARM\r
      ACTION:DISPLAY\r
      DESCRIPTION:Call\r
      TRIGGER:-PT15M\r
      END:VALARM\r
      END:VEVENT\r
      END:VCALENDAR\r

      """)
    #expect(result.losses.isEmpty)
    let alarm = try #require(result.alarms.first)
    #expect(alarm.acknowledgedAt?.description == "2026-12-04T07:46:30Z")
    #expect(alarm.snoozedUntil?.description == "2026-12-04T07:51:30Z")
  }

  @Test("a snooze alarm is no alarm of its own; one naming no alarm here is reported")
  func snoozeAlarms() throws {
    let result = try importing(
      """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:x\r
      BEGIN:VEVENT\r
      UID:e\r
      DTSTAMP:20261201T000000Z\r
      DTSTART;TZID=Europe/Berlin:20261204T090000\r
      SUMMARY:Call\r
      BEGIN:VALARM\r
      UID:A\r
      ACTION:AUDIO\r
      TRIGGER:PT0S\r
      ACKNOWLEDGED:20261204T080010Z\r
      END:VALARM\r
      BEGIN:VALARM\r
      UID:S\r
      ACTION:AUDIO\r
      TRIGGER;VALUE=DATE-TIME:20261204T080500Z\r
      RELATED-TO;RELTYPE=SNOOZE:A\r
      END:VALARM\r
      BEGIN:VALARM\r
      UID:T\r
      ACTION:AUDIO\r
      TRIGGER;VALUE=DATE-TIME:20261204T081000Z\r
      RELATED-TO;RELTYPE=SNOOZE:gone\r
      END:VALARM\r
      END:VEVENT\r
      END:VCALENDAR\r

      """)
    #expect(result.alarms.count == 1)
    #expect(result.alarms.first?.alarmUID == "A")
    #expect(result.alarms.first?.snoozedUntil?.description == "2026-12-04T08:05:00Z")
    #expect(result.alarms.first?.acknowledgedAt?.description == "2026-12-04T08:00:10Z")
    #expect(
      result.losses.map(\.reason) == [
        #"a snooze (RELATED-TO;RELTYPE=SNOOZE) of "gone", which is no alarm here"#
      ])
  }

  @Test("a snoozed one-shot alarm imports with its state, the UID the snooze added, no warning")
  func snoozedFileImports() throws {
    let text = """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:x\r
      BEGIN:VEVENT\r
      UID:e\r
      DTSTAMP:20261201T000000Z\r
      DTSTART:20261202T075500Z\r
      SUMMARY:Tea\r
      BEGIN:VALARM\r
      ACTION:AUDIO\r
      TRIGGER:PT0S\r
      END:VALARM\r
      END:VEVENT\r
      END:VCALENDAR\r

      """
    var schedule = FiringSchedule(defaultZone: .utc)
    try schedule.read(Array(text.utf8), file: "a.ics")
    let firings = Array(schedule.firings(from: Instant(secondsSince1970: 0), to: nil, limit: 1))
    let rang = try #require(firings.first)
    let written = try FiringResponder.respond(
      .snooze(until: now.adding(seconds: 300)), toFiring: rang.id.description,
      in: Array(text.utf8), file: "a.ics", now: now, zone: .utc)
    let result = try AlarmImporter(fileName: "a.ics", defaultTimeZone: "UTC", now: now)
      .importAlarms(fromUTF8: written.bytes)
    let alarm = try #require(result.alarms.first)
    #expect(alarm.alarmUID == nil)  // the snooze added the UID convert derives for "e"
    #expect(alarm.acknowledgedAt == now)
    #expect(alarm.snoozedUntil == now.adding(seconds: 300))
    #expect(result.warnings.isEmpty)
    #expect(result.losses.isEmpty)
  }
}
