import AlarmCal
import Foundation
import ICalendar
import Testing

/// What import must give so that a list made of a calendar rings as the calendar does: each
/// case is one that `scripts/check-roundtrip.py` found ringing differently.
@Suite struct RoundTripJointsTests {
  private func imported(_ text: String, now: String = "20261206T000000Z") throws -> ImportResult {
    try AlarmImporter(fileName: "t.ics", defaultTimeZone: "UTC", now: try instant(now))
      .importAlarms(fromText: text)
  }

  private func calendar(_ body: String) -> String {
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n\(body)END:VCALENDAR\r\n"
  }

  @Test("a VTIMEZONE that disagrees with its IANA name: its own offsets win, with a warning")
  func zoneDisagreesWithName() throws {
    let result = try imported(try fixtureText("repro/zone-disagrees-with-name.ics"))
    let alarm = try #require(result.alarms.first)
    // The file defines +05:00; the IANA Europe/Berlin is +01:00 in January.
    let zone = try #require(TimeZoneRules(identifier: alarm.timeZone))
    #expect(zone.offset(at: try instant("20270105T000000Z")) == 5 * 3600)
    #expect(alarm.timeZone != "Europe/Berlin")
    #expect(
      result.warnings.map(\.message).contains {
        $0.hasPrefix(
          "its VTIMEZONE \"Europe/Berlin\" defines other offsets than the IANA zone Europe/Berlin")
      })
  }

  @Test("khal's cut-down VTIMEZONE agrees with its IANA zone, which continues it: no warning")
  func cutDownZoneContinued() throws {
    let result = try imported(try fixtureText("repro/caldav-resource-cut-vtimezone.ics"))
    #expect(result.alarms.map(\.timeZone) == ["Europe/Berlin"])
    #expect(result.warnings.isEmpty)
  }

  @Test("khal's own VTIMEZONE (onsets in the local time after each change) is continued too")
  func khalWrittenZoneContinued() throws {
    let text = try fixtureText("repro/khal-written-vtimezone.ics")
    let result = try imported(text)
    #expect(result.alarms.map(\.timeZone) == ["Europe/Berlin"])
    #expect(result.warnings.isEmpty)
    let calendar = try #require(try ICalendarReader.read(Array(text.utf8)).first)
    let zone = try #require(calendar.components.first { $0.name == "VTIMEZONE" })
    let rules = try #require(VTimezoneRules(zone))
    let continued = try #require(ContinuedZone(rules, named: ["Europe/Berlin"]))
    // Past its last onset (2027-03-28) the IANA zone: winter time from 2027-10-31 01:00 UTC.
    #expect(continued.offset(at: Instant(secondsSince1970: 1_824_944_400 - 1)) == 7200)
    #expect(continued.offset(at: Instant(secondsSince1970: 1_824_944_400)) == 3600)
  }

  @Test("a one-shot whose exact trigger lands in a DST overlap is named by a loss line")
  func overlapOneShot() throws {
    let result = try imported(try fixtureText("schedule/overlap-trigger.ics"))
    #expect(
      result.losses.map(\.reason) == [
        "TRIGGER PT1H counts exact time across a DST change, so the calendar rings an hour off 01:10 for the instance of 2027-11-07"
      ])
  }

  @Test("a weekly alarm whose exact trigger crosses DST nights names those nights")
  func weeklyAcrossDSTNights() throws {
    let text = calendar(
      """
      BEGIN:VEVENT\r
      UID:w\r
      DTSTAMP:20260101T000000Z\r
      DTSTART;TZID=Europe/Berlin:20260104T031500\r
      RRULE:FREQ=WEEKLY;BYDAY=SU\r
      BEGIN:VALARM\r
      ACTION:DISPLAY\r
      DESCRIPTION:w\r
      TRIGGER:-PT30M\r
      END:VALARM\r
      END:VEVENT\r

      """)
    let result = try imported(text)
    #expect(result.alarms.count == 1)
    let reason = try #require(result.losses.first?.reason)
    // Sundays 03:15 Berlin: 30 minutes before lands in the spring gap (the calendar rings at
    // 01:45), and on the autumn nights at the second 02:45, an hour after the clock's first.
    #expect(
      reason.hasSuffix(
        "rings an hour off 02:45 for the instance of 2027-03-28, 2027-10-31, 2028-03-26, 2028-10-29"
      ))
    // A trigger of whole days or none keeps the wall clock: no line.
    let plain = try imported(text.replacingOccurrences(of: "-PT30M", with: "PT0S"))
    #expect(plain.losses.isEmpty)
  }

  @Test("revisions of one UID in separate calendars: the current one alone becomes the alarm")
  func revisionsAcrossCalendars() throws {
    func revision(_ sequence: Int, _ time: String) -> String {
      calendar(
        """
        BEGIN:VEVENT\r
        UID:x\r
        SEQUENCE:\(sequence)\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20270101T\(time)00Z\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:x\r
        TRIGGER:PT0S\r
        END:VALARM\r
        END:VEVENT\r

        """)
    }
    // The newer revision first: file order alone would pick the wrong one.
    let result = try imported(revision(1, "0800") + revision(0, "0700"))
    #expect(result.alarms.map(\.id) == ["x"])
    #expect(result.alarms.first?.schedule == .at(try local("20270101T080000")))
    #expect(result.warnings.map(\.message).contains { $0.hasPrefix("an older revision") })
  }

  @Test("Thunderbird's snooze of an item goes to its first alarm alone: it rings once")
  func mozillaSnoozeOnce() throws {
    let text = calendar(
      """
      BEGIN:VEVENT\r
      UID:tb\r
      DTSTAMP:20260101T000000Z\r
      DTSTART:20270101T080000Z\r
      X-MOZ-LASTACK:20270101T074600Z\r
      X-MOZ-SNOOZE-TIME:20270101T080500Z\r
      BEGIN:VALARM\r
      ACTION:DISPLAY\r
      DESCRIPTION:tb\r
      TRIGGER:-PT15M\r
      END:VALARM\r
      BEGIN:VALARM\r
      ACTION:DISPLAY\r
      DESCRIPTION:tb\r
      TRIGGER:-PT5M\r
      END:VALARM\r
      END:VEVENT\r

      """)
    let result = try imported(text)
    #expect(result.alarms.count == 2)
    #expect(result.alarms.map(\.snoozedUntil) == [try instant("20270101T080500Z"), nil])
  }
}
