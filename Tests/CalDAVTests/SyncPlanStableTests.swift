import CalDAV
import ICalendar
import Testing

/// What keeps a daily push from resending: a server's copy compared without DTSTAMP and with
/// lengths as seconds, and the values a push keeps of what it sent put back on a resource.
struct SyncPlanStableTests {
  /// One event's resource, CRLF line ends.
  static func event(stamp: String, start: String, summary: String = "Wake") -> String {
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:a\r\n"
      + "DTSTAMP:\(stamp)\r\nDTSTART;TZID=Europe/Berlin:\(start)\r\nSUMMARY:\(summary)\r\n"
      + "X-ALARMCAL-RINGS:ONCE\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:\(summary)\r\n"
      + "TRIGGER:PT0S\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
  }

  static func resource(_ text: String) throws -> CalendarResource {
    try #require(try CalendarResources.split(try ICalendarReader.read(Array(text.utf8))).first)
  }

  static func canonical(_ text: String) -> String {
    SyncPlan.canonical(Array(text.utf8))
  }

  @Test("a server's copy made at another moment is the same: DTSTAMP does not count")
  func stampIgnored() {
    let day1 = Self.event(stamp: "20261201T120000Z", start: "20261202T045000")
    let day2 = Self.event(stamp: "20261202T120000Z", start: "20261202T045000")
    #expect(Self.canonical(day1) == Self.canonical(day2))
    // Other properties still count: the start, and a stamp-like value elsewhere.
    let moved = Self.event(stamp: "20261201T120000Z", start: "20261203T045000")
    #expect(Self.canonical(day1) != Self.canonical(moved))
    let summary = Self.event(
      stamp: "20261201T120000Z", start: "20261202T045000", summary: "DTSTAMP:x")
    #expect(Self.canonical(day1) != Self.canonical(summary))
  }

  @Test(
    "a length as Xandikos stores it is the same length; another length is not",
    arguments: [
      ("TRIGGER:PT0S", "TRIGGER:P0D", true),
      ("TRIGGER;RELATED=END:-PT60M", "TRIGGER;RELATED=END:-PT1H", true),
      ("DURATION:PT24H", "DURATION:P1D", true),  // Python's timedelta keeps days
      ("TRIGGER:PT0S", "TRIGGER:PT5M", false),
      ("TRIGGER:-PT15M", "TRIGGER:PT15M", false),
      (
        "TRIGGER;VALUE=DATE-TIME:20261201T000000Z", "TRIGGER;VALUE=DATE-TIME:20261202T000000Z",
        false
      ),
      ("X-TRIGGER:PT0S", "X-TRIGGER:P0D", false),  // only TRIGGER and DURATION are lengths
    ])
  func lengths(sent: String, stored: String, same: Bool) {
    let wrap = { (line: String) in "BEGIN:VALARM\r\nACTION:DISPLAY\r\n\(line)\r\nEND:VALARM\r\n" }
    #expect((Self.canonical(wrap(sent)) == Self.canonical(wrap(stored))) == same)
  }

  @Test("kept values: DTSTAMP put back whole, DTSTART's date only, the time stays its own")
  func restoring() throws {
    let today = try Self.resource(
      Self.event(stamp: "20261206T120000Z", start: "20261207T051000"))
    let names = ["DTSTAMP", "COMPLETED", "DTSTART"]
    #expect(
      SyncPlan.values(names, of: today) == [
        "DTSTAMP": "20261206T120000Z", "DTSTART": "20261207T051000",
      ])
    let kept = ["DTSTAMP": "20261201T120000Z", "DTSTART": "20261202T045000"]
    let restored = try #require(SyncPlan.restoring(kept, datesOnly: ["DTSTART"], in: today))
    #expect(
      restored.bytes
        == Array(Self.event(stamp: "20261201T120000Z", start: "20261202T051000").utf8))
    // Put back whole, DTSTART is what was sent.
    let whole = try #require(SyncPlan.restoring(kept, in: today))
    #expect(
      whole.bytes == Array(Self.event(stamp: "20261201T120000Z", start: "20261202T045000").utf8))
  }

  @Test("kept values need one object that has each property, and a date that is digits")
  func restoringRefused() throws {
    let one = try Self.resource(Self.event(stamp: "20261206T120000Z", start: "20261207T051000"))
    #expect(SyncPlan.restoring(["COMPLETED": "20261201T120000Z"], in: one) == nil)
    #expect(
      SyncPlan.restoring(["DTSTART": "2026-12-01"], datesOnly: ["DTSTART"], in: one) == nil)
    var two = one
    two.calendar.components.append(two.calendar.components[0])
    #expect(SyncPlan.values(["DTSTAMP"], of: two) == nil)
    #expect(SyncPlan.restoring(["DTSTAMP": "20261201T120000Z"], in: two) == nil)
  }
}
