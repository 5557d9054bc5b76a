import CalDAV
import ICalendar
import Testing

/// alarmcal's PRODID has one home: what CalDAV adds is what the exporter writes.
@Suite struct ProductIdentifierTests {
  @Test("a resource split from a calendar without PRODID gets alarmcal's, the exporter's")
  func split() throws {
    let text =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20270101T070000Z\r\n"
      + "END:VEVENT\r\nEND:VCALENDAR\r\n"
    let resources = try CalendarResources.split(ICalendarReader.read(Array(text.utf8)))
    let resource = try #require(resources.first)
    // Before, CalDAV wrote -//alarmcal//EN here and the exporter -//alarmcal//alarmcal 0.1//EN.
    #expect(
      resource.calendar.propertyValue(uppercased: "PRODID") == "-//alarmcal//alarmcal 0.1//EN")
    #expect(ProductIdentifier.alarmcal == "-//alarmcal//alarmcal 0.1//EN")
  }

  @Test("joined resources carry alarmcal's PRODID")
  func join() throws {
    let text =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//other//EN\r\nBEGIN:VEVENT\r\nUID:a\r\n"
      + "DTSTART:20270101T070000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    let joined = CalendarResources.join(try ICalendarReader.read(Array(text.utf8)))
    #expect(joined.map { $0.propertyValue(uppercased: "PRODID") } == [ProductIdentifier.alarmcal])
  }

  @Test("calendars alarmcal wrote, now and before the PRODIDs were one, are its own")
  func own() {
    #expect(ProductIdentifier.isAlarmcal(ProductIdentifier.alarmcal))
    #expect(ProductIdentifier.isAlarmcal("-//alarmcal//EN"))
    #expect(!ProductIdentifier.isAlarmcal("-//Apple Inc.//macOS 15//EN"))
  }
}
