import Foundation
import ICalendar
import LibicalReference
import Testing

@Suite struct RecurrenceIteratorTests {
  /// One worked example of RFC 5545 §3.8.5.3.
  struct Example: Sendable, CustomTestStringConvertible {
    let title: String
    let start: String
    let rule: String
    /// The readings the RFC lists, in order (for an endless rule, its first ones).
    let expected: [String]
    /// Whether the RFC drops DTSTART with an EXDATE (the iterator always yields it first).
    var excludesStart = false

    var testDescription: String { title }
  }

  // MARK: RFC 5545 §3.8.5.3

  /// The RFC's examples, transcribed with its DTSTART, RRULE and listed dates. The RFC reads them
  /// in America/New_York; the iterator works on the wall clock, so the zone is left out. UNTIL
  /// is read as written (`until: nil`): the RFC's lists agree with that reading (its 3-hourly
  /// example lists 15:00 although 17:00Z is 13:00 in New York).
  static let rfcExamples: [Example] = [
    Example(
      title: "Daily for 10 occurrences", start: "19970902T090000",
      rule: "FREQ=DAILY;COUNT=10", expected: days("1997-09: 2-11")),
    Example(
      title: "Daily until December 24, 1997", start: "19970902T090000",
      rule: "FREQ=DAILY;UNTIL=19971224T000000Z",
      expected: days("1997-09: 2-30; 1997-10: 1-31; 1997-11: 1-30; 1997-12: 1-23")),
    Example(
      title: "Every other day - forever", start: "19970902T090000",
      rule: "FREQ=DAILY;INTERVAL=2",
      expected: days("1997-09: 2-30/2; 1997-10: 2-30/2; 1997-11: 1-29/2; 1997-12: 1,3")),
    Example(
      title: "Every 10 days, 5 occurrences", start: "19970902T090000",
      rule: "FREQ=DAILY;INTERVAL=10;COUNT=5", expected: days("1997-09: 2,12,22; 1997-10: 2,12")),
    Example(
      title: "Every day in January, for 3 years (YEARLY with BYDAY)", start: "19980101T090000",
      rule: "FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA",
      expected: days("1998-01: 1-31; 1999-01: 1-31; 2000-01: 1-31")),
    Example(
      title: "Every day in January, for 3 years (DAILY with BYMONTH)", start: "19980101T090000",
      rule: "FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1",
      expected: days("1998-01: 1-31; 1999-01: 1-31; 2000-01: 1-31")),
    Example(
      title: "Weekly for 10 occurrences", start: "19970902T090000",
      rule: "FREQ=WEEKLY;COUNT=10",
      expected: days("1997-09: 2,9,16,23,30; 1997-10: 7,14,21,28; 1997-11: 4")),
    Example(
      title: "Weekly until December 24, 1997", start: "19970902T090000",
      rule: "FREQ=WEEKLY;UNTIL=19971224T000000Z",
      expected: days(
        "1997-09: 2,9,16,23,30; 1997-10: 7,14,21,28; 1997-11: 4,11,18,25; 1997-12: 2,9,16,23")),
    Example(
      title: "Every other week - forever", start: "19970902T090000",
      rule: "FREQ=WEEKLY;INTERVAL=2;WKST=SU",
      expected: days(
        "1997-09: 2,16,30; 1997-10: 14,28; 1997-11: 11,25; 1997-12: 9,23; 1998-01: 6,20;"
          + " 1998-02: 3,17")),
    Example(
      title: "Weekly on Tuesday and Thursday for five weeks (UNTIL)", start: "19970902T090000",
      rule: "FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH",
      expected: days("1997-09: 2,4,9,11,16,18,23,25,30; 1997-10: 2")),
    Example(
      title: "Weekly on Tuesday and Thursday for five weeks (COUNT)", start: "19970902T090000",
      rule: "FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH",
      expected: days("1997-09: 2,4,9,11,16,18,23,25,30; 1997-10: 2")),
    Example(
      title: "Every other week on Monday, Wednesday, and Friday until December 24, 1997",
      start: "19970901T090000",
      rule: "FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR",
      expected: days(
        "1997-09: 1,3,5,15,17,19,29; 1997-10: 1,3,13,15,17,27,29,31; 1997-11: 10,12,14,24,26,28;"
          + " 1997-12: 8,10,12,22")),
    Example(
      title: "Every other week on Tuesday and Thursday, for 8 occurrences",
      start: "19970902T090000", rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH",
      expected: days("1997-09: 2,4,16,18,30; 1997-10: 2,14,16")),
    Example(
      title: "Monthly on the first Friday for 10 occurrences", start: "19970905T090000",
      rule: "FREQ=MONTHLY;COUNT=10;BYDAY=1FR",
      expected: days(
        "1997-09: 5; 1997-10: 3; 1997-11: 7; 1997-12: 5; 1998-01: 2; 1998-02: 6; 1998-03: 6;"
          + " 1998-04: 3; 1998-05: 1; 1998-06: 5")),
    Example(
      title: "Monthly on the first Friday until December 24, 1997", start: "19970905T090000",
      rule: "FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR",
      expected: days("1997-09: 5; 1997-10: 3; 1997-11: 7; 1997-12: 5")),
    Example(
      title: "Every other month on the first and last Sunday for 10 occurrences",
      start: "19970907T090000", rule: "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU",
      expected: days(
        "1997-09: 7,28; 1997-11: 2,30; 1998-01: 4,25; 1998-03: 1,29; 1998-05: 3,31")),
    Example(
      title: "Monthly on the second-to-last Monday of the month for 6 months",
      start: "19970922T090000", rule: "FREQ=MONTHLY;COUNT=6;BYDAY=-2MO",
      expected: days(
        "1997-09: 22; 1997-10: 20; 1997-11: 17; 1997-12: 22; 1998-01: 19; 1998-02: 16")),
    Example(
      title: "Monthly on the third-to-the-last day of the month, forever",
      start: "19970928T090000", rule: "FREQ=MONTHLY;BYMONTHDAY=-3",
      expected: days(
        "1997-09: 28; 1997-10: 29; 1997-11: 28; 1997-12: 29; 1998-01: 29; 1998-02: 26")),
    Example(
      title: "Monthly on the 2nd and 15th of the month for 10 occurrences",
      start: "19970902T090000", rule: "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15",
      expected: days(
        "1997-09: 2,15; 1997-10: 2,15; 1997-11: 2,15; 1997-12: 2,15; 1998-01: 2,15")),
    Example(
      title: "Monthly on the first and last day of the month for 10 occurrences",
      start: "19970930T090000", rule: "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1",
      expected: days(
        "1997-09: 30; 1997-10: 1,31; 1997-11: 1,30; 1997-12: 1,31; 1998-01: 1,31; 1998-02: 1")),
    Example(
      title: "Every 18 months on the 10th thru 15th of the month for 10 occurrences",
      start: "19970910T090000",
      rule: "FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15",
      expected: days("1997-09: 10-15; 1999-03: 10-13")),
    Example(
      title: "Every Tuesday, every other month", start: "19970902T090000",
      rule: "FREQ=MONTHLY;INTERVAL=2;BYDAY=TU",
      expected: days(
        "1997-09: 2,9,16,23,30; 1997-11: 4,11,18,25; 1998-01: 6,13,20,27; 1998-03: 3-31/7")),
    Example(
      title: "Yearly in June and July for 10 occurrences", start: "19970610T090000",
      rule: "FREQ=YEARLY;COUNT=10;BYMONTH=6,7",
      expected: days(
        "1997-06: 10; 1997-07: 10; 1998-06: 10; 1998-07: 10; 1999-06: 10; 1999-07: 10;"
          + " 2000-06: 10; 2000-07: 10; 2001-06: 10; 2001-07: 10")),
    Example(
      title: "Every other year on January, February, and March for 10 occurrences",
      start: "19970310T090000", rule: "FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3",
      expected: days(
        "1997-03: 10; 1999-01: 10; 1999-02: 10; 1999-03: 10; 2001-01: 10; 2001-02: 10;"
          + " 2001-03: 10; 2003-01: 10; 2003-02: 10; 2003-03: 10")),
    Example(
      title: "Every third year on the 1st, 100th, and 200th day for 10 occurrences",
      start: "19970101T090000", rule: "FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200",
      expected: days(
        "1997-01: 1; 1997-04: 10; 1997-07: 19; 2000-01: 1; 2000-04: 9; 2000-07: 18;"
          + " 2003-01: 1; 2003-04: 10; 2003-07: 19; 2006-01: 1")),
    Example(
      title: "Every 20th Monday of the year, forever", start: "19970519T090000",
      rule: "FREQ=YEARLY;BYDAY=20MO", expected: days("1997-05: 19; 1998-05: 18; 1999-05: 17")),
    Example(
      title: "Monday of week number 20, forever", start: "19970512T090000",
      rule: "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO",
      expected: days("1997-05: 12; 1998-05: 11; 1999-05: 17")),
    Example(
      title: "Every Thursday in March, forever", start: "19970313T090000",
      rule: "FREQ=YEARLY;BYMONTH=3;BYDAY=TH",
      expected: days("1997-03: 13,20,27; 1998-03: 5,12,19,26; 1999-03: 4,11,18,25")),
    Example(
      title: "Every Thursday, but only during June, July, and August, forever",
      start: "19970605T090000", rule: "FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8",
      expected: days(
        "1997-06: 5,12,19,26; 1997-07: 3,10,17,24,31; 1997-08: 7,14,21,28;"
          + " 1998-06: 4,11,18,25; 1998-07: 2,9,16,23,30; 1998-08: 6,13,20,27;"
          + " 1999-06: 3,10,17,24; 1999-07: 1,8,15,22,29; 1999-08: 5,12,19,26")),
    Example(
      title: "Every Friday the 13th, forever", start: "19970902T090000",
      rule: "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13",
      expected: days("1998-02: 13; 1998-03: 13; 1998-11: 13; 1999-08: 13; 2000-10: 13"),
      excludesStart: true),
    Example(
      title: "The first Saturday that follows the first Sunday of the month, forever",
      start: "19970913T090000", rule: "FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13",
      expected: days(
        "1997-09: 13; 1997-10: 11; 1997-11: 8; 1997-12: 13; 1998-01: 10; 1998-02: 7;"
          + " 1998-03: 7; 1998-04: 11; 1998-05: 9; 1998-06: 13")),
    Example(
      title: "Every 4 years, the first Tuesday after a Monday in November (U.S. election day)",
      start: "19961105T090000",
      rule: "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8",
      expected: days("1996-11: 5; 2000-11: 7; 2004-11: 2")),
    Example(
      title: "The third instance into the month of one of Tuesday, Wednesday, or Thursday",
      start: "19970904T090000", rule: "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3",
      expected: days("1997-09: 4; 1997-10: 7; 1997-11: 6")),
    Example(
      title: "The second-to-last weekday of the month", start: "19970929T090000",
      rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2",
      expected: days(
        "1997-09: 29; 1997-10: 30; 1997-11: 27; 1997-12: 30; 1998-01: 29; 1998-02: 26;"
          + " 1998-03: 30")),
    Example(
      title: "Every 3 hours from 9:00 AM to 5:00 PM on a specific day", start: "19970902T090000",
      rule: "FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z",
      expected: ["19970902T090000", "19970902T120000", "19970902T150000"]),
    Example(
      title: "Every 15 minutes for 6 occurrences", start: "19970902T090000",
      rule: "FREQ=MINUTELY;INTERVAL=15;COUNT=6",
      expected: times("19970902", ["0900", "0915", "0930", "0945", "1000", "1015"])),
    Example(
      title: "Every hour and a half for 4 occurrences", start: "19970902T090000",
      rule: "FREQ=MINUTELY;INTERVAL=90;COUNT=4",
      expected: times("19970902", ["0900", "1030", "1200", "1330"])),
    Example(
      title: "Every 20 minutes from 9:00 AM to 4:40 PM every day (DAILY)",
      start: "19970902T090000",
      rule: "FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40",
      expected: twentyMinutes(["19970902", "19970903"])),
    Example(
      title: "Every 20 minutes from 9:00 AM to 4:40 PM every day (MINUTELY)",
      start: "19970902T090000", rule: "FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16",
      expected: twentyMinutes(["19970902", "19970903"])),
    Example(
      title: "WKST=MO: every other week on Tuesday and Sunday", start: "19970805T090000",
      rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO",
      expected: days("1997-08: 5,10,19,24")),
    Example(
      title: "WKST=SU: every other week on Tuesday and Sunday", start: "19970805T090000",
      rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU",
      expected: days("1997-08: 5,17,19,31")),
    Example(
      title: "An invalid date (February 30) is ignored", start: "20070115T090000",
      rule: "FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5",
      expected: days("2007-01: 15,30; 2007-02: 15; 2007-03: 15,30")),
  ]

  @Test(
    "RFC 5545 §3.8.5.3 examples expand to exactly the instances the RFC lists",
    arguments: rfcExamples)
  func rfcExample(_ example: Example) throws {
    var iterator = try Self.iterator(example.start, example.rule)
    let rule = try RecurrenceRule(parsing: example.rule)
    let bounded = rule.count != nil || rule.until != nil
    // A bounded rule must end right after the list; an endless one is compared on its prefix.
    let wanted = example.expected.count + (example.excludesStart ? 1 : 0)
    var produced = Self.take(&iterator, bounded ? wanted + 5 : wanted)
    if example.excludesStart {
      // The RFC removes DTSTART with an EXDATE; the iterator still yields it first.
      #expect(produced.first == example.start)
      produced.removeFirst()
    }
    #expect(produced == example.expected)
    #expect(!iterator.stoppedByWorkLimit)
  }

  // MARK: DTSTART

  @Test("a DTSTART that does not match the rule comes first and counts toward COUNT")
  func unmatchedStart() throws {
    var iterator = try Self.iterator("20260102T090000", "FREQ=MONTHLY;COUNT=3;BYMONTHDAY=15")
    #expect(
      Self.take(&iterator, 10) == ["20260102T090000", "20260115T090000", "20260215T090000"])
  }

  @Test("instances equal to DTSTART are not repeated, and earlier ones in its period are dropped")
  func startInsidePeriod() throws {
    // The week of DTSTART (a Wednesday) also holds Monday, before DTSTART.
    var iterator = try Self.iterator("20260107T090000", "FREQ=WEEKLY;BYDAY=MO,WE,FR")
    #expect(
      Self.take(&iterator, 4) == [
        "20260107T090000", "20260109T090000", "20260112T090000", "20260114T090000",
      ])
  }

  // MARK: skip(toAtLeast:)

  @Test(
    "skipping gives the same instances as iterating and dropping the earlier ones",
    arguments: [
      ("19970902T090000", "FREQ=DAILY", "19991231T120000"),
      ("19970902T090000", "FREQ=DAILY;INTERVAL=3;BYHOUR=8,20", "20010305T080000"),
      ("20260105T063000", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "20270101T000000"),
      ("20260106T063000", "FREQ=WEEKLY;INTERVAL=3;BYDAY=TU,SA;WKST=SU", "20290704T063000"),
      ("19970929T090000", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2", "20050101T000000"),
      (
        "19961105T090000", "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8",
        "20161108T090000"
      ),  // lands exactly on an instance
      (
        "19970902T090000", "FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16",
        "19980115T164500"
      ),  // after the day's last instance
      ("20260101T000005", "FREQ=SECONDLY;INTERVAL=17;BYSECOND=5,22,39", "20260102T000000"),
      ("20260101", "FREQ=WEEKLY;BYDAY=SA,SU", "20300101"),
      ("19970902T090000", "FREQ=WEEKLY;COUNT=300;BYDAY=TU,TH", "19990101T000000"),
      ("19970902T090000", "FREQ=DAILY;COUNT=10", "19970905T090000"),
      ("19970902T090000", "FREQ=DAILY;COUNT=10", "19980101T000000"),  // past the end
      ("19970902T090000", "FREQ=DAILY;UNTIL=19971224T000000Z", "19971223T100000"),
      ("19970902T090000", "FREQ=DAILY", "19970902T090000"),  // DTSTART itself stays
      ("19970902T090000", "FREQ=DAILY", "19000101T000000"),  // before DTSTART: nothing skipped
    ])
  func skipMatchesIteration(start: String, rule: String, target: String) throws {
    let goal = try #require(DateTimeValue(text: target)).local
    var plain = try Self.iterator(start, rule)
    var expected: [String] = []
    while expected.count < 20, let next = plain.next() {
      if next >= goal { expected.append(next.icalString) }
    }
    var skipping = try Self.iterator(start, rule)
    skipping.skip(toAtLeast: goal)
    #expect(Self.take(&skipping, 20) == expected)
  }

  @Test("without COUNT a skip jumps arithmetically: 56 years of a daily rule cost a few steps")
  func skipIsCheap() throws {
    var iterator = try Self.iterator("19700101T090000", "FREQ=DAILY")
    iterator.skip(toAtLeast: try #require(DateTimeValue(text: "20260315T120000")).local)
    #expect(iterator.next()?.icalString == "20260316T090000")
    #expect(iterator.work < 10)
  }

  @Test("with COUNT and BY parts a skip counts through the instances, within the work limit")
  func skipCountsUnderCount() throws {
    let rule = "FREQ=DAILY;BYHOUR=9;COUNT=1000000"
    var iterator = try Self.iterator("19700101T090000", rule)
    iterator.skip(toAtLeast: try #require(DateTimeValue(text: "19800101T000000")).local)
    #expect(iterator.next()?.icalString == "19800101T090000")
    #expect(iterator.work > 3652)

    var limited = try Self.iterator("19700101T090000", rule, workLimit: 500)
    limited.skip(toAtLeast: try #require(DateTimeValue(text: "19800101T000000")).local)
    #expect(limited.next() == nil)
    #expect(limited.stoppedByWorkLimit)
  }

  @Test(
    "with COUNT and one instance per period a skip is arithmetic, and COUNT still ends the rule",
    arguments: [
      ("FREQ=DAILY;COUNT=1000000", "19800101T000000", "19800101T090000"),
      ("FREQ=SECONDLY;COUNT=2147483647", "20270101T000000", "20270101T000000"),
      ("FREQ=WEEKLY;INTERVAL=2;COUNT=100", "19700301T000000", "19700312T090000"),
      ("FREQ=HOURLY;INTERVAL=5;COUNT=3", "19700101T120000", "19700101T140000"),
      ("FREQ=DAILY;COUNT=3", "19700104T000000", nil),  // three instances end on Jan 3
    ] as [(String, String, String?)])
  func skipIsArithmeticWhenUniform(rule: String, goal: String, expected: String?) throws {
    var iterator = try Self.iterator("19700101T090000", rule)
    iterator.skip(toAtLeast: try #require(DateTimeValue(text: goal)).local)
    #expect(iterator.next()?.icalString == expected)
    #expect(iterator.work < 10)
    // The same answer as counting one by one (where that is affordable).
    if rule != "FREQ=SECONDLY;COUNT=2147483647" {
      var counting = try Self.iterator("19700101T090000", rule)
      let target = try #require(DateTimeValue(text: goal)).local
      var found: LocalDateTime?
      while let next = counting.next() {
        if next >= target {
          found = next
          break
        }
      }
      #expect(found?.icalString == expected)
    }
  }

  @Test("skipping to the same place twice, or backwards, changes nothing")
  func skipIsIdempotent() throws {
    let target = try #require(DateTimeValue(text: "20260310T000000")).local
    var iterator = try Self.iterator("20260105T063000", "FREQ=WEEKLY;BYDAY=MO,WE,FR")
    iterator.skip(toAtLeast: target)
    iterator.skip(toAtLeast: target)
    iterator.skip(toAtLeast: try #require(DateTimeValue(text: "20260101T000000")).local)
    #expect(Self.take(&iterator, 2) == ["20260311T063000", "20260313T063000"])
  }

  // MARK: Bounded work

  @Test(
    "rules that can never match end quickly after DTSTART",
    arguments: [
      ("19970902T090000", "FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30", 20_000),
      ("19970902T090000", "FREQ=SECONDLY;BYMONTH=4;BYMONTHDAY=31", 20_000),
      ("19970902T090000", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", 20_000),
      ("19970902T090000", "FREQ=YEARLY;BYYEARDAY=1;BYMONTH=2", 20_000),
      ("19970902T090000", "FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=6", 20_000),
      ("19970902T090000", "FREQ=SECONDLY;INTERVAL=2;BYSECOND=1", 0),  // parity: never second 1
      ("19970901T090000", "FREQ=DAILY;INTERVAL=7;BYDAY=TU", 0),  // every 7th day is a Monday
      ("19970101T090000", "FREQ=MONTHLY;INTERVAL=12;BYMONTH=3", 0),  // always January
      ("19970902T090000", "FREQ=HOURLY;INTERVAL=24;BYHOUR=10", 0),  // always 9 o'clock
    ])
  func impossibleRules(start: String, rule: String, maximumWork: Int) throws {
    var iterator = try Self.iterator(start, rule)
    #expect(iterator.next()?.icalString == start)
    #expect(iterator.next() == nil)
    #expect(!iterator.stoppedByWorkLimit)
    #expect(iterator.work <= maximumWork)
  }

  @Test("a rule that needs more candidates than the limit stops and says so")
  func workLimit() throws {
    // Every 7 minutes, at 9:00 on a Monday February 29th: first met in 2016.
    let rule = "FREQ=MINUTELY;INTERVAL=7;BYHOUR=9;BYMINUTE=0;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO"
    var limited = try Self.iterator("19970901T090000", rule, workLimit: 10)
    #expect(limited.next() != nil)
    #expect(limited.next() == nil)
    #expect(limited.stoppedByWorkLimit)
    #expect(limited.work <= 11)
    #expect(limited.next() == nil)

    var unlimited = try Self.iterator("19970901T090000", rule)
    _ = unlimited.next()
    #expect(unlimited.next()?.icalString == "20160229T090000")
    #expect(!unlimited.stoppedByWorkLimit)
  }

  @Test("FREQ=SECONDLY without an end yields instance after instance at constant cost")
  func secondlyIsCheap() throws {
    var iterator = try Self.iterator("20261231T235950", "FREQ=SECONDLY")
    let first = iterator.next()
    var previous = try #require(first)
    var steps: Set<Int64> = []
    for _ in 0..<100_000 {
      guard let next = iterator.next() else { break }
      steps.insert(next.secondsSince1970 - previous.secondsSince1970)
      previous = next
    }
    #expect(steps == [1])
    #expect(previous.icalString == "20270102T034630")
    #expect(iterator.work <= 200_002)
  }

  @Test("INTERVAL values in the millions step straight to the next period")
  func hugeIntervals() throws {
    var seconds = try Self.iterator("20260101T000000", "FREQ=SECONDLY;INTERVAL=5000000")
    #expect(
      Self.take(&seconds, 3) == ["20260101T000000", "20260227T205320", "20260426T174640"])
    var days = try Self.iterator("20260101T000000", "FREQ=DAILY;INTERVAL=1000000")
    #expect(Self.take(&days, 10) == ["20260101T000000", "47631129T000000", "75011026T000000"])
    #expect(days.work < 10)
  }

  @Test(
    "iteration ends after 9999-12-31",
    arguments: [
      ("99980615T090000", "FREQ=YEARLY", ["99980615T090000", "99990615T090000"]),
      ("99991230T090000", "FREQ=DAILY", ["99991230T090000", "99991231T090000"]),
      ("99991227T090000", "FREQ=WEEKLY;BYDAY=MO,FR", ["99991227T090000", "99991231T090000"]),
      ("99991231T235958", "FREQ=SECONDLY", ["99991231T235958", "99991231T235959"]),
      (
        "99991101T090000", "FREQ=MONTHLY;BYMONTHDAY=1,-1;BYSETPOS=-1",
        ["99991101T090000", "99991130T090000", "99991231T090000"]
      ),
    ])
  func endOfTime(start: String, rule: String, expected: [String]) throws {
    var iterator = try Self.iterator(start, rule)
    #expect(Self.take(&iterator, 10) == expected)
    #expect(!iterator.stoppedByWorkLimit)
  }

  @Test("a rule built in code drops out-of-range values, and a part left empty never matches")
  func outOfRangeValues() throws {
    let start = try #require(DateTimeValue(text: "20260101T090000")).local
    var hourly = RecurrenceRule(frequency: .daily)
    hourly.byHour = [-1, 9, 99]
    var hours = RecurrenceIterator(rule: hourly, start: start)
    #expect(Self.take(&hours, 3) == ["20260101T090000", "20260102T090000", "20260103T090000"])

    var broken = RecurrenceRule(frequency: .monthly)
    broken.byMonth = [13]
    broken.bySetPos = [Int.min]
    broken.byYearDay = [Int.max]
    var never = RecurrenceIterator(rule: broken, start: start)
    #expect(Self.take(&never, 3) == ["20260101T090000"])
    #expect(never.work == 0)
  }

  // MARK: DATE rules, leap years, BYSETPOS, UNTIL

  @Test(
    "DATE rules yield midnights and ignore BYHOUR, BYMINUTE and BYSECOND",
    arguments: [
      (
        "20260105", "FREQ=WEEKLY;BYDAY=MO,TH;COUNT=4",
        ["20260105", "20260108", "20260112", "20260115"]
      ),
      (
        "20260105", "FREQ=DAILY;BYHOUR=9,17;BYMINUTE=30;COUNT=3",
        ["20260105", "20260106", "20260107"]
      ),
      ("20260131", "FREQ=MONTHLY;COUNT=4", ["20260131", "20260331", "20260531", "20260731"]),
      // A DATE rule finer than DAILY gives each day holding a period once.
      (
        "20260101", "FREQ=HOURLY;INTERVAL=36;COUNT=5",
        ["20260101", "20260102", "20260104", "20260105", "20260107"]
      ),
      ("20260101", "FREQ=MINUTELY;COUNT=3", ["20260101", "20260102", "20260103"]),
    ])
  func dateRules(start: String, rule: String, expected: [String]) throws {
    var iterator = try Self.iterator(start, rule)
    #expect(Self.take(&iterator, 10) == expected.map { $0 + "T000000" })
  }

  @Test("FREQ=YEARLY from February 29th yields only leap years (not 2100)")
  func leapYears() throws {
    var iterator = try Self.iterator("20000229T080000", "FREQ=YEARLY")
    let years = Self.take(&iterator, 27).map { $0.prefix(4) }
    #expect(years == (2000...2096).filter { $0 % 4 == 0 }.map { "\($0)" } + ["2104", "2108"])
  }

  @Test(
    "BYSETPOS counts from the end when negative, and ignores positions outside the set",
    arguments: [
      (
        "20260130T170000", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1,-3;COUNT=4",
        ["20260130T170000", "20260225T170000", "20260227T170000", "20260327T170000"]
      ),
      (
        "20260101T170000", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1,-1,40;COUNT=4",
        ["20260101T170000", "20260130T170000", "20260202T170000", "20260227T170000"]
      ),
      // The set holds times too: the last of each day's three.
      (
        "20260101T180000", "FREQ=DAILY;BYHOUR=8,12,18;BYSETPOS=-1;COUNT=3",
        ["20260101T180000", "20260102T180000", "20260103T180000"]
      ),
      (
        "20261231T090000", "FREQ=YEARLY;BYDAY=FR;BYSETPOS=-2;COUNT=3",
        ["20261231T090000", "20271224T090000", "20281222T090000"]
      ),
    ])
  func setPositions(start: String, rule: String, expected: [String]) throws {
    var iterator = try Self.iterator(start, rule)
    #expect(Self.take(&iterator, 10) == expected)
  }

  @Test("a DATE UNTIL includes its whole day; a DATE-TIME UNTIL is inclusive to the second")
  func untilForms() throws {
    var dateUntil = try Self.iterator("19970902T090000", "FREQ=DAILY;UNTIL=19970904")
    #expect(Self.take(&dateUntil, 10).count == 3)
    var exact = try Self.iterator("19970902T090000", "FREQ=DAILY;UNTIL=19970904T090000")
    #expect(Self.take(&exact, 10).count == 3)
    var early = try Self.iterator("19970902T090000", "FREQ=DAILY;UNTIL=19970904T085959")
    #expect(Self.take(&early, 10).count == 2)
    var allDay = try Self.iterator("19970902", "FREQ=DAILY;UNTIL=19970904")
    #expect(Self.take(&allDay, 10) == ["19970902T000000", "19970903T000000", "19970904T000000"])
  }

  @Test("the caller's wall-clock UNTIL replaces the rule's own reading")
  func callerUntil() throws {
    // UNTIL=19970902T170000Z is 13:00 in New York: the caller passes that reading.
    let rule = try RecurrenceRule(parsing: "FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z")
    var iterator = RecurrenceIterator(
      rule: rule, start: try #require(DateTimeValue(text: "19970902T090000")).local,
      until: try #require(DateTimeValue(text: "19970902T130000")).local)
    #expect(Self.take(&iterator, 10) == ["19970902T090000", "19970902T120000"])
  }

  // MARK: Cross-check with libical

  /// Rules on which libical 3.0 agrees with the RFC. Each DTSTART matches its rule: libical
  /// drops a DTSTART that does not (see ``libicalDeparts``).
  static let libicalAgrees: [(String, String)] = [
    ("19970902T090000", "FREQ=DAILY"),
    ("19970902T080000", "FREQ=DAILY;INTERVAL=3;BYHOUR=8,20"),
    ("19700302T000000", "FREQ=DAILY;INTERVAL=10;BYMONTH=3,6"),
    ("20260103T090000", "FREQ=DAILY;BYMONTH=1,2;BYDAY=SA"),
    ("20260601T090000", "FREQ=DAILY;BYMONTHDAY=1,15;BYDAY=MO"),
    ("20260105T063000", "FREQ=WEEKLY;BYDAY=MO,WE,FR"),
    ("20260106T063000", "FREQ=WEEKLY;INTERVAL=3;BYDAY=TU,SA;WKST=SU"),
    ("20260101T071500", "FREQ=WEEKLY;BYDAY=TH;BYHOUR=7,19;BYMINUTE=15"),
    ("20261202T090000", "FREQ=WEEKLY;BYMONTH=12;BYDAY=WE"),
    ("20260131T080000", "FREQ=MONTHLY"),  // skips the months without a 31st
    ("20260130T080000", "FREQ=MONTHLY;BYMONTHDAY=-1,-2"),
    ("20260112T080000", "FREQ=MONTHLY;BYDAY=-1FR,2MO"),
    ("20260101T080000", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1,-1"),
    ("20260131T080000", "FREQ=MONTHLY;INTERVAL=5;BYMONTHDAY=31"),
    ("20260101T080000", "FREQ=MONTHLY;BYMONTH=1,4,7,10;BYMONTHDAY=1"),
    ("20260213T090000", "FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR"),
    ("20260312T090000", "FREQ=YEARLY;BYMONTH=3,9;BYDAY=2TH"),
    ("20260101T090000", "FREQ=YEARLY;BYYEARDAY=1,-1,100"),
    ("20261227T090000", "FREQ=YEARLY;BYDAY=-1SU"),
    ("20260105T090000", "FREQ=YEARLY;BYDAY=1MO,-1MO"),
    ("20261228T090000", "FREQ=YEARLY;BYWEEKNO=-1;BYDAY=MO"),
    ("20260105T090000", "FREQ=YEARLY;BYWEEKNO=2,10;BYDAY=MO,FR"),
    ("20260101T090000", "FREQ=YEARLY;BYWEEKNO=1;BYDAY=TH"),
    ("20260419T090000", "FREQ=YEARLY;BYMONTH=4;BYDAY=SU;BYMONTHDAY=15,16,17,18,19,20,21"),
    ("20261231T090000", "FREQ=YEARLY;BYSETPOS=-1;BYDAY=MO,TU,WE,TH,FR;BYMONTH=12"),
    ("20260112T090000", "FREQ=YEARLY;BYMONTH=1;BYDAY=MO;BYSETPOS=2"),
    ("20260104T083000", "FREQ=YEARLY;INTERVAL=2;BYMONTH=1;BYDAY=SU;BYHOUR=8,9;BYMINUTE=30"),
    ("20260101T090000", "FREQ=YEARLY;BYMONTH=1,2;BYMONTHDAY=1,-1;BYSECOND=0,30"),
    ("20260101T000000", "FREQ=HOURLY;INTERVAL=5"),
    ("20260102T090000", "FREQ=HOURLY;BYHOUR=9,17;BYDAY=MO,FR"),
    ("20260101T090000", "FREQ=HOURLY;INTERVAL=7;BYMINUTE=0,20;BYDAY=TH,FR"),
    ("20260101T093000", "FREQ=MINUTELY;INTERVAL=45;BYHOUR=9,10,11"),
    ("20260101T060000", "FREQ=MINUTELY;BYMINUTE=0,30;BYHOUR=6;BYMONTHDAY=1"),
    ("20260101T120000", "FREQ=SECONDLY;BYMINUTE=0;BYSECOND=0,30;BYHOUR=12"),
    ("20260101", "FREQ=DAILY;INTERVAL=2"),
    ("20260103", "FREQ=WEEKLY;BYDAY=SA,SU"),
    ("20260131", "FREQ=MONTHLY;BYMONTHDAY=-1"),
    ("20260706", "FREQ=YEARLY;BYMONTH=7;BYDAY=1MO"),
  ]

  @Test("the first 200 instances agree with libical", arguments: libicalAgrees)
  func agreesWithLibical(start: String, rule: String) throws {
    let value = try #require(DateTimeValue(text: start))
    let expected = try LibicalRecurrence.starts(
      rule: rule, from: value.local, isDate: value.isDate,
      through: try #require(DateTimeValue(text: "99991231T235959")).local, limit: 200)
    var iterator = try Self.iterator(start, rule)
    #expect(Self.take(&iterator, 200) == expected.map(\.icalString))
    #expect(expected.count == 200)
  }

  /// Rules on which libical 3.0 departs from the RFC; the iterator keeps the RFC's answer.
  static let libicalDeparts: [(String, String, String, [String])] = [
    (
      // RFC 5545: "The DTSTART property value always counts as the first occurrence."
      // libical leaves out a DTSTART that does not match the rule.
      "a DTSTART off the rule is still the first instance", "20260101T080000",
      "FREQ=MONTHLY;COUNT=3;BYMONTHDAY=31",
      ["20260101T080000", "20260131T080000", "20260331T080000"]
    ),
    (
      // BYSECOND limits SECONDLY: only every 17th second counts. libical expands BYSECOND in
      // every minute (00:01:05, 00:01:22 ...), ignoring INTERVAL.
      "SECONDLY with INTERVAL keeps to every 17th second", "20260101T000005",
      "FREQ=SECONDLY;INTERVAL=17;BYSECOND=5,22,39",
      ["20260101T000005", "20260101T000022", "20260101T000039", "20260101T001705"]
    ),
    (
      // BYSETPOS picks from the whole set of the period, times included. libical applies it to
      // the days only and then yields every BYHOUR of the day.
      "BYSETPOS picks among the times of a day", "20260101T130000",
      "FREQ=DAILY;BYHOUR=9,13,17;BYSETPOS=2", ["20260101T130000", "20260102T130000"]
    ),
    (
      "BYSETPOS picks among the times of a week", "20260101T094500",
      "FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;BYHOUR=9;BYMINUTE=0,45;BYSETPOS=-1",
      ["20260101T094500", "20260115T094500", "20260129T094500"]
    ),
    (
      // BYWEEKNO without BYDAY: the day of the week comes from DTSTART (a Monday). libical
      // yields unrelated January days (2002-01-27, 2003-01-26 ...).
      "BYWEEKNO alone keeps DTSTART's weekday", "19970512T090000", "FREQ=YEARLY;BYWEEKNO=20",
      ["19970512T090000", "19980511T090000", "19990517T090000"]
    ),
    (
      // Negative BYMONTHDAY limiting a DAILY (or finer) rule: libical yields nothing at all, as
      // it limits only by positive values (libical/libical#791).
      "the last day of each month, DAILY", "20260131T090000", "FREQ=DAILY;BYMONTHDAY=-1",
      ["20260131T090000", "20260228T090000", "20260331T090000"]
    ),
    (
      // BYMINUTE limits MINUTELY: only every 13th minute counts (16:23, 18:33, 22:40 ...).
      // libical expands BYMINUTE within every hour, ignoring INTERVAL (14:33, 14:40 ...).
      "MINUTELY with INTERVAL keeps to every 13th minute", "19900711T140000",
      "FREQ=MINUTELY;INTERVAL=13;BYMINUTE=23,33,40;BYSECOND=39",
      ["19900711T140000", "19900711T162339", "19900711T183339", "19900711T224039"]
    ),
    (
      // A DATE rule ignores BYHOUR; libical yields each day once per BYHOUR value.
      "a DATE rule yields each day once", "20260104", "FREQ=WEEKLY;BYDAY=SU;BYHOUR=5,20",
      ["20260104T000000", "20260111T000000", "20260118T000000"]
    ),
    (
      // The RFC's table makes BYMONTHDAY expand a YEARLY rule: with no BYMONTH that is every
      // month (as python-dateutil and rrule.js read it). libical takes the month from DTSTART;
      // the text's "derived from DTSTART" allows that reading too, so this one is a judgement.
      "YEARLY with BYMONTHDAY alone expands to every month", "20261129T100000",
      "FREQ=YEARLY;BYMONTHDAY=29",
      ["20261129T100000", "20261229T100000", "20270129T100000", "20270329T100000"]
    ),
    (
      // libical stops at 2582 (its 32-bit-era year limit); the RFC has no such end.
      "leap days continue past 2582", "25800229T120000", "FREQ=YEARLY",
      ["25800229T120000", "25840229T120000", "25880229T120000"]
    ),
  ]

  @Test("where libical departs from the RFC, the RFC's answer is kept", arguments: libicalDeparts)
  func departsFromLibical(title: String, start: String, rule: String, expected: [String]) throws {
    var iterator = try Self.iterator(start, rule)
    #expect(Self.take(&iterator, expected.count) == expected, "\(title)")
  }

  // MARK: Shared plans

  @Test(
    "iterators sharing compiled plans give what iterators of their own give, from many starts",
    arguments: libicalAgrees.map(\.1))
  func sharedPlansAgree(rule text: String) throws {
    let rule = try RecurrenceRule(parsing: text)
    var plans = RecurrencePlans(rule: rule)
    let isDate = !text.contains("BY") && text.contains("DAILY;INTERVAL=2")
    let first = try #require(DateTimeValue(text: "20260101T000000")).local
    // Starts over two months, two a day, at times that differ in hour, minute and second.
    let days = stride(from: 0, to: 61, by: 3).map { first.date.adding(days: $0) }
    for (number, day) in days.enumerated() {
      for seconds in [(number * 4_567) % 86_400, (number * 7_919 + 3_601) % 86_400] {
        let start = LocalDateTime(day, LocalTime(secondsSinceMidnight: seconds))
        var shared = RecurrenceIterator(plans: &plans, start: start, isDate: isDate)
        var own = RecurrenceIterator(rule: rule, start: start, isDate: isDate)
        #expect(Self.take(&shared, 60) == Self.take(&own, 60), "from \(start.icalString)")
      }
    }
    // The time of day never calls for a plan of its own.
    #expect(plans.count <= days.count)
  }

  @Test("a plan is shared by starts that differ only in what the rule does not take from them")
  func plansAreShared() throws {
    let starts = try ["20260105T063000", "20260107T071500", "20270312T235959", "20250101T000001"]
      .map { try #require(DateTimeValue(text: $0)).local }
    func count(_ text: String) throws -> Int {
      var plans = RecurrencePlans(rule: try RecurrenceRule(parsing: text))
      for start in starts { _ = RecurrenceIterator(plans: &plans, start: start) }
      return plans.count
    }
    // BYDAY names the days and the times come from DTSTART: one plan for every start.
    #expect(try count("FREQ=WEEKLY;BYDAY=MO,WE,FR") == 1)
    #expect(try count("FREQ=DAILY;BYHOUR=9") == 1)
    // The weekday, the day of the month, or the day and month come from DTSTART.
    #expect(try count("FREQ=WEEKLY") == 3)
    #expect(try count("FREQ=MONTHLY") == 4)
    #expect(try count("FREQ=YEARLY") == 4)
  }

  // MARK: Helpers

  static func iterator(_ start: String, _ rule: String, workLimit: Int = 1_000_000) throws
    -> RecurrenceIterator
  {
    let value = try #require(DateTimeValue(text: start))
    return RecurrenceIterator(
      rule: try RecurrenceRule(parsing: rule), start: value.local, isDate: value.isDate,
      workLimit: workLimit)
  }

  /// Up to `limit` readings as `YYYYMMDDTHHMMSS`.
  static func take(_ iterator: inout RecurrenceIterator, _ limit: Int) -> [String] {
    var result: [String] = []
    while result.count < limit, let next = iterator.next() { result.append(next.icalString) }
    return result
  }

  /// Readings at `time` for a day list written like the RFC's: `"1997-09: 2-30/2, 31; 1997-10: 1"`
  /// (`a-b` a range, `/n` a step).
  static func days(_ spec: String, at time: String = "090000") -> [String] {
    spec.split(separator: ";").flatMap { segment -> [String] in
      let parts = segment.split(separator: ":")
      let month = parts[0].trimmingCharacters(in: .whitespaces).replacingOccurrences(
        of: "-", with: "")
      return parts[1].split(separator: ",").flatMap { item -> [String] in
        let stepParts = item.trimmingCharacters(in: .whitespaces).split(separator: "/")
        let bounds = stepParts[0].split(separator: "-").compactMap { Int($0) }
        let step = stepParts.count > 1 ? Int(stepParts[1]) ?? 1 : 1
        return stride(from: bounds[0], through: bounds.last ?? bounds[0], by: step).map {
          month + ($0 < 10 ? "0" : "") + "\($0)T" + time
        }
      }
    }
  }

  /// Readings on `date` at each `HHMM`.
  static func times(_ date: String, _ times: [String]) -> [String] {
    times.map { "\(date)T\($0)00" }
  }

  /// 9:00, 9:20 ... 16:40 on each date.
  static func twentyMinutes(_ dates: [String]) -> [String] {
    dates.flatMap { date in
      (9...16).flatMap { hour in
        ["00", "20", "40"].map { minute in
          let hourText = hour < 10 ? "0\(hour)" : "\(hour)"
          return "\(date)T\(hourText)\(minute)00"
        }
      }
    }
  }
}
