import AlarmCal
import Foundation
import ICalendar
import Testing

/// One UID saved in several calendars of one file (iTIP messages, libical's test data): the
/// current master (RFC 5546 §2.1.5) rings, the others are passed over with a warning, in
/// `upcoming` as in import.
@Suite struct RevisionsAcrossCalendarsTests {
  static func calendar(sequence: Int, hour: Int, override: Bool = false) -> String {
    let extra =
      override
      ? """
      BEGIN:VEVENT\r
      UID:u\r
      SEQUENCE:\(sequence)\r
      DTSTAMP:20270101T000000Z\r
      RECURRENCE-ID:20270105T0\(hour)0000Z\r
      DTSTART:20270105T110000Z\r
      BEGIN:VALARM\r
      ACTION:DISPLAY\r
      DESCRIPTION:u\r
      TRIGGER:PT0S\r
      END:VALARM\r
      END:VEVENT\r

      """ : ""
    return """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:-//test//EN\r
      BEGIN:VEVENT\r
      UID:u\r
      SEQUENCE:\(sequence)\r
      DTSTAMP:20270101T000000Z\r
      DTSTART:20270101T0\(hour)0000Z\r
      RRULE:FREQ=DAILY;COUNT=7\r
      BEGIN:VALARM\r
      ACTION:DISPLAY\r
      DESCRIPTION:u\r
      TRIGGER:PT0S\r
      END:VALARM\r
      END:VEVENT\r
      \(extra)END:VCALENDAR\r

      """
  }

  static func rings(_ text: String) throws -> (rings: [String], warnings: [String]) {
    var schedule = FiringSchedule(defaultZone: .utc)
    try schedule.read(Array(text.utf8), file: "a.ics")
    let rings = schedule.firings(from: Instant(secondsSince1970: 0), to: nil, limit: 100).map(
      \.trigger.description)
    return (rings, schedule.warnings.map(\.message))
  }

  @Test("the later SEQUENCE in another calendar rings; the older and its overrides do not")
  func newerElsewhere() throws {
    let text =
      Self.calendar(sequence: 0, hour: 7, override: true) + Self.calendar(sequence: 1, hour: 8)
    let (rings, warnings) = try Self.rings(text)
    #expect(rings.count == 7)
    #expect(rings.allSatisfy { $0.hasSuffix("T08:00:00Z") })
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("older revision") == true)
    // Import takes the same one, and says so of the same line.
    let imported = try AlarmImporter(
      fileName: "a.ics", defaultTimeZone: "UTC", now: Instant(secondsSince1970: 0)
    ).importAlarms(fromText: text)
    #expect(imported.warnings.map(\.message) == warnings)
  }

  @Test("the same UID in one calendar only is grouped as before")
  func oneCalendar() throws {
    let (rings, warnings) = try Self.rings(Self.calendar(sequence: 0, hour: 7, override: true))
    #expect(rings.count == 7)
    #expect(rings.contains("2027-01-05T11:00:00Z"))
    #expect(warnings.isEmpty)
  }
}
