import AlarmCal
import Foundation
import ICalendar
import Testing

@Suite struct ExportTests {
  private func alarms(_ fixture: String, zone: String = "UTC") throws -> [Alarm] {
    try AlarmFileReader(fileName: fixture, defaultTimeZone: zone)
      .read(Array(try fixtureText(fixture).utf8)).get()
  }

  @Test("a small alarm list exports to exactly the expected calendar")
  func golden() throws {
    let now = try instant("20270313T120000Z")
    let text = try AlarmExporter(now: now, timestamp: try instant("20270101T000000Z"))
      .text(try alarms("export-small.json"))
    let expected = try fixtureText("export-small.ics")
    if text != expected {
      try? text.write(toFile: "/tmp/export-small.actual.ics", atomically: true, encoding: .utf8)
    }
    #expect(text == expected, "actual output written to /tmp/export-small.actual.ics")
  }

  /// The fixtures began as what alarmcal printed through libical before its printer was
  /// written in Swift (29c743e): `alarmcal convert Samples/NAME.json --to ics --tz Europe/Paris
  /// --now 2026-12-02T08:00:00Z`, with the lines changed since: each VALARM's RFC 9074 UID;
  /// DISPLAY with DESCRIPTION and X-ALARMCAL-SOUND for AUDIO with ATTACH; DURATION:PT1M; a
  /// repeating alarm's DTSTART from 2026-01-01, not from now.
  @Test(
    "every sample alarm list exports to exactly the expected bytes",
    arguments: ["alarms", "ios-alarms"])
  func samples(name: String) throws {
    let bytes = try [UInt8](Data(contentsOf: samplesFolder.appendingPathComponent("\(name).json")))
    let alarms = try AlarmFileReader(fileName: name, defaultTimeZone: "Europe/Paris").read(bytes)
      .get()
    let text = try AlarmExporter(now: testNow, timestamp: testNow).text(alarms)
    let expected = try fixtureText("export-sample-\(name).ics")
    // Bytes, not String's ==, which equates canonically equivalent text.
    #expect(Array(text.utf8) == Array(expected.utf8))
  }

  @Test("a repeating alarm exports the same event whatever the export's moment")
  func stableAcrossDays() throws {
    let weekly = Alarm(
      id: "w", schedule: .time(LocalTime(secondsSinceMidnight: 7 * 3600), repeat: [.monday]),
      sound: "Radar", timeZone: "Europe/Berlin")
    let stamp = try instant("20260101T000000Z")
    let texts = try ["20261206T080000Z", "20261207T080000Z", "20280301T120000Z"].map {
      try AlarmExporter(now: try instant($0), timestamp: stamp).text([weekly])
    }
    #expect(Set(texts).count == 1)
    // The first Monday of 2026, 07:00 in Berlin; the event lasts a minute; DISPLAY rings.
    let text = try #require(texts.first)
    #expect(text.contains("DTSTART;TZID=Europe/Berlin:20260105T070000\r\nDURATION:PT1M\r\n"))
    #expect(text.contains("ACTION:DISPLAY\r\nDESCRIPTION:Alarm\r\n"))
    #expect(text.contains("X-ALARMCAL-SOUND:Radar\r\n"))
    #expect(!text.contains("ATTACH"))
    // Before 2026 the export's moment comes first, so the alarm rings from then.
    let early = try AlarmExporter(now: try instant("20251201T080000Z"), timestamp: stamp)
      .text([weekly])
    #expect(early.contains("DTSTART;TZID=Europe/Berlin:20251208T070000\r\n"))
  }

  @Test(
    "DTSTART is the first ring at or after now, resolved per RFC 5545 §3.3.5",
    arguments: [
      // now (UTC), time, weekdays, expected DTSTART (America/New_York wall clock)
      ("20270313T120000Z", "02:30", [Weekday.sunday], "20270314T023000"),  // gap: rings 03:30 EDT
      ("20270314T072959Z", "02:30", [.sunday], "20270314T023000"),  // one second before 07:30Z
      ("20270314T073000Z", "02:30", [.sunday], "20270314T023000"),  // exactly at the ring
      ("20270314T073001Z", "02:30", [.sunday], "20270321T023000"),  // just after: next week
      ("20271107T053000Z", "01:30", [.sunday], "20271107T013000"),  // overlap: first 01:30 (EDT)
      ("20271107T053001Z", "01:30", [.sunday], "20271114T013000"),  // 2nd 01:30 is no ring
      ("20261202T120000Z", "06:00", [], "20261203T060000"),  // rings once: the next 06:00
      ("20261202T100000Z", "06:00", [], "20261202T060000"),  // 06:00 EST is 11:00Z, still ahead
    ])
  func firstRing(now: String, time: String, days: [Weekday], expected: String) throws {
    let rules = try #require(TimeZoneRules(identifier: "America/New_York"))
    let start = AlarmRings.firstStart(
      of: .time(try #require(AlarmTextFormats.clockTime(time)), repeat: Set(days)),
      atOrAfter: try instant(now), in: rules)
    #expect(start.icalString == expected)
  }

  @Test("a disabled alarm gets ACTION:NONE, which RFC 5545 clients ignore, and reads back disabled")
  func disabled() throws {
    let alarm = Alarm(
      id: "off", schedule: .time(LocalTime(hour: 7, minute: 0)!, repeat: [.monday]), enabled: false,
      timeZone: "Europe/Berlin")
    let text = try AlarmExporter(
      now: try instant("20261202T000000Z"), timestamp: try instant("20261202T000000Z")
    ).text([alarm])
    #expect(text.contains("ACTION:NONE\r\n"))
    #expect(!text.contains("ACTION:AUDIO"))
    let back = try AlarmImporter(fileName: "x.ics", defaultTimeZone: "UTC", now: testNow)
      .importAlarms(fromText: text)
    #expect(back.alarms == [alarm])
    #expect(back.losses.isEmpty)
  }

  @Test("the same alarms and moments give byte-identical files")
  func deterministic() throws {
    let list = try alarms("export-small.json")
    let exporter = AlarmExporter(
      now: try instant("20261202T080000Z"), timestamp: try instant("20261202T080000Z"))
    #expect(try exporter.text(list) == (try exporter.text(list)))
  }

  @Test("an alarm in a zone without a VTIMEZONE definition is refused")
  func unknownZone() throws {
    let alarm = Alarm(
      id: "x", schedule: .at(try local("20270101T070000")), timeZone: "Nowhere/Land")
    #expect(throws: AlarmExportError.unknownTimeZone(alarmID: "x", zone: "Nowhere/Land")) {
      try AlarmExporter(
        now: try instant("20261202T000000Z"), timestamp: try instant("20261202T000000Z")
      ).text([alarm])
    }
  }
}
