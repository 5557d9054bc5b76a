import AlarmCal
import Foundation
import ICalendar
import Testing

@testable import AlarmCalCLI

/// `upcoming`'s text table lines its columns up whatever the widths of its cells.
@Suite struct UpcomingTextTableTests {
  @Test("rows of different label, time and action widths line up, wide characters counted twice")
  func columnsLineUp() throws {
    let calendar = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN",
      "BEGIN:VEVENT", "UID:gym", "DTSTAMP:20270101T000000Z", "DTSTART:20270104T070000Z",
      "SUMMARY:Gym", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER:PT0S",
      "END:VALARM", "END:VEVENT",
      "BEGIN:VEVENT", "UID:meeting", "DTSTAMP:20270101T000000Z", "DTSTART:20270105T070005Z",
      "SUMMARY:会議 standup", "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:PT0S", "END:VALARM",
      "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")
    let file = try temporaryFolder().appendingPathComponent("table.ics").path
    try Data(calendar.utf8).write(to: URL(fileURLWithPath: file))
    let result = try runBinary([
      "upcoming", file, "--now", "2027-01-04T06:00:00Z", "--tz", "UTC", "--limit", "2",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // Columns: date, time (8: `07:00:05`), how long until (12), label (12: two wide
    // characters, a space, `standup`), action (7: `DISPLAY`), each then two spaces; the file.
    let gym = "Gym" + String(repeating: " ", count: 9)
    #expect(
      result.stdout
        == "Mon 2027-01-04  07:00     in 1h 00m     \(gym)  DISPLAY  \(file)\n"
        + "Tue 2027-01-05  07:00:05  in 1d 01h     会議 standup  AUDIO    \(file)\n")
  }

  @Test("a label wider than the ones before it widens the column for every row of the block")
  func widerLaterLabel() throws {
    let calendar = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN",
      "BEGIN:VEVENT", "UID:a", "DTSTAMP:20270101T000000Z", "DTSTART:20270104T070000Z",
      "SUMMARY:A", "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:PT0S", "END:VALARM", "END:VEVENT",
      "BEGIN:VEVENT", "UID:b", "DTSTAMP:20270101T000000Z", "DTSTART:20270104T080000Z",
      "SUMMARY:Longer label", "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:PT0S", "END:VALARM",
      "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")
    let file = try temporaryFolder().appendingPathComponent("wider.ics").path
    try Data(calendar.utf8).write(to: URL(fileURLWithPath: file))
    let result = try runBinary([
      "upcoming", file, "--now", "2027-01-04T06:30:00Z", "--tz", "UTC", "--limit", "2",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let rows = result.stdout.split(separator: "\n").map(String.init)
    #expect(rows.count == 2)
    // `AUDIO` starts in one column on both rows: after `Longer label` (12) and two spaces.
    let columns = rows.compactMap { row in
      row.range(of: "AUDIO").map { row.distance(from: row.startIndex, to: $0.lowerBound) }
    }
    #expect(columns.count == 2 && columns[0] == columns[1])
    #expect(
      rows[0].hasPrefix(
        "Mon 2027-01-04  07:00     in 30m        A" + String(repeating: " ", count: 13) + "AUDIO"))
  }

  @Test("on a terminal the time is bold and the padding stays outside the bold run")
  func boldTime() throws {
    let calendar = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN",
      "BEGIN:VEVENT", "UID:a", "DTSTAMP:20270101T000000Z", "DTSTART:20270104T070000Z",
      "SUMMARY:A", "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:PT0S", "END:VALARM", "END:VEVENT",
      "END:VCALENDAR", "",
    ].joined(separator: "\r\n")
    var schedule = FiringSchedule(defaultZone: .utc)
    try schedule.read(Array(calendar.utf8), file: "a.ics")
    let now = Instant(secondsSince1970: 1_799_042_400)  // 2027-01-04T06:00:00Z
    let captured = CapturedText()
    var printer = FiringPrinter(format: .text, zone: .utc, now: now, colour: true, sink: captured)
    printer.begin()
    schedule.startFirings(from: now, to: nil, limit: 1)
    var batch = FiringBatch()
    schedule.nextFirings(max: 8, into: &batch)
    for index in 0..<batch.count { printer.print(batch, at: index) }
    printer.end()
    #expect(
      captured.text
        == "Mon 2027-01-04  \u{1B}[1m07:00\u{1B}[0m     in 1h 00m     A  AUDIO  a.ics\n")
  }
}
