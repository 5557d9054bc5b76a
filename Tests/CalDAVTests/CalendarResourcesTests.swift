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
    #expect(first.fileName == "a-x-a68d6277098b5822836dbc7977dd44fc.ics")
    #expect(resources.last?.fileName == "b-1-2-58a85c72ee83d94f70814e2a3d6de7a7.ics")
  }

  /// UIDs and the names their resources get: safe ones as they are, the rest readable and
  /// digested (FNV-1a 128; the empty UID gives its offset basis).
  @Test(
    "a resource name is safe for every server and stable for the UID",
    arguments: [
      ("2025-03-14-0702", "2025-03-14-0702.ics"),
      ("A_b.c", "A_b.c.ics"),
      // A space and colons: Radicale refuses them percent-encoded.
      ("2025-03-14 07:02:11", "2025-03-14-07-02-11-a6fc0d1be683ebf6ab83662f1cc4bfcf.ics"),
      // A leading dot would hide the file in a server's folder.
      (".a", "a-08809491d2ab1be95aa073305548fc50.ics"),
      ("", "6c62272e07bb014262b821756295c58d.ics"),
    ])
  func resourceName(uid: String, expected: String) {
    #expect(CalendarResource.fileName(forUID: uid) == expected)
    let name = CalendarResource.fileName(forUID: uid)
    #expect(name.utf8.count <= 100 + 4)
    #expect(name.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "%") && $0 != 0x20 })
  }

  @Test("long, non-ASCII, slash and percent UIDs get distinct short names")
  func awkwardNames() {
    let uids = [
      String(repeating: "x", count: 300), String(repeating: "x", count: 301), "a/b", "a%2Fb",
      "a b", "Wecker ⏰ früh", "⏰", "ö", "x", String(repeating: "y", count: 100),
    ]
    let names = uids.map(CalendarResource.fileName(forUID:))
    #expect(Set(names).count == uids.count)
    #expect(names.allSatisfy { $0.utf8.count <= 104 && !$0.contains("/") && !$0.contains("%") })
    #expect(CalendarResource.fileName(forUID: "a b") == CalendarResource.fileName(forUID: "a b"))
    #expect(names[5].hasPrefix("Wecker-fr-h-"))
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
  /// A calendar of one event at 07:00 in Europe/Berlin, whose VTIMEZONE has `observances`.
  static func zoned(_ uid: String, _ observances: String, extra: String = "") -> String {
    """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//test//EN\r
    BEGIN:VTIMEZONE\r
    TZID:Europe/Berlin\r
    \(extra)\(observances)END:VTIMEZONE\r
    BEGIN:VEVENT\r
    UID:\(uid)\r
    DTSTART;TZID=Europe/Berlin:20270101T070000\r
    END:VEVENT\r
    END:VCALENDAR\r

    """
  }

  static let winter =
    "BEGIN:STANDARD\r\nDTSTART:19701025T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n"
  static let cut =
    "BEGIN:STANDARD\r\nDTSTART:20261025T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n"

  @Test("join keeps apart resources that define one TZID differently; split gives each its own")
  func joinDifferingZones() throws {
    let texts = [
      Self.zoned("a", Self.winter), Self.zoned("b", Self.cut),
      Self.zoned("c", Self.winter, extra: "LAST-MODIFIED:20200101T000000Z\r\n"),
    ]
    let resources = try texts.map {
      try #require(try CalendarResources.split(ICalendarReader.read(Array($0.utf8))).first)
    }
    let joined = CalendarResources.join(resources.map(\.calendar))
    #expect(joined.count == 2)
    #expect(
      joined.map { $0.components.map(\.name) } == [
        ["VTIMEZONE", "VEVENT", "VEVENT"], ["VTIMEZONE", "VEVENT"],
      ])
    let again = try CalendarResources.split(joined)
    #expect(again.map(\.uid) == ["a", "c", "b"])
    let zoneOf = { (resource: CalendarResource) in
      resource.calendar.components.first { $0.name == "VTIMEZONE" }?.components.first?
        .propertyValue(uppercased: "DTSTART")
    }
    #expect(again.map(zoneOf) == ["19701025T030000", "19701025T030000", "20261025T030000"])
  }
}
