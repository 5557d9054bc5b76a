import Testing

@testable import ICalendar

@Suite struct ValueTests {
  @Test(
    "every day from 0001-01-01 to 9999-12-31 converts both ways, checked against a day-by-day walk")
  func everyCivilDay() {
    // The walk is the oracle: it knows only month lengths, not the era arithmetic.
    var (year, month, day) = (1, 1, 1)
    let first = Civil.days(1, 1, 1)
    var mismatches = 0
    for days in first...Civil.days(9999, 12, 31) {
      let date = LocalDate(daysSince1970: days)
      if (date.year, date.month, date.day) != (year, month, day) || date.daysSince1970 != days {
        mismatches += 1
      }
      day += 1
      if day > LocalDate.daysIn(month: month, year: year) {
        day = 1
        month += 1
        if month > 12 { (year, month) = (year + 1, 1) }
      }
    }
    #expect(mismatches == 0)
    #expect(Civil.days(9999, 12, 31) - first + 1 == 3_652_059)
  }

  @Test(
    "instants and readings print as fixed-width ISO 8601",
    arguments: [
      (0, "1970-01-01T00:00:00Z"),
      (-62_135_596_800, "0001-01-01T00:00:00Z"),
      (253_402_300_799, "9999-12-31T23:59:59Z"),
      (951_782_400 + 86_399, "2000-02-29T23:59:59Z"),
      (-1, "1969-12-31T23:59:59Z"),
    ] as [(Int64, String)])
  func fixedWidthText(seconds: Int64, text: String) {
    let instant = Instant(secondsSince1970: seconds)
    #expect(instant.description == text)
    #expect(instant.utc.description + "Z" == text)
  }

  @Test(
    "civil dates convert to and from day counts and weekdays",
    arguments: [
      (1970, 1, 1, 0, Weekday.thursday),
      (2000, 2, 29, 11_016, .tuesday),
      (2026, 12, 2, 20_789, .wednesday),
      (1969, 12, 31, -1, .wednesday),
      (2007, 3, 11, 13_583, .sunday),  // RFC 5545 §3.3.5 spring-forward day in New York
    ])
  func civilDates(year: Int, month: Int, day: Int, days: Int, weekday: Weekday) throws {
    let date = try #require(LocalDate(year: year, month: month, day: day))
    #expect(date.daysSince1970 == days)
    #expect(LocalDate(daysSince1970: days) == date)
    #expect(date.weekday == weekday)
  }

  @Test("impossible dates and times are refused")
  func impossible() {
    #expect(LocalDate(year: 2026, month: 2, day: 29) == nil)
    #expect(LocalDate(year: 2024, month: 2, day: 29) != nil)
    #expect(LocalDate(year: 2026, month: 13, day: 1) == nil)
    #expect(LocalTime(hour: 24, minute: 0) == nil)
    #expect(LocalTime(hour: 23, minute: 60) == nil)
  }

  @Test("DATE and DATE-TIME text is read in its three forms and refused in any other")
  func dateTimeText() throws {
    let reading = LocalDateTime(
      try #require(LocalDate(year: 2026, month: 3, day: 8)),
      try #require(LocalTime(hour: 2, minute: 30, second: 5)))
    #expect(DateTimeValue(text: "20260308") == .date(reading.date))
    #expect(DateTimeValue(text: "20260308T023005") == .floating(reading))
    #expect(DateTimeValue(text: "20260308T023005Z") == .utc(reading))
    #expect(DateTimeValue(text: "20260308T023005z") == .utc(reading))
    #expect(
      DateTimeValue(text: "20260308T023005", tzid: "Europe/Berlin")
        == .zoned(reading, tzid: "Europe/Berlin"))
    #expect(DateTimeValue(text: "20260308T023005", tzid: "") == .floating(reading))
    #expect(DateTimeValue(text: "20260308", isDate: true) == .date(reading.date))
    for text in [
      "", "2026030", "202603081", "20260308T0230", "20260308T02300", "20260308X023005",
      "20260308T023005ZZ", "20260308T023005+", "2026-03-08", "20260230", "20261301",
      "20260308T240000", "20260308T236000", "2026030８", "20260308T02300５", "+0260308",
      "202603é", "20260308T0230é", "20260308T02:305", "2026-308", "20260308T023005Y",
    ] {
      #expect(DateTimeValue(text: text) == nil, "\(text)")
    }
    #expect(DateTimeValue(text: "20260308T023005", isDate: true) == nil)
  }

  @Test(
    "DATE and DATE-TIME values keep the form they were written in",
    arguments: [
      ("20261202", nil, DateTimeValue.date(LocalDate(year: 2026, month: 12, day: 2)!)),
      (
        "20261202T070000", nil,
        .floating(
          LocalDateTime(LocalDate(year: 2026, month: 12, day: 2)!, LocalTime(hour: 7, minute: 0)!))
      ),
      (
        "20261202T070000Z", nil,
        .utc(
          LocalDateTime(LocalDate(year: 2026, month: 12, day: 2)!, LocalTime(hour: 7, minute: 0)!))
      ),
      (
        "20261202T070000", "Europe/Berlin",
        .zoned(
          LocalDateTime(LocalDate(year: 2026, month: 12, day: 2)!, LocalTime(hour: 7, minute: 0)!),
          tzid: "Europe/Berlin")
      ),
    ] as [(String, String?, DateTimeValue)])
  func dateTimeForms(text: String, tzid: String?, expected: DateTimeValue) {
    let value = DateTimeValue(text: text, tzid: tzid)
    #expect(value == expected)
    #expect(value?.icalString == text)
  }

  @Test(
    "malformed DATE-TIME values are refused",
    arguments: [
      "2026120", "20261302T070000", "20261202T250000", "20261202X070000", "20261202T070000Q",
      "2026-12-02",
    ])
  func malformedDateTimes(text: String) {
    #expect(DateTimeValue(text: text) == nil)
  }

  @Test(
    "durations split into nominal days and exact seconds (RFC 5545 §3.3.6)",
    arguments: [
      ("PT0S", false, 0, 0, "PT0S"),
      ("-PT0S", false, 0, 0, "PT0S"),  // a negative zero is zero
      ("-PT15M", true, 0, 900, "-PT15M"),
      ("P1D", false, 1, 0, "P1D"),
      ("-P1D", true, 1, 0, "-P1D"),
      ("PT24H", false, 0, 86_400, "PT24H"),
      ("P2W", false, 14, 0, "P2W"),
      ("-P0DT0H10M0S", true, 0, 600, "-PT10M"),  // Google's spelling
      ("P1DT2H3M4S", false, 1, 7384, "P1DT2H3M4S"),
      ("+PT1H", false, 0, 3600, "PT1H"),
      ("-pt15m", true, 0, 900, "-PT15M"),  // case-insensitive, RFC 5545 §2
    ])
  func durations(text: String, negative: Bool, days: Int, seconds: Int, canonical: String) throws {
    let duration = try #require(ICalDuration(text))
    #expect(duration.isNegative == negative)
    #expect(duration.days == days)
    #expect(duration.seconds == seconds)
    #expect(duration.description == canonical)
  }

  @Test(
    "malformed durations are refused",
    arguments: [
      "", "P", "PT", "15M", "PT15", "P1H", "PT1D", "P1.5D", "--PT1M", "PT99999999999999S",
      // Only ASCII letters fold: U+017F (long s) upper-cases to S in Unicode, not here.
      "PT5\u{17F}", "\u{17F}PT5S",
    ])
  func malformedDurations(text: String) {
    #expect(ICalDuration(text) == nil)
  }

  @Test(
    "TEXT escaping round-trips commas, semicolons, backslashes and newlines",
    arguments: [
      ("plain", "plain"),
      ("a,b;c", "a\\,b\\;c"),
      ("back\\slash", "back\\\\slash"),
      ("two\nlines", "two\\nlines"),
      ("Café ☕", "Café ☕"),
    ])
  func textEscaping(text: String, escaped: String) {
    #expect(TextEscaping.escape(text) == escaped)
    #expect(TextEscaping.unescape(escaped) == text)
  }

  @Test("UTC offsets read and write per RFC 5545 §3.3.14")
  func utcOffsets() {
    #expect(UTCOffsetText.parse("+0100") == 3600)
    #expect(UTCOffsetText.parse("-0530") == -19_800)
    #expect(UTCOffsetText.parse("+005328") == 3208)
    #expect(UTCOffsetText.parse("-0000") == nil)
    #expect(UTCOffsetText.parse("+01") == nil)
    #expect(UTCOffsetText.format(-18_000) == "-0500")
    #expect(UTCOffsetText.format(3208) == "+005328")
  }
}

@Suite struct DurationBoundsTests {
  @Test("a duration whose repeated parts add up past the bounds is not a duration")
  func durationTotalsAreBounded() {
    #expect(ICalDuration("P" + String(repeating: "999999999W", count: 20_000)) == nil)
    #expect(ICalDuration("PT" + String(repeating: "999999999H", count: 2_000)) == nil)
    #expect(ICalDuration("P1000000000W")?.days == 7_000_000_000)
  }
}
