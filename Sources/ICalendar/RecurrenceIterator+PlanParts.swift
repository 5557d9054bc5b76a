/// The BY parts as a plan holds them: day parts as masks by month length and first weekday,
/// time parts as bit sets and sorted offset lists, shared where many rules have the same.
extension RecurrenceIterator.Plan {
  /// The day-level parts, with the day taken from DTSTART when the rule names none, as masks.
  struct DayParts {
    let byMonth: [Int]
    let byMonthDay: [Int]
    let byDay: [RecurrenceRule.WeekdayEntry]
    let months: UInt16
    let monthDayMasks: [UInt32]
    let plain: WeekdaySet
    let ordinals: [RecurrenceIterator.OrdinalWeekday]
    let weekdayMasks: [UInt32]

    init(_ rule: RecurrenceRule, defaults: StartDefaults) {
      byMonth = defaults.month.map { [$0] } ?? rule.byMonth
      byMonthDay = defaults.day.map { [$0] } ?? rule.byMonthDay
      byDay = defaults.weekday.map { [.init($0)] } ?? rule.byDay
      months = byMonth.isEmpty ? 0x1FFE : byMonth.reduce(0) { $0 | UInt16(1) << UInt16($1) }
      monthDayMasks = Self.monthDayMasks(byMonthDay)
      (plain, ordinals) = Self.weekdays(
        byDay, ordinalsCount: rule.frequency == .monthly || rule.frequency == .yearly)
      weekdayMasks = byDay.isEmpty ? [] : plain.monthMasks
    }

    /// By month length minus 28, the BYMONTHDAY days as bits; empty without BYMONTHDAY.
    private static func monthDayMasks(_ byMonthDay: [Int]) -> [UInt32] {
      guard !byMonthDay.isEmpty else { return [] }
      return (28...31).map { length in
        byMonthDay.reduce(UInt32(0)) { mask, value in
          let day = value > 0 ? value : length + 1 + value
          return (1...length).contains(day) ? mask | UInt32(1) << UInt32(day - 1) : mask
        }
      }
    }

    /// The BYDAY entries split into plain weekdays and ordinal ones (ordinals mean nothing
    /// below MONTHLY, so there every entry is plain).
    private static func weekdays(
      _ byDay: [RecurrenceRule.WeekdayEntry], ordinalsCount: Bool
    ) -> (WeekdaySet, [RecurrenceIterator.OrdinalWeekday]) {
      var plain = WeekdaySet()
      var ordinals: [RecurrenceIterator.OrdinalWeekday] = []
      for entry in byDay {
        if let ordinal = entry.ordinal, ordinalsCount {
          ordinals.append(
            RecurrenceIterator.OrdinalWeekday(ordinal: ordinal, weekday: entry.weekday.rawValue - 1)
          )
        } else {
          plain.insert(entry.weekday.rawValue - 1)
        }
      }
      return (plain, ordinals)
    }
  }

  /// The time parts: a frequency finer than a part is limited by it, a coarser one expands
  /// it; what the rule leaves out comes from DTSTART. DATE rules have midnight only.
  struct TimeParts {
    /// The hours, minutes and seconds a period of a finer frequency may start on (limits).
    let hours: UInt64
    let minutes: UInt64
    let seconds: UInt64
    /// The times each slot expands to, as seconds to add, each list sorted.
    let hourOffsets: [Int]
    let minuteOffsets: [Int]
    let secondOffsets: [Int]
    /// How many times each slot expands to.
    let count: Int

    init(_ rule: RecurrenceRule, isDate: Bool) {
      let expands = TimeExpansion(rule.frequency, isDate: isDate)
      let isSubDaily = RecurrenceIterator.Plan.unitSeconds(rule.frequency) < 86_400
      func allowed(_ list: [Int], limits: Bool) -> UInt64 {
        guard limits, !isDate, !list.isEmpty else { return UInt64.max }
        return list.reduce(0) { $0 | UInt64(1) << UInt64(min($1, 59)) }
      }
      hours = allowed(rule.byHour, limits: isSubDaily)
      minutes = allowed(rule.byMinute, limits: !expands.minutes)
      seconds = allowed(rule.bySecond, limits: !expands.seconds)
      // A part taken from DTSTART is 0 here: the iterator adds StartDefaults.timeShift.
      hourOffsets = SharedOffsets.hours.shared(
        expands.hours ? Self.values(rule.byHour).map { $0 * 3600 } : [0])
      minuteOffsets = SharedOffsets.minutes.shared(
        expands.minutes ? Self.values(rule.byMinute).map { $0 * 60 } : [0])
      secondOffsets = SharedOffsets.seconds.shared(
        expands.seconds ? Self.values(rule.bySecond) : [0])
      count = hourOffsets.count * minuteOffsets.count * secondOffsets.count
    }

    /// The distinct values of a part, sorted (a leap second 60 read as 59), or 0 alone.
    private static func values(_ list: [Int]) -> [Int] {
      list.isEmpty ? [0] : Array(Set(list.map { min($0, 59) })).sorted()
    }
  }
}

/// Weekdays 0 (Monday) ... 6 (Sunday) as bits: a rule's plain BYDAY days.
struct WeekdaySet: Sendable {
  private var bits: UInt8 = 0

  /// ``monthMask(firstWeekday:)`` for each first weekday, shared by every plan with this set.
  var monthMasks: [UInt32] { Self.monthMaskTable[Int(bits & 0x7F)] }

  private static let monthMaskTable: [[UInt32]] = (0..<128).map { bits in
    let set = WeekdaySet(bits: UInt8(bits))
    return (0..<7).map(set.monthMask(firstWeekday:))
  }

  init() {}

  private init(bits: UInt8) { self.bits = bits }

  mutating func insert(_ weekday: Int) { bits |= 1 << UInt8(weekday) }

  func contains(_ weekday: Int) -> Bool { bits >> UInt8(weekday) & 1 != 0 }

  var count: Int { bits.nonzeroBitCount }

  /// Day `i` (bit `i`, day 1 is bit 0) of a month whose first day is `firstWeekday`, for 31 days.
  func monthMask(firstWeekday: Int) -> UInt32 {
    // One week's pattern (day 1 is bit 0), repeated every 7 days; bit 31 is cut off.
    var week: UInt32 = 0
    for index in 0..<7 where contains((firstWeekday + index) % 7) {
      week |= UInt32(1) << UInt32(index)
    }
    return week | week << 7 | week << 14 | week << 21 | week << 28 & 0x7FFF_FFFF
  }
}

/// One-element lists of time offsets, shared: most rules take their one time of day from
/// DTSTART, and 100,000 series would otherwise hold 300,000 arrays of one number each.
struct SharedOffsets: Sendable {
  /// The unit of the offsets (3600 for hours), and the shared list for each count of units.
  let unit: Int
  let lists: [[Int]]

  static let hours = SharedOffsets(unit: 3_600, count: 24)
  static let minutes = SharedOffsets(unit: 60, count: 60)
  static let seconds = SharedOffsets(unit: 1, count: 60)

  private init(unit: Int, count: Int) {
    self.unit = unit
    lists = (0..<count).map { [$0 * unit] }
  }

  /// The shared list equal to `list`, or `list` itself.
  func shared(_ list: [Int]) -> [Int] {
    guard list.count == 1, list[0] >= 0, list[0] % unit == 0, list[0] / unit < lists.count
    else { return list }
    return lists[list[0] / unit]
  }
}
