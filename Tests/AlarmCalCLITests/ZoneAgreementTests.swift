import Foundation
import Testing

/// Where a calendar time is has one rule (`CalendarTimes`): `upcoming` on a calendar file and
/// `upcoming` on the alarm list `convert` made of it ring at the same instants, whatever the
/// file's VTIMEZONEs say, and `convert` says so when its zone is not the one the file names.
@Suite struct ZoneAgreementTests {
  /// A calendar of one weekly Tuesday 07:00 alarm (first on 2026-12-08) in `tzid`, after
  /// `vtimezone`.
  static func calendar(vtimezone: String, tzid: String) -> String {
    """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//test//EN\r
    \(vtimezone)BEGIN:VEVENT\r
    UID:tuesday\r
    DTSTAMP:20261201T000000Z\r
    DTSTART;TZID=\(tzid):20261208T070000\r
    RRULE:FREQ=WEEKLY;BYDAY=TU\r
    SUMMARY:Tuesday\r
    BEGIN:VALARM\r
    ACTION:DISPLAY\r
    DESCRIPTION:Tuesday\r
    TRIGGER:PT0S\r
    END:VALARM\r
    END:VEVENT\r
    END:VCALENDAR\r

    """
  }

  /// Europe/Berlin as the IANA zone has it since 1996: +01:00, +02:00 from the last Sunday of
  /// March to the last Sunday of October.
  static let berlin = """
    BEGIN:VTIMEZONE\r
    TZID:Europe/Berlin\r
    BEGIN:DAYLIGHT\r
    DTSTART:19700329T020000\r
    RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r
    TZOFFSETFROM:+0100\r
    TZOFFSETTO:+0200\r
    TZNAME:CEST\r
    END:DAYLIGHT\r
    BEGIN:STANDARD\r
    DTSTART:19701025T030000\r
    RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r
    TZOFFSETFROM:+0200\r
    TZOFFSETTO:+0100\r
    TZNAME:CET\r
    END:STANDARD\r
    END:VTIMEZONE\r

    """

  /// What `upcoming` rings for the file and for the list `convert` made of it (two rings
  /// each, from the series' first day), the list's zone, and what `convert` said.
  static func rings(_ text: String) throws -> (
    file: [String], list: [String], zone: String?, said: String
  ) {
    let folder = try temporaryFolder()
    let ics = folder.appendingPathComponent("tuesday.ics").path
    let json = folder.appendingPathComponent("tuesday.json").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: ics))
    let now = "2026-12-08T00:00:00Z"
    let converted = try runBinary(["convert", ics, "-o", json, "--now", now, "--tz", "UTC"])
    #expect(converted.status == 0, "\(converted.stderr)")
    let list = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json)))
        as? [String: Any])
    let alarms = try #require(list["alarms"] as? [[String: Any]])
    let times = { (file: String) throws -> [String] in
      try upcomingFirings(file, now: now, limit: 2, zone: "UTC").compactMap {
        $0["trigger"] as? String
      }
    }
    return (
      try times(ics), try times(json), alarms.first?["timeZone"] as? String, converted.stderr
    )
  }

  @Test("a VTIMEZONE named Europe/Berlin that defines +05:00 rings 02:00Z from the file and list")
  func disagreeingDefinition() throws {
    let fixed = """
      BEGIN:VTIMEZONE\r
      TZID:Europe/Berlin\r
      BEGIN:STANDARD\r
      DTSTART:19700101T000000\r
      TZOFFSETFROM:+0500\r
      TZOFFSETTO:+0500\r
      END:STANDARD\r
      END:VTIMEZONE\r

      """
    let result = try Self.rings(Self.calendar(vtimezone: fixed, tzid: "Europe/Berlin"))
    // 07:00 at +05:00 is 02:00 UTC (RFC 5545 §3.6.5: the file's definition governs).
    let expected = ["2026-12-08T02:00:00Z", "2026-12-15T02:00:00Z"]
    #expect(result.file == expected)
    #expect(result.list == expected)
    #expect(result.zone != "Europe/Berlin")
    #expect(
      result.said.contains(
        "its VTIMEZONE \"Europe/Berlin\" defines other offsets than the IANA zone Europe/Berlin"))
  }

  @Test("a VTIMEZONE without offsets is the IANA zone its X-LIC-LOCATION names, in both")
  func definitionWithoutOffsets() throws {
    let named = """
      BEGIN:VTIMEZONE\r
      TZID:Customized Time Zone\r
      X-LIC-LOCATION:Europe/Berlin\r
      END:VTIMEZONE\r

      """
    let result = try Self.rings(Self.calendar(vtimezone: named, tzid: "Customized Time Zone"))
    // Berlin is +01:00 in December.
    let expected = ["2026-12-08T06:00:00Z", "2026-12-15T06:00:00Z"]
    #expect(result.file == expected)
    #expect(result.list == expected)
    #expect(result.zone == "Europe/Berlin")
  }

  @Test("a VTIMEZONE that agrees with its IANA name imports cleanly into that zone")
  func agreeingDefinition() throws {
    let result = try Self.rings(Self.calendar(vtimezone: Self.berlin, tzid: "Europe/Berlin"))
    let expected = ["2026-12-08T06:00:00Z", "2026-12-15T06:00:00Z"]
    #expect(result.file == expected)
    #expect(result.list == expected)
    #expect(result.zone == "Europe/Berlin")
    #expect(result.said == "")
  }
}
