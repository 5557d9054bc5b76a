extension RecurrenceIterator {
  /// A BYDAY entry with an ordinal, weekday 0 (Monday) ... 6 (Sunday).
  struct OrdinalWeekday: Sendable {
    let ordinal: Int
    let weekday: Int
  }

  /// The rule compiled for expansion: the BY parts with DTSTART's defaults filled in, as masks
  /// and sorted lists, and the period arithmetic of the frequency. Built once, never mutated, and
  /// shared by every iterator whose rule, UNTIL and ``StartDefaults`` are the same
  /// (``RecurrencePlans``): nothing in it depends on DTSTART beyond those defaults.
  ///
  /// Times are keys: seconds since 1970-01-01T00:00:00 on a clock without a zone. Periods are
  /// units of the frequency counted on that clock: years, months since year 0, weeks (starting on
  /// WKST), days, hours, minutes or seconds since 1970.
  final class Plan: Sendable {
    let frequency: RecurrenceRule.Frequency
    let interval: Int
    let count: Int?
    let isDate: Bool
    /// The last key UNTIL allows, inclusive.
    let untilKey: Int?
    /// The period holding 9999-12-31T23:59:59.
    let lastPeriod: Int
    /// Whether no period can ever pass the parts, wherever the rule starts: a part left without
    /// values, or a BYSETPOS beyond any period's size.
    let cannotMatch: Bool
    /// The plain BYDAY weekdays, for ``neverMatches(firstPeriod:)``.
    let plainWeekdays: WeekdaySet
    /// Seconds in one period of a frequency finer than DAILY (unused otherwise).
    let unitSeconds: Int
    let isSubDaily: Bool
    /// When every period holds exactly one instance (no BY parts, a fixed-length frequency), the
    /// distance between instances in seconds: COUNT can then be skipped by arithmetic.
    let uniformStep: Int?
    /// A day number on which weeks start (WKST).
    let weekBase: Int
    let weekStart: Int

    /// Bit `m` set: month `m` may hold instances.
    let months: UInt16
    /// By month length minus 28: the BYMONTHDAY days as bits (bit 0: day 1). Empty: no BYMONTHDAY.
    let monthDayMasks: [UInt32]
    /// By the weekday of the month's first day: the plain BYDAY days as bits. Empty: no BYDAY.
    let weekdayMasks: [UInt32]
    let ordinalWeekdays: [OrdinalWeekday]
    /// Whether BYDAY ordinals count within the year (else within the month).
    let ordinalsInYear: Bool
    let yearDays: [Int]
    let weekNumbers: [Int]

    /// The hours, minutes and seconds a period may start on, and the times each slot expands to.
    let time: TimeParts
    let setPositions: [Int]

    /// The last key `rule`'s UNTIL allows: `until`, the bound already turned into a wall-clock
    /// reading by the caller, else the rule's own reading (a DATE including its whole day).
    static func untilKey(_ rule: RecurrenceRule, isDate: Bool, until: LocalDateTime?) -> Int? {
      if let until { return RecurrenceIterator.key(until) }
      switch rule.until {
      case nil: return nil
      case .date(let date)?: return date.daysSince1970 * 86_400 + (isDate ? 0 : 86_399)
      case let other?: return RecurrenceIterator.key(other.local)
      }
    }

    /// Seconds in one period of `frequency` when it is finer than DAILY, else a day.
    static func unitSeconds(_ frequency: RecurrenceRule.Frequency) -> Int {
      switch frequency {
      case .secondly: 1
      case .minutely: 60
      case .hourly: 3600
      default: 86_400
      }
    }

    init(rule: RecurrenceRule, defaults: StartDefaults, isDate: Bool, untilKey: Int?) {
      let frequency = rule.frequency
      self.frequency = frequency
      interval = max(1, rule.interval)
      count = rule.count
      self.isDate = isDate
      self.untilKey = untilKey
      let unitSeconds = Self.unitSeconds(frequency)
      self.unitSeconds = unitSeconds
      isSubDaily = unitSeconds < 86_400
      uniformStep = Self.uniformStep(of: rule, isDate: isDate)
      weekStart = rule.weekStart.rawValue - 1
      weekBase = (weekStart + 4) % 7  // day 0 (1970-01-01) is a Thursday
      let (rule, emptied) = Self.keepingValuesInRange(rule)
      let days = DayParts(rule, defaults: defaults)
      months = days.months
      monthDayMasks = days.monthDayMasks
      weekdayMasks = days.weekdayMasks
      ordinalWeekdays = days.ordinals
      ordinalsInYear = frequency == .yearly && days.byMonth.isEmpty
      plainWeekdays = days.plain
      yearDays = rule.byYearDay
      weekNumbers = rule.byWeekNo
      time = TimeParts(rule, isDate: isDate)
      setPositions = rule.bySetPos
      lastPeriod = Self.unit(
        ofKey: Civil.maxKey, frequency: frequency, unitSeconds: unitSeconds, weekBase: weekBase)
      cannotMatch =
        emptied
        || !Self.canPick(
          frequency: frequency, setPositions: rule.bySetPos, timeCount: time.count,
          months: months, yearDays: rule.byYearDay,
          plainDays: days.byDay.isEmpty ? 7 : days.plain.count,
          monthDays: Set(days.byMonthDay).count)
    }

    /// The distance between instances when every period holds exactly one (no BY parts, a
    /// frequency of fixed length), else nil.
    private static func uniformStep(of rule: RecurrenceRule, isDate: Bool) -> Int? {
      let unitSeconds = unitSeconds(rule.frequency)
      let fixedLength: Int? =
        switch rule.frequency {
        case .secondly, .minutely, .hourly, .daily: unitSeconds
        case .weekly: 7 * 86_400
        case .monthly, .yearly: nil
        }
      let noParts = !rule.hasByPartsBesidesDay && rule.byDay.isEmpty
      guard noParts, !(isDate && unitSeconds < 86_400), let fixedLength else { return nil }
      let (step, overflow) = fixedLength.multipliedReportingOverflow(by: max(1, rule.interval))
      return overflow ? nil : step
    }

    /// `rule` without its out-of-range BY values, and whether that left a part without values
    /// (it can then never match). The parser keeps BY values in range, but a rule built in code
    /// may not.
    private static func keepingValuesInRange(_ rule: RecurrenceRule) -> (RecurrenceRule, Bool) {
      var rule = rule
      var emptied = false
      func keep(_ list: inout [Int], _ range: ClosedRange<Int>, signed: Bool = false) {
        let kept = list.filter { value in
          signed ? range.contains(Int(clamping: value.magnitude)) : range.contains(value)
        }
        emptied = emptied || (kept.isEmpty && !list.isEmpty)
        list = kept
      }
      keep(&rule.byMonth, 1...12)
      keep(&rule.byWeekNo, 1...53, signed: true)
      keep(&rule.byYearDay, 1...366, signed: true)
      keep(&rule.byMonthDay, 1...31, signed: true)
      keep(&rule.byHour, 0...23)
      keep(&rule.byMinute, 0...59)
      keep(&rule.bySecond, 0...60)
      keep(&rule.bySetPos, 1...366, signed: true)
      let byDayCount = rule.byDay.count
      rule.byDay.removeAll { entry in
        entry.ordinal.map { !(1...53).contains(Int(clamping: $0.magnitude)) } ?? false
      }
      emptied = emptied || (rule.byDay.isEmpty && byDayCount > 0)
      return (rule, emptied)
    }

    /// Whether the periods INTERVAL reaches from `firstPeriod` (DTSTART's) can never pass the
    /// parts (an early answer for the common cases, such as FREQ=DAILY;INTERVAL=7;BYDAY=TU from
    /// a Monday).
    func neverMatches(firstPeriod: Int) -> Bool {
      cannotMatch || !reachable(from: firstPeriod)
    }

    /// Whether some BYSETPOS position fits in the largest set a period can hold (FREQ=DAILY;
    /// BYSETPOS=2 never picks anything: each day holds one instance). `plainDays` is the count
    /// of BYDAY weekdays (7 without BYDAY), `monthDays` that of distinct BYMONTHDAY values.
    private static func canPick(
      frequency: RecurrenceRule.Frequency, setPositions: [Int], timeCount: Int, months: UInt16,
      yearDays: [Int], plainDays: Int, monthDays: Int
    ) -> Bool {
      guard !setPositions.isEmpty else { return true }
      var days: Int
      switch frequency {
      case .yearly:
        days = 366
        if monthDays > 0 { days = min(days, monthDays * months.nonzeroBitCount) }
        if !yearDays.isEmpty { days = min(days, Set(yearDays).count) }
      case .monthly: days = monthDays > 0 ? min(31, monthDays) : 31
      case .weekly: days = plainDays
      default: days = 1
      }
      return setPositions.contains { $0.magnitude <= days * timeCount }
    }

    /// Whether INTERVAL steps from DTSTART's period can land on an allowed month (MONTHLY), or
    /// on an allowed weekday and time of day (DAILY and finer): the steps reach only the
    /// residues of DTSTART's period modulo gcd(INTERVAL, the cycle's length in periods).
    private func reachable(from firstPeriod: Int) -> Bool {
      let weekdays = plainWeekdays
      func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
      func residue(_ cycle: Int, origin: Int) -> (step: Int, residue: Int) {
        let step = gcd(interval % cycle, cycle)
        return (step, ((firstPeriod - origin) % step + step) % step)
      }
      switch frequency {
      case .yearly, .weekly: return true
      case .monthly:
        let (step, wanted) = residue(12, origin: 0)
        return (1...12).contains { month in
          months & UInt16(1) << UInt16(month) != 0 && (month - 1) % step == wanted
        }
      default:
        // The cycle is a day of periods, or a week of them when BYDAY picks weekdays; a week's
        // periods are counted from a Monday (day 4).
        let perDay = 86_400 / unitSeconds
        let byWeek = !weekdayMasks.isEmpty
        let (step, wanted) = residue(byWeek ? 7 * perDay : perDay, origin: byWeek ? 4 * perDay : 0)
        guard step > 1 else { return true }
        func list(_ allowed: UInt64, _ count: Int, _ used: Bool) -> [Int] {
          used ? (0..<count).filter { allowed >> UInt64($0) & 1 != 0 } : [0]
        }
        let dayList = byWeek ? (0..<7).filter(weekdays.contains) : [0]
        let hourList = list(time.hours, 24, isSubDaily)
        let minuteList = list(time.minutes, 60, frequency == .minutely || frequency == .secondly)
        let secondList = list(time.seconds, 60, frequency == .secondly)
        let perHour = perDay / 24
        let perMinute = frequency == .secondly ? 60 : 1
        for day in dayList {
          for hour in hourList {
            for minute in minuteList {
              for second in secondList {
                let offset = day * perDay + hour * perHour + minute * perMinute + second
                if offset % step == wanted { return true }
              }
            }
          }
        }
        return false
      }
    }

    /// The period holding `key`.
    func unit(ofKey key: Int) -> Int {
      Self.unit(ofKey: key, frequency: frequency, unitSeconds: unitSeconds, weekBase: weekBase)
    }

    /// The period holding day number `day` (frequencies DAILY and coarser).
    func unit(ofDay day: Int) -> Int {
      Self.unit(ofDay: day, frequency: frequency, weekBase: weekBase)
    }

    private static func unit(
      ofKey key: Int, frequency: RecurrenceRule.Frequency, unitSeconds: Int, weekBase: Int
    ) -> Int {
      unitSeconds < 86_400
        ? Civil.floorDiv(key, unitSeconds)
        : unit(ofDay: Civil.floorDiv(key, 86_400), frequency: frequency, weekBase: weekBase)
    }

    private static func unit(ofDay day: Int, frequency: RecurrenceRule.Frequency, weekBase: Int)
      -> Int
    {
      switch frequency {
      case .yearly: return Civil.date(day).year
      case .monthly:
        let date = Civil.date(day)
        return date.year * 12 + date.month - 1
      case .weekly: return Civil.floorDiv(day - weekBase, 7)
      default: return day
      }
    }

    /// The days `start..<end` of a period of DAILY or a coarser frequency, within 1...9999.
    func dayRange(_ period: Int) -> (start: Int, end: Int) {
      let start: Int
      let end: Int
      switch frequency {
      case .yearly:
        start = Civil.days(period, 1, 1)
        end = Civil.days(period + 1, 1, 1)
      case .monthly:
        let year = Civil.floorDiv(period, 12)
        let month = period - year * 12 + 1
        start = Civil.days(year, month, 1)
        end = start + Civil.daysIn(month, year)
      case .weekly:
        start = weekBase + 7 * period
        end = start + 7
      default:
        start = period
        end = period + 1
      }
      return (max(start, Civil.minDay), min(end, Civil.maxDay + 1))
    }

    /// The seconds to add to a slot's start for time index `index` (below `time.count`).
    func timeOffset(_ index: Int) -> Int {
      let secondIndex = index % time.secondOffsets.count
      let rest = index / time.secondOffsets.count
      return time.hourOffsets[rest / time.minuteOffsets.count]
        + time.minuteOffsets[rest % time.minuteOffsets.count] + time.secondOffsets[secondIndex]
    }

    /// The days of `month` in `year` that pass the day-level parts, as bits (bit 0: day 1).
    func dayMask(year: Int, month: Int) -> UInt32 {
      let length = Civil.daysIn(month, year)
      var mask = UInt32.max >> UInt32(32 - length)
      if !monthDayMasks.isEmpty { mask &= monthDayMasks[length - 28] }
      guard mask != 0 else { return 0 }
      let first = Civil.days(year, month, 1)
      if !weekdayMasks.isEmpty {
        var days = weekdayMasks[Civil.weekday(first)]
        if !ordinalWeekdays.isEmpty {
          let scope =
            ordinalsInYear
            ? (Civil.days(year, 1, 1), LocalDate.isLeap(year) ? 366 : 365) : (first, length)
          for entry in ordinalWeekdays {
            if let day = Civil.ordinalWeekday(
              entry.ordinal, entry.weekday, first: scope.0, length: scope.1),
              day >= first, day < first + length
            {
              days |= UInt32(1) << UInt32(day - first)
            }
          }
        }
        mask &= days
      }
      if mask != 0, !yearDays.isEmpty {
        let january1 = Civil.days(year, 1, 1)
        let yearLength = LocalDate.isLeap(year) ? 366 : 365
        var days: UInt32 = 0
        for value in yearDays {
          let day = january1 - 1 + (value > 0 ? value : yearLength + 1 + value)
          if day >= first, day < first + length, day >= january1 {
            days |= UInt32(1) << UInt32(day - first)
          }
        }
        mask &= days
      }
      if mask != 0, !weekNumbers.isEmpty {
        var days: UInt64 = 0
        // Only January and December can hold days of the neighbouring week-numbering year.
        for weekYear in (month == 1 ? year - 1 : year)...(month == 12 ? year + 1 : year) {
          let yearStart = Civil.weekYearStart(weekYear, weekStart: weekStart)
          let weeks = (Civil.weekYearStart(weekYear + 1, weekStart: weekStart) - yearStart) / 7
          for value in weekNumbers {
            let week = value > 0 ? value : weeks + 1 + value
            guard (1...weeks).contains(week) else { continue }
            let weekFirst = yearStart + 7 * (week - 1)
            days |= Civil.bits(
              max(weekFirst, first) - first, min(weekFirst + 7, first + length) - first)
          }
        }
        mask &= UInt32(truncatingIfNeeded: days)
      }
      return mask
    }
  }
}
