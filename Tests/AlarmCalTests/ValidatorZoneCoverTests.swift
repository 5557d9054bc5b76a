import AlarmCal
import Foundation
import ICalendar
import Testing

/// `validate` on a VTIMEZONE cut short of the series that names it (RFC 5545 §3.6.5), and on
/// the calendars alarmcal keeps apart in its own files.
@Suite struct ValidatorZoneCoverTests {
  /// A calendar with a Berlin-like VTIMEZONE named `tzid` whose two onsets end in 2027, and a
  /// weekly event in it with `rule`.
  static func calendar(tzid: String, rule: String, prodid: String = "-//test//EN") -> String {
    """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:\(prodid)\r
    BEGIN:VTIMEZONE\r
    TZID:\(tzid)\r
    BEGIN:STANDARD\r
    DTSTART:20261025T030000\r
    TZOFFSETFROM:+0200\r
    TZOFFSETTO:+0100\r
    END:STANDARD\r
    BEGIN:DAYLIGHT\r
    DTSTART:20270328T020000\r
    TZOFFSETFROM:+0100\r
    TZOFFSETTO:+0200\r
    END:DAYLIGHT\r
    END:VTIMEZONE\r
    BEGIN:VEVENT\r
    UID:w\r
    DTSTAMP:20261206T080000Z\r
    DTSTART;TZID=\(tzid):20261207T063000\r
    DURATION:PT1M\r
    RRULE:\(rule)\r
    SUMMARY:w\r
    END:VEVENT\r
    END:VCALENDAR\r

    """
  }

  static func findings(_ text: String) -> [String] {
    Validator.validate(Array(text.utf8), file: "x.ics").map {
      "\($0.line):\($0.column) \($0.severity) \($0.rule)"
    }
  }

  @Test("an endless series past a cut VTIMEZONE: a note when its IANA name continues it")
  func continued() {
    #expect(
      Self.findings(Self.calendar(tzid: "Europe/Berlin", rule: "FREQ=WEEKLY"))
        == ["20:14 note timezone.continued-by-iana"])
  }

  @Test("the same with a TZID no IANA zone continues: a warning")
  func notContinued() {
    #expect(
      Self.findings(Self.calendar(tzid: "Berlin khal", rule: "FREQ=WEEKLY"))
        == ["20:14 warning timezone.ends-before-series"])
  }

  @Test("a series that ends inside the definition, or counts its instances, is covered")
  func covered() {
    #expect(
      Self.findings(Self.calendar(tzid: "Berlin khal", rule: "FREQ=WEEKLY;UNTIL=20270301T000000Z"))
        .isEmpty)
    #expect(Self.findings(Self.calendar(tzid: "Berlin khal", rule: "FREQ=WEEKLY;COUNT=3")).isEmpty)
    #expect(
      Self.findings(Self.calendar(tzid: "Berlin khal", rule: "FREQ=WEEKLY;UNTIL=20280101T000000Z"))
        == ["20:14 warning timezone.ends-before-series"])
  }

  /// A calendar whose VTIMEZONE `tzid` has one observance of one offset from 1970 (a zone
  /// without daylight saving time, as alarmcal writes one), and an endless weekly event
  /// in it.
  static func oneOffsetCalendar(tzid: String) -> String {
    """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//test//EN\r
    BEGIN:VTIMEZONE\r
    TZID:\(tzid)\r
    BEGIN:STANDARD\r
    DTSTART:19700101T000000\r
    TZOFFSETFROM:+0900\r
    TZOFFSETTO:+0900\r
    TZNAME:JST\r
    END:STANDARD\r
    END:VTIMEZONE\r
    BEGIN:VEVENT\r
    UID:t\r
    DTSTAMP:20261206T080000Z\r
    DTSTART;TZID=\(tzid):20261207T063000\r
    DURATION:PT1M\r
    RRULE:FREQ=WEEKLY\r
    SUMMARY:t\r
    END:VEVENT\r
    END:VCALENDAR\r

    """
  }

  @Test(
    "a definition of one offset holds from its onset on: nothing ends, nothing is reported",
    arguments: ["Asia/Tokyo", "Tokyo fixed"])
  func oneOffsetHoldsOn(tzid: String) throws {
    #expect(Self.findings(Self.oneOffsetCalendar(tzid: tzid)).isEmpty)
    let zone = try #require(
      ICalendarReader.read(Array(Self.oneOffsetCalendar(tzid: tzid).utf8)).first?.components
        .first { $0.name == "VTIMEZONE" })
    let rules = try #require(VTimezoneRules(zone))
    #expect(rules.definedUntil == nil)
    #expect(rules.offset(at: Instant(secondsSince1970: 4_102_444_800)) == 9 * 3600)  // 2100
  }

  @Test("alarmcal's own calendars kept apart by a differing definition are not reported")
  func ownCalendarsApart() {
    let rule = "FREQ=WEEKLY;COUNT=3"
    let own = Self.calendar(tzid: "Europe/Berlin", rule: rule, prodid: "-//alarmcal//EN")
    let differing = own.replacingOccurrences(of: "20261025T030000", with: "20261025T020000")
    #expect(Self.findings(own + differing).filter { $0.contains("structure") }.isEmpty)
    // Calendars that could be one, alarmcal's or another program's, are reported.
    #expect(
      Self.findings(own + own).filter { $0.contains("structure") }
        == ["26:1 warning structure.multiple-calendars"])
    let other = Self.calendar(tzid: "Europe/Berlin", rule: rule)
    let otherDiffering = other.replacingOccurrences(of: "20261025T030000", with: "20261025T020000")
    #expect(
      Self.findings(other + otherDiffering).filter { $0.contains("structure") }
        == ["26:1 warning structure.multiple-calendars"])
  }
}
