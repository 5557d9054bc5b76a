import ICalendar
import LibicalReference
import Testing

@Suite struct RecurrenceRuleTests {
  @Test("a weekly rule reads into its parts and prints canonically")
  func weekly() throws {
    let rule = try RecurrenceRule(parsing: "BYDAY=MO,WE,-1FR;FREQ=WEEKLY;WKST=SU;INTERVAL=2")
    #expect(rule.frequency == .weekly)
    #expect(rule.interval == 2)
    #expect(rule.byDay == [.init(.monday), .init(.wednesday), .init(ordinal: -1, .friday)])
    #expect(rule.weekStart == .sunday)
    #expect(rule.text == "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,-1FR;WKST=SU")
  }

  @Test("UNTIL keeps its DATE or UTC DATE-TIME form")
  func until() throws {
    let rule = try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20261231T230000Z")
    #expect(rule.until == DateTimeValue(text: "20261231T230000Z"))
    #expect(rule.text == "FREQ=DAILY;UNTIL=20261231T230000Z")
  }

  @Test(
    "broken rules are refused with the reason",
    arguments: [
      ("BYDAY=MO", "FREQ is missing"),
      ("FREQ=FORTNIGHTLY", "FREQ \"FORTNIGHTLY\" is not a frequency"),
      ("FREQ=DAILY;INTERVAL=0", "INTERVAL must be a positive integer, not \"0\""),
      ("FREQ=DAILY;COUNT=3;UNTIL=20260101", "COUNT and UNTIL cannot both be given"),
      ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY value \"32\" is outside ±1...±31"),
      ("FREQ=YEARLY;BYDAY=54MO", "BYDAY value \"54MO\" has an ordinal outside ±1...±53"),
      ("FREQ=DAILY;FREQ=WEEKLY", "FREQ appears twice"),
      ("FREQ=DAILY;BYHOUR=24", "BYHOUR value \"24\" is outside 0...23"),
      ("FREQ=DAILY;COLOR=red", "COLOR is not an RRULE part"),
    ])
  func broken(text: String, message: String) {
    #expect(throws: RecurrenceRuleError.self) { try RecurrenceRule(parsing: text) }
    do {
      _ = try RecurrenceRule(parsing: text)
    } catch {
      #expect(error.message == message)
    }
  }

  @Test("libical expands a weekly rule in wall-clock time")
  func libicalExpansion() throws {
    let start = try #require(DateTimeValue(text: "20261130T063000")).local  // a Monday
    let end = try #require(DateTimeValue(text: "20261213T000000")).local
    let starts = try LibicalRecurrence.starts(
      rule: "FREQ=WEEKLY;BYDAY=MO,FR", from: start, through: end, limit: 100)
    #expect(
      starts.map(\.icalString) == [
        "20261130T063000", "20261204T063000", "20261207T063000", "20261211T063000",
      ])
  }

  @Test("RFC 5545 §3.8.5.3: every other week on Tuesday and Thursday, for 8 occurrences")
  func rfcEveryOtherWeek() throws {
    let start = try #require(DateTimeValue(text: "19970902T090000")).local
    let end = try #require(DateTimeValue(text: "19980101T000000")).local
    let starts = try LibicalRecurrence.starts(
      rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH", from: start, through: end,
      limit: 100)
    // The RFC lists: Sep 2,4,16,18,30; Oct 2,14,16 (1997).
    #expect(
      starts.map { "\($0.date.month)/\($0.date.day)" } == [
        "9/2", "9/4", "9/16", "9/18", "9/30", "10/2", "10/14", "10/16",
      ])
  }
}
