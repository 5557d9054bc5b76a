import Testing

@testable import ICalendar

@Suite struct WeekdaySetTests {
  @Test("a month mask marks exactly the days 1 to 31 that fall on the set's weekdays")
  func monthMaskMatchesDayByDay() {
    for bits in 0..<128 {
      var set = WeekdaySet()
      for weekday in 0..<7 where bits >> weekday & 1 == 1 { set.insert(weekday) }
      for first in 0..<7 {
        var expected: UInt32 = 0
        for day in 0..<31 where set.contains((first + day) % 7) {
          expected |= UInt32(1) << UInt32(day)
        }
        #expect(set.monthMask(firstWeekday: first) == expected, "set \(bits), first \(first)")
      }
    }
  }
}
