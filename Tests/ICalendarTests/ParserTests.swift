import Foundation
import ICalendar
import LibicalReference
import Testing

@Suite struct ParserTests {
  private func fixture(_ name: String) throws -> String {
    let url = try #require(
      Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
      "missing fixture Fixtures/\(name)")
    return try String(contentsOf: url, encoding: .utf8)
  }

  @Test("a calendar prints as its own lines around each of its events printed alone")
  func printsEvents() {
    func event(_ index: Int) -> ICalComponent {
      ICalComponent(
        "VEVENT",
        properties: [
          ICalProperty("UID", "e\(index)"), ICalProperty("DTSTAMP", "20260101T000000Z"),
          ICalProperty("DTSTART", "20270101T0900\(index % 6)0Z"),
          .text("SUMMARY", "Event \(index), a label long enough to be folded at 75 octets"),
        ])
    }
    let head = [ICalProperty("VERSION", "2.0"), ICalProperty("PRODID", "-//t//t//EN")]
    let events = (0..<3).map(event)
    let whole = ICalendarPrinter.print(
      ICalComponent("VCALENDAR", properties: head, components: events))
    let expected =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
      + events.map(ICalendarPrinter.print).joined() + "END:VCALENDAR\r\n"
    #expect(whole == expected)
  }

  @Test("components carry the physical line of their BEGIN, folded lines counted")
  func lineNumbers() throws {
    let calendars = try LibicalReader.parse(try fixture("lines.ics"))
    let calendar = try #require(calendars.first)
    #expect(calendar.line == 1)
    let events = calendar.components(named: "VEVENT")
    #expect(events.map(\.line) == [5, 15])
    #expect(events.first?.components.first?.line == 10)
    #expect(events.first?.property("SUMMARY")?.text == "A folded summary, with a comma")
  }

  @Test("libical's X-LIC-ERROR notes stay as properties so import can report them")
  func licErrors() throws {
    let calendars = try LibicalReader.parse(try fixture("lines.ics"))
    let second = try #require(calendars.first?.components(named: "VEVENT").last)
    #expect(second.property("X-LIC-ERROR") != nil)
    #expect(second.property("DTEND") == nil)
  }

  @Test("several VCALENDARs in one text come back as several components")
  func severalCalendars() throws {
    let one = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:a\r\nEND:VCALENDAR\r\n"
    let calendars = try LibicalReader.parse(
      one + one.replacingOccurrences(of: "PRODID:a", with: "PRODID:b"))
    #expect(calendars.map(\.name) == ["VCALENDAR", "VCALENDAR"])
    #expect(calendars.map { $0.property("PRODID")?.value } == ["a", "b"])
    #expect(calendars.map(\.line) == [1, 5])
  }

  @Test("text without BEGIN is refused with a line")
  func notICalendar() {
    #expect(
      throws: ICalendarSyntaxError(line: 1, message: "no BEGIN line: this is not iCalendar data")
    ) {
      try LibicalReader.parse("hello\nworld\n")
    }
  }

  @Test("a NUL byte is refused with its line")
  func nulByte() {
    #expect(
      throws: ICalendarSyntaxError(
        line: 2, message: "contains a NUL byte: this is not iCalendar text")
    ) {
      try LibicalReader.parse("BEGIN:VCALENDAR\r\nX\0Y\r\nEND:VCALENDAR\r\n")
    }
  }

  @Test("printing reaches a fixed point: parse, print, parse, print gives the same text")
  func fixedPoint() throws {
    let first = try LibicalReader.parse(try fixture("lines.ics"))
    let printed = ICalendarPrinter.print(try #require(first.first))
    let second = try LibicalReader.parse(printed)
    let reprinted = ICalendarPrinter.print(try #require(second.first))
    #expect(printed == reprinted)
  }

  @Test("printed lines end in CRLF and fold at 75 octets without splitting a character")
  func folding() throws {
    let label = String(repeating: "Frühstück ☕ ", count: 20) + "end"
    var event = ICalComponent("VEVENT")
    event.add(ICalProperty("UID", "x"))
    event.add(.text("SUMMARY", label))
    let text = ICalendarPrinter.print(event)
    let lines = text.components(separatedBy: "\r\n").dropLast()
    #expect(text.hasSuffix("\r\n"))
    #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    for line in lines { #expect(line.utf8.count <= 75, "line over 75 octets: \(line)") }
    let back = try LibicalReader.parse(text)
    #expect(back.first?.property("SUMMARY")?.text == label)
  }

  @Test(
    "components libical has no name for (VLOCATION, PARTICIPANT) come back with their BEGIN name")
  func unknownComponents() throws {
    let text =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:a\r\n"
      + "BEGIN:VLOCATION\r\nUID:l\r\nEND:VLOCATION\r\nBEGIN:PARTICIPANT\r\nUID:p\r\n"
      + "END:PARTICIPANT\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    let event = try #require(try LibicalReader.parse(text).first?.components.first)
    #expect(event.components.map(\.name) == ["VLOCATION", "PARTICIPANT"])
    #expect(event.components.map(\.line) == [6, 9])
  }

  @Test("a byte order mark before BEGIN is skipped and does not shift line numbers")
  func byteOrderMark() throws {
    let text =
      "\u{FEFF}BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:a\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    let calendar = try #require(try LibicalReader.parse(text).first)
    #expect(calendar.line == 1)
    #expect(calendar.components.first?.line == 4)
  }
}
