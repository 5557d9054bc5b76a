import ICalendar
import LibicalReference
import Testing

@Suite struct PropertyValueTypesTests {
  /// The properties RFC 5545 defines as TEXT, with the section that says so. The printer's
  /// table lacked METHOD, CLASS, STATUS, TRANSP, ACTION and REQUEST-STATUS; the validator's
  /// lacked CALSCALE, PRODID, VERSION, TZID, RELATED-TO and UID, and those six too.
  static let textProperties: [(String, String)] = [
    ("CALSCALE", "3.7.1"), ("METHOD", "3.7.2"), ("PRODID", "3.7.3"), ("VERSION", "3.7.4"),
    ("CATEGORIES", "3.8.1.2"), ("CLASS", "3.8.1.3"), ("COMMENT", "3.8.1.4"),
    ("DESCRIPTION", "3.8.1.5"), ("LOCATION", "3.8.1.7"), ("RESOURCES", "3.8.1.10"),
    ("STATUS", "3.8.1.11"), ("SUMMARY", "3.8.1.12"), ("TRANSP", "3.8.2.7"), ("TZID", "3.8.3.1"),
    ("TZNAME", "3.8.3.2"), ("CONTACT", "3.8.4.2"), ("RELATED-TO", "3.8.4.5"), ("UID", "3.8.4.7"),
    ("ACTION", "3.8.6.1"), ("REQUEST-STATUS", "3.8.8.3"),
  ]

  @Test("the RFC 5545 TEXT properties are TEXT, at their section", arguments: textProperties)
  func textProperty(name: String, section: String) throws {
    let entry = try #require(PropertyValueType.byName[name], "\(name) has no entry")
    #expect(entry.type == .text)
    #expect(entry.section == "RFC 5545 §" + section)
  }

  @Test("no other RFC 5545 property is TEXT")
  func onlyThoseAreText() {
    let text = Set(
      PropertyValueType.byName.filter {
        $0.value.type == .text && $0.value.section.hasPrefix("RFC 5545")
      }
      .keys)
    #expect(text == Set(Self.textProperties.map(\.0)))
  }

  @Test(
    "lists separate values with commas; structured values separate parts with semicolons",
    arguments: [
      // §3.8.1.2, §3.8.1.10: TEXT lists; §3.8.2.6, §3.8.5.1-2: PERIOD and DATE-TIME lists.
      ("CATEGORIES", true, false), ("RESOURCES", true, false), ("FREEBUSY", true, false),
      ("EXDATE", true, false), ("RDATE", true, false),
      // §3.7.4 minver;maxver, §3.8.1.6 lat;long, §3.8.8.3 statcode;statdesc[;extdata].
      ("VERSION", false, true), ("GEO", false, true), ("REQUEST-STATUS", false, true),
      ("SUMMARY", false, false), ("UID", false, false), ("COMMENT", false, false),
    ])
  func separators(name: String, isList: Bool, isStructured: Bool) throws {
    let entry = try #require(PropertyValueType.byName[name])
    #expect(entry.isList == isList)
    #expect(entry.isStructured == isStructured)
  }

  @Test(
    "the other value types of RFC 5545 §3.8, RFC 7986 and RFC 9074",
    arguments: [
      ("ATTACH", ICalValueType.uri), ("GEO", .float), ("PERCENT-COMPLETE", .integer),
      ("PRIORITY", .integer), ("COMPLETED", .dateTime), ("DTEND", .dateTime), ("DUE", .dateTime),
      ("DTSTART", .dateTime), ("DURATION", .duration), ("FREEBUSY", .period),
      ("TZOFFSETFROM", .utcOffset), ("TZOFFSETTO", .utcOffset), ("TZURL", .uri),
      ("ATTENDEE", .calAddress), ("ORGANIZER", .calAddress), ("RECURRENCE-ID", .dateTime),
      ("URL", .uri), ("EXDATE", .dateTime), ("RDATE", .dateTime), ("RRULE", .recur),
      ("REPEAT", .integer), ("TRIGGER", .duration), ("CREATED", .dateTime),
      ("DTSTAMP", .dateTime), ("LAST-MODIFIED", .dateTime), ("SEQUENCE", .integer),
      ("NAME", .text), ("COLOR", .text), ("SOURCE", .uri), ("ACKNOWLEDGED", .dateTime),
      ("PROXIMITY", .text),
    ])
  func otherTypes(name: String, type: ICalValueType) {
    #expect(PropertyValueType.byName[name]?.type == type)
  }

  @Test("X- names and RFC 7986 properties whose VALUE is required have no entry")
  func noEntry() {
    for name in ["X-WR-CALNAME", "X-ALARMCAL-RINGS", "REFRESH-INTERVAL", "IMAGE", "CONFERENCE"] {
      #expect(PropertyValueType.byName[name] == nil, "\(name)")
    }
  }

  @Test(
    "the printer leaves out a VALUE parameter naming any property's default type",
    arguments: PropertyValueType.byName.keys.sorted())
  func printerUsesTheTable(name: String) throws {
    let type = try #require(PropertyValueType.byName[name]).type.rawValue
    let property = ICalProperty(name, "x", parameters: [ICalParameter("VALUE", type)])
    let printed = ICalendarPrinter.print(ICalComponent("VEVENT", properties: [property]))
    #expect(printed == "BEGIN:VEVENT\r\n\(name):x\r\nEND:VEVENT\r\n")
  }

  @Test(
    "libical refused VALUE=TEXT on the TEXT properties it held as enumerations; the RFC default goes",
    arguments: [
      ("METHOD", "PUBLISH"), ("CLASS", "PUBLIC"), ("STATUS", "CONFIRMED"), ("TRANSP", "OPAQUE"),
      ("ACTION", "DISPLAY"),
    ])
  func enumerationsDiffer(name: String, value: String) throws {
    let property = ICalProperty(name, value, parameters: [ICalParameter("VALUE", "TEXT")])
    let event = ICalComponent("VEVENT", properties: [property])
    #expect(throws: LibicalRefusal(contentLine: "\(name);VALUE=TEXT:\(value)")) {
      try LibicalReferencePrinter.print(event)
    }
    #expect(ICalendarPrinter.print(event) == "BEGIN:VEVENT\r\n\(name):\(value)\r\nEND:VEVENT\r\n")
  }
}
