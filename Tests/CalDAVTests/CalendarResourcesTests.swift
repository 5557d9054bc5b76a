import CalDAV
import ICalendar
import Testing

@Suite struct CalendarResourcesTests {
  static let calendar = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//test//EN\r
    BEGIN:VTIMEZONE\r
    TZID:Europe/Berlin\r
    END:VTIMEZONE\r
    BEGIN:VTIMEZONE\r
    TZID:America/New_York\r
    END:VTIMEZONE\r
    BEGIN:VEVENT\r
    UID:a@x\r
    DTSTART;TZID=Europe/Berlin:20270101T070000\r
    RRULE:FREQ=DAILY\r
    END:VEVENT\r
    BEGIN:VTODO\r
    UID:b/1 2\r
    DUE:20270101T070000Z\r
    END:VTODO\r
    BEGIN:VEVENT\r
    UID:a@x\r
    RECURRENCE-ID;TZID=Europe/Berlin:20270102T070000\r
    DTSTART;TZID=Europe/Berlin:20270102T080000\r
    END:VEVENT\r
    END:VCALENDAR\r

    """

  @Test("one resource per UID with its overrides and only the zones it names")
  func split() throws {
    let resources = try CalendarResources.split(ICalendarReader.read(Array(Self.calendar.utf8)))
    #expect(resources.map(\.uid) == ["a@x", "b/1 2"])
    let first = try #require(resources.first)
    #expect(first.calendar.components.map(\.name) == ["VTIMEZONE", "VEVENT", "VEVENT"])
    #expect(first.calendar.components.first?.propertyValue(uppercased: "TZID") == "Europe/Berlin")
    #expect(first.calendar.propertyValue(uppercased: "PRODID") == "-//test//EN")
    #expect(resources.last?.calendar.components.map(\.name) == ["VTODO"])
    #expect(first.fileName == "a%40x.ics")
    #expect(resources.last?.fileName == "b%2F1%202.ics")
  }

  @Test("join gives every component back with each zone once")
  func join() throws {
    let resources = try CalendarResources.split(ICalendarReader.read(Array(Self.calendar.utf8)))
    let joined = CalendarResources.join(resources.map(\.calendar))
    #expect(joined.count == 1)
    #expect(joined.first?.components.map(\.name) == ["VTIMEZONE", "VEVENT", "VEVENT", "VTODO"])
  }

  @Test("a component without a UID is refused")
  func missingUID() throws {
    let text =
      "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20270101T070000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    #expect(throws: ResourceSplitError.self) {
      try CalendarResources.split(ICalendarReader.read(Array(text.utf8)))
    }
  }
}
