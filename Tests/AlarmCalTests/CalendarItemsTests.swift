import AlarmCal
import ICalendar
import Testing

/// Import and the scheduler group a calendar's items in one place (`CalendarItems`): the same
/// revisions are current, the same ones are passed over with the same words, and the list
/// import makes rings when the calendar does.
@Suite struct CalendarItemsTests {
  /// A weekly Tuesday event of UID `u` at `time` (UTC), first on 2027-01-05, with `SEQUENCE`.
  static func master(sequence: Int, time: String) -> String {
    """
    BEGIN:VEVENT\r
    UID:u\r
    SEQUENCE:\(sequence)\r
    DTSTAMP:20270101T000000Z\r
    DTSTART:20270105T\(time)Z\r
    RRULE:FREQ=WEEKLY;BYDAY=TU\r
    SUMMARY:u\r
    BEGIN:VALARM\r
    ACTION:DISPLAY\r
    DESCRIPTION:u\r
    TRIGGER:PT0S\r
    END:VALARM\r
    END:VEVENT\r

    """
  }

  /// The 2027-01-12 instance of the SEQUENCE 1 series moved to 10:00.
  static let override = """
    BEGIN:VEVENT\r
    UID:u\r
    SEQUENCE:1\r
    DTSTAMP:20270101T000000Z\r
    RECURRENCE-ID:20270112T080000Z\r
    DTSTART:20270112T100000Z\r
    SUMMARY:u\r
    BEGIN:VALARM\r
    ACTION:DISPLAY\r
    DESCRIPTION:u\r
    TRIGGER:PT0S\r
    END:VALARM\r
    END:VEVENT\r

    """

  static func calendar(_ body: String) -> String {
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n\(body)END:VCALENDAR\r\n"
  }

  static let now = Instant(secondsSince1970: 1_798_761_600)  // 2027-01-01T00:00:00Z

  /// The first `count` rings of `text` from ``now``, and the scheduler's warnings.
  static func rings(_ text: String, count: Int = 4) throws -> (rings: [String], warnings: [String])
  {
    var schedule = FiringSchedule(defaultZone: .utc)
    try schedule.read(Array(text.utf8), file: "a.ics")
    let rings = schedule.firings(from: now, to: nil, limit: count).map(\.trigger.description)
    return (rings, schedule.warnings.map { "\($0.line ?? 0): \($0.message)" })
  }

  @Test("revisions of one UID across two calendars: import and upcoming keep and say the same")
  func revisionsAcrossCalendars() throws {
    // Calendar 1 holds the newest revision (SEQUENCE 2, 08:30); calendar 2 two older ones and
    // an override of the SEQUENCE 1 series, all passed over with their calendar.
    let text =
      Self.calendar(Self.master(sequence: 2, time: "083000"))
      + Self.calendar(
        Self.master(sequence: 0, time: "070000") + Self.master(sequence: 1, time: "080000")
          + Self.override)
    let scheduled = try Self.rings(text)
    let tuesdays = ["2027-01-05", "2027-01-12", "2027-01-19", "2027-01-26"]
    #expect(scheduled.rings == tuesdays.map { "\($0)T08:30:00Z" })
    // Each older master of calendar 2 (lines 21 and 34) gives way to the one at line 4.
    #expect(
      scheduled.warnings == [
        "21: an older revision than the one at line 4 (its SEQUENCE 0 is lower than 2); it is ignored",
        "34: an older revision than the one at line 4 (its SEQUENCE 1 is lower than 2); it is ignored",
      ])
    let imported = try AlarmImporter(fileName: "a.ics", defaultTimeZone: "UTC", now: Self.now)
      .importAlarms(fromText: text)
    #expect(imported.warnings.map { "\($0.line ?? 0): \($0.message)" } == scheduled.warnings)
    #expect(imported.losses.isEmpty)
    // The list import made rings as the calendar does.
    let list = try AlarmExporter(now: Self.now, timestamp: Self.now).text(imported.alarms)
    #expect(try Self.rings(list).rings == scheduled.rings)
  }

  @Test("an override of the current revision moves its instance in upcoming; import says so")
  func overrideOfCurrent() throws {
    let text = Self.calendar(
      Self.master(sequence: 0, time: "070000") + Self.master(sequence: 1, time: "080000")
        + Self.override)
    let scheduled = try Self.rings(text, count: 3)
    #expect(
      scheduled.rings == ["2027-01-05T08:00:00Z", "2027-01-12T10:00:00Z", "2027-01-19T08:00:00Z"])
    let imported = try AlarmImporter(fileName: "a.ics", defaultTimeZone: "UTC", now: Self.now)
      .importAlarms(fromText: text)
    #expect(imported.warnings.map { "\($0.line ?? 0): \($0.message)" } == scheduled.warnings)
    // A clock alarm has no exceptions: the moved instance is a loss line, at the override.
    #expect(imported.losses.map(\.line) == [30])
    #expect(imported.alarms.count == 1)
  }

  @Test("validate checks an override against the current revision, as upcoming attaches it")
  func validateOverrideOfCurrent() throws {
    // The override names the 08:00 instance of 2027-01-12: an instance of the SEQUENCE 1
    // series (08:00), not of the SEQUENCE 0 one (07:00) that comes first in the file.
    let text = Self.calendar(
      Self.master(sequence: 0, time: "070000") + Self.master(sequence: 1, time: "080000")
        + Self.override)
    #expect(try Self.rings(text, count: 3).rings.contains("2027-01-12T10:00:00Z"))
    let rules = Validator.validate(Array(text.utf8), file: "a.ics").map(\.rule)
    #expect(!rules.contains("semantic.unmatched-recurrence-id"))
    // The two masters still share a UID, which validate says.
    #expect(rules.contains("semantic.duplicate-uid"))
  }
}
