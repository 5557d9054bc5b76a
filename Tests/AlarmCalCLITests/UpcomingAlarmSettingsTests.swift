import Foundation
import Testing

/// `upcoming`'s JSON carries each firing's alarm `sound`, `snooze` and `snoozeMinutes` with the
/// meaning an alarm list's record gives them, and `isSnooze` for a snooze's own firing.
@Suite struct UpcomingAlarmSettingsTests {
  /// A daily 07:00 UTC event from 2027-01-04 with one VALARM of `lines`.
  private func calendar(uid: String, alarm lines: [String]) -> [String] {
    [
      "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20270101T000000Z", "DTSTART:20270104T070000Z",
      "RRULE:FREQ=DAILY", "SUMMARY:\(uid)", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x",
      "TRIGGER:PT0S",
    ] + lines + ["END:VALARM", "END:VEVENT"]
  }

  /// The JSON firings of `file` from 2027-01-04T06:00Z in UTC.
  private func firings(_ file: String, limit: Int) throws -> [[String: Any]] {
    try upcomingFirings(file, now: "2027-01-04T06:00:00Z", limit: limit, zone: "UTC")
  }

  @Test("alarmcal's properties: a sound and a 9-minute snooze, a 15-minute one, snooze off")
  func alarmcalProperties() throws {
    let lines =
      ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"]
      + calendar(
        uid: "a-radar",
        alarm: [
          "X-ALARMCAL-SOUND:Radar", "X-ALARMCAL-SNOOZE:TRUE", "X-ALARMCAL-SNOOZE-INTERVAL:PT9M",
        ])
      + calendar(
        uid: "b-long", alarm: ["X-ALARMCAL-SOUND:Slow Rise", "X-ALARMCAL-SNOOZE-INTERVAL:PT15M"])
      + calendar(uid: "c-off", alarm: ["X-ALARMCAL-SNOOZE:FALSE"]) + ["END:VCALENDAR", ""]
    let file = try temporaryFolder().appendingPathComponent("settings.ics").path
    try Data(lines.joined(separator: "\r\n").utf8).write(to: URL(fileURLWithPath: file))
    let listed = try firings(file, limit: 3)
    // All three ring at 07:00Z; ties are listed by UID.
    #expect(listed.map { $0["uid"] as? String } == ["a-radar", "b-long", "c-off"])
    #expect(listed.map { $0["sound"] as? String } == ["Radar", "Slow Rise", nil])
    #expect(listed[2]["sound"] is NSNull)
    #expect(listed.map { $0["snooze"] as? Bool } == [true, true, false])
    // Snooze off keeps the length a record has without one: 9 minutes.
    #expect(listed.map { $0["snoozeMinutes"] as? Int } == [9, 15, 9])
    #expect(listed.map { $0["isSnooze"] as? Bool } == [false, false, false])
  }

  /// A Google or Outlook file says nothing of sound or snooze: a clock app's defaults (the
  /// default sound, Snooze offered, 9 minutes), as `convert` writes its records.
  @Test(
    "files with none of alarmcal's properties get a clock app's defaults",
    arguments: [
      "google-calendar.ics", "outlook.ics",
    ])
  func otherProgramsDefaults(sample: String) throws {
    let file = samplesFolder.appendingPathComponent(sample).path
    let result = try runBinary([
      "upcoming", file, "--from", "2000-01-01T00:00:00Z", "--limit", "20", "--format", "json",
      "--tz", "UTC",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let listed = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    #expect(!listed.isEmpty)
    for firing in listed {
      #expect(firing["sound"] is NSNull)
      #expect(firing["snooze"] as? Bool == true)
      #expect(firing["snoozeMinutes"] as? Int == 9)
    }
  }

  @Test("an AUDIO alarm's ATTACH is its sound, as in the record convert writes")
  func appleSound() throws {
    let file = samplesFolder.appendingPathComponent("apple-calendar.ics").path
    // The sample's weekday 06:30 Berlin alarm (ATTACH;VALUE=URI:Chord) rings at 05:30Z in winter.
    let listed = try upcomingFirings(
      file, now: "2026-12-07T00:00:00Z", limit: 20, zone: "Europe/Berlin")
    let chord = try #require(listed.first { $0["trigger"] as? String == "2026-12-07T05:30:00Z" })
    #expect(chord["sound"] as? String == "Chord")
    let converted = try runBinary(
      ["convert", file, "--to", "json", "--now", "2026-12-07T00:00:00Z", "--tz", "Europe/Berlin"])
    #expect(converted.stdout.contains(#""sound": "Chord""#))
  }

  @Test("a snooze's firing offers what the alarm it snoozes offers")
  func snoozeCarriesItsAlarms() throws {
    let lines =
      ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"]
      + calendar(
        uid: "d-snoozed",
        alarm: [
          "UID:alarm-d", "X-ALARMCAL-SOUND:Radar", "X-ALARMCAL-SNOOZE-INTERVAL:PT5M",
          "ACKNOWLEDGED:20270104T070010Z",
        ]
      ).dropLast()
      + [
        "BEGIN:VALARM", "UID:snooze-d", "RELATED-TO;RELTYPE=SNOOZE:alarm-d", "ACTION:DISPLAY",
        "DESCRIPTION:x", "TRIGGER;VALUE=DATE-TIME:20270104T070510Z", "END:VALARM", "END:VEVENT",
        "END:VCALENDAR", "",
      ]
    let file = try temporaryFolder().appendingPathComponent("snoozed.ics").path
    try Data(lines.joined(separator: "\r\n").utf8).write(to: URL(fileURLWithPath: file))
    let listed = try upcomingFirings(file, now: "2027-01-04T07:01:00Z", limit: 2, zone: "UTC")
    #expect(
      listed.map { $0["trigger"] as? String } == ["2027-01-04T07:05:10Z", "2027-01-05T07:00:00Z"])
    #expect(listed.map { $0["isSnooze"] as? Bool } == [true, false])
    #expect(listed.map { $0["sound"] as? String } == ["Radar", "Radar"])
    #expect(listed.map { $0["snoozeMinutes"] as? Int } == [5, 5])
  }
}
