/// An RRULE expanded on the wall clock, RFC 5545 §3.3.10 and §3.8.5.3: lazily, in time order,
/// with bounded work.
///
/// DTSTART comes first and counts toward COUNT, whether or not it matches the rule; then come
/// the rule's instances strictly after it. Each period of the frequency (every INTERVAL-th year,
/// month, week, day, hour, minute or second from DTSTART's) expands to the days and times its BY
/// parts allow, BYSETPOS picks from that sorted set, and periods that cannot match at a coarser
/// level (a month outside BYMONTH, a day outside BYDAY, an hour outside BYHOUR ...) are jumped
/// over rather than visited. Iteration ends at COUNT, after UNTIL, after 9999-12-31, or when the
/// work done passes the limit, which ``stoppedByWorkLimit`` then reports.
///
/// The iterator holds no per-instance storage: a period's days are bits in an inline word set,
/// so stepping never allocates, and copies are cheap.
public struct RecurrenceIterator: Sendable {
  /// True when iteration stopped because the work limit was hit rather than by the rule's own
  /// end (the caller reports such a rule).
  public private(set) var stoppedByWorkLimit = false
  /// How many candidate periods/instances have been examined so far (for tests and benchmarks).
  public private(set) var work = 0

  let plan: Plan
  private let start: LocalDateTime
  private let workLimit: Int
  /// DTSTART's key and period.
  private let startKey: Int
  private let firstPeriod: Int
  /// Whether the periods INTERVAL reaches from DTSTART's can never pass the parts.
  private let neverMatches: Bool
  /// Seconds added to the plan's times of day: the time parts taken from DTSTART.
  private let timeShift: Int

  /// DTSTART has not been handed out (or skipped) yet.
  private var startPending = true
  /// Instances produced so far, DTSTART included, for COUNT.
  private var produced = 0
  private var finished = false
  /// An instance found by `skip(toAtLeast:)` under COUNT, not handed out yet.
  private var pending: Int?
  /// The earliest key still to be produced.
  private var floorKey: Int
  /// The current period (see ``Plan``); always DTSTART's period plus a multiple of INTERVAL.
  private var period: Int

  // The loaded period: its passing days, and candidates indexed day-major, time-minor.
  private var loaded = false
  private var days = DayBits()
  private var periodBase = 0
  private var total = 0
  /// The next candidate index to consider.
  private var cursor = 0
  private var dayOrdinal = -1
  private var dayOffset = 0

  // The last month's day mask (month id: year * 12 + month - 1).
  private var cachedMonth = Int.min
  private var cachedMask: UInt32 = 0

  /// Expands `rule` on the wall clock from `start` (the DTSTART reading; DATE values use
  /// midnight and `isDate`). `until` is the UNTIL bound already turned into a wall-clock reading
  /// by the caller (nil: use rule.until's own reading, a DATE including its whole day).
  public init(
    rule: RecurrenceRule, start: LocalDateTime, isDate: Bool = false,
    until: LocalDateTime? = nil, workLimit: Int = 1_000_000
  ) {
    var plans = RecurrencePlans(rule: rule)
    self.init(plans: &plans, start: start, isDate: isDate, until: until, workLimit: workLimit)
  }

  /// Like ``init(rule:start:isDate:until:workLimit:)`` for `plans.rule`, taking the compiled
  /// rule from `plans` when an earlier iterator compiled the same one (and adding it otherwise).
  public init(
    plans: inout RecurrencePlans, start: LocalDateTime, isDate: Bool = false,
    until: LocalDateTime? = nil, workLimit: Int = 1_000_000
  ) {
    let start = isDate ? LocalDateTime(start.date, .midnight) : start
    self.start = start
    self.workLimit = workLimit
    // The rule is read in place: a copy retained each of its parts.
    let defaults = StartDefaults(rule: plans.rule, start: start, isDate: isDate)
    plan = plans.plan(
      isDate: isDate, untilKey: Plan.untilKey(plans.rule, isDate: isDate, until: until),
      defaults: defaults)
    timeShift = defaults.timeShift
    startKey = Self.key(start)
    firstPeriod = plan.unit(ofKey: startKey)
    neverMatches = plan.neverMatches(firstPeriod: firstPeriod)
    floorKey = startKey + 1
    period = firstPeriod
  }

  /// Whether the rule's frequency is finer than DAILY (HOURLY, MINUTELY, SECONDLY).
  public var isSubDaily: Bool { plan.isSubDaily }

  /// The next instance in time order, or nil at the end (COUNT reached, past UNTIL, past year
  /// 9999, or the work limit hit).
  public mutating func next() -> LocalDateTime? {
    if let key = pending {
      pending = nil
      return Self.reading(key)
    }
    if startPending {
      startPending = false
      countStart()
      return start
    }
    return nextInstance().map(Self.reading)
  }

  /// Skips to the first instance at or after `reading` without producing the ones before it;
  /// O(1)-ish in the distance when the rule has no COUNT (jump the period counter
  /// arithmetically), counting through otherwise.
  public mutating func skip(toAtLeast reading: LocalDateTime) {
    let target = Self.key(reading)
    if startPending {
      guard target > startKey else { return }
      startPending = false
      countStart()
    }
    if let key = pending {
      guard key < target else { return }
      pending = nil
    }
    if let count = plan.count, let step = plan.uniformStep {
      // One instance every `step` seconds from DTSTART: the k-th is found by arithmetic.
      let skipped = (target - startKey + step - 1) / step
      guard skipped > produced else { return }
      guard skipped < count else {
        finished = true
        return
      }
      produced = skipped
      floorKey = startKey + skipped * step
      loaded = false
      pending = nextInstance()
      return
    }
    if plan.count != nil {
      // COUNT numbers every instance from DTSTART on: there is no way around counting them.
      while let key = nextInstance() {
        if key >= target {
          pending = key
          return
        }
      }
      return
    }
    guard target > floorKey else { return }
    floorKey = target
    if loaded { cursor = lowerBound(from: cursor) }
  }

  /// Seconds since 1970-01-01T00:00:00 on a clock without a zone.
  static func key(_ reading: LocalDateTime) -> Int {
    reading.date.daysSince1970 * 86_400 + reading.time.secondsSinceMidnight
  }

  /// The reading of a key.
  static func reading(_ key: Int) -> LocalDateTime {
    let day = Civil.floorDiv(key, 86_400)
    return LocalDateTime(
      LocalDate(daysSince1970: day), LocalTime(secondsSinceMidnight: key - day * 86_400))
  }

  private mutating func countStart() {
    produced = 1
    if let count = plan.count, count <= 1 { finished = true }
  }

  private mutating func stop() -> Int? {
    stoppedByWorkLimit = true
    finished = true
    return nil
  }

  /// The next instance of the rule itself, counted and checked against UNTIL.
  private mutating func nextInstance() -> Int? {
    guard !finished, !neverMatches else { return nil }
    guard let key = nextCandidate(), key <= plan.untilKey ?? Int.max else {
      finished = true
      return nil
    }
    produced += 1
    if let count = plan.count, produced >= count { finished = true }
    // A DATE rule finer than DAILY yields each day once.
    floorKey = plan.isDate && plan.isSubDaily ? key + 86_400 : key + 1
    return key
  }

  /// The first candidate at or after `floorKey`, walking the periods.
  private mutating func nextCandidate() -> Int? {
    while true {
      if loaded {
        if let index = nextIndex() {
          work += 1
          guard work <= workLimit else { return stop() }
          let key = key(at: index)
          if key >= floorKey { return key }
          continue
        }
        loaded = false
        guard let following = add(period, plan.interval) else { return nil }
        period = following
        continue
      }
      work += 1
      guard work <= workLimit else { return stop() }
      let floorPeriod = plan.unit(ofKey: floorKey)
      if floorPeriod > period { period = alignedDown(floorPeriod) }
      guard period <= plan.lastPeriod, let found = firstPassingPeriod() else { return nil }
      if found != period {
        guard let aligned = alignedUp(found) else { return nil }
        period = aligned
        continue
      }
      load()
    }
  }

  // MARK: Period arithmetic

  private func add(_ period: Int, _ step: Int) -> Int? {
    let (sum, overflow) = period.addingReportingOverflow(step)
    return overflow || sum > plan.lastPeriod ? nil : sum
  }

  /// The last valid period at or before `unit` (which is at or after DTSTART's).
  private func alignedDown(_ unit: Int) -> Int {
    firstPeriod + (unit - firstPeriod) / plan.interval * plan.interval
  }

  /// The first valid period at or after `unit`, or nil past year 9999.
  private func alignedUp(_ unit: Int) -> Int? {
    let distance = unit - firstPeriod
    let steps = distance / plan.interval + (distance % plan.interval > 0 ? 1 : 0)
    let (offset, overflow) = steps.multipliedReportingOverflow(by: plan.interval)
    return overflow ? nil : add(firstPeriod, offset)
  }

  /// The period of the first moment at or after the current period's start and `floorKey` that
  /// passes the coarse parts (months, days, and for finer frequencies hours, minutes, seconds),
  /// or nil when there is none before year 10000 (or the work ran out).
  private mutating func firstPassingPeriod() -> Int? {
    if plan.isSubDaily {
      return firstPassingUnit(from: max(period, plan.unit(ofKey: floorKey)))
    }
    let from = max(plan.dayRange(period).start, Civil.floorDiv(floorKey, 86_400))
    return firstPassingDay(from: from).map(plan.unit(ofDay:))
  }

  /// The first day at or after `day` that passes the day-level parts.
  private mutating func firstPassingDay(from day: Int) -> Int? {
    var day = day
    while day <= Civil.maxDay {
      let date = Civil.date(day)
      let mask = monthMask(year: date.year, month: date.month) >> UInt32(date.day - 1)
      if mask != 0 { return day + mask.trailingZeroBitCount }
      guard work <= workLimit else { return stop() }
      // On to the first day of the next month BYMONTH allows.
      let later = plan.months & ~(UInt16(0xFFFF) >> UInt16(15 - date.month))
      if later != 0 {
        day = Civil.days(date.year, later.trailingZeroBitCount, 1)
      } else {
        day = Civil.days(date.year + 1, plan.months.trailingZeroBitCount, 1)
      }
    }
    return nil
  }

  /// For frequencies finer than DAILY: the first unit at or after `unit` whose day passes and
  /// whose hour, minute and second are allowed.
  private mutating func firstPassingUnit(from unit: Int) -> Int? {
    let seconds = unit * plan.unitSeconds
    var day = Civil.floorDiv(seconds, 86_400)
    let ofDay = seconds - day * 86_400
    var hour = ofDay / 3600
    var minute = ofDay / 60 % 60
    var second = ofDay % 60
    while true {
      guard let passing = firstPassingDay(from: day) else { return nil }
      if passing != day {
        (day, hour, minute, second) = (passing, 0, 0, 0)
      }
      guard let nextHour = Self.first(plan.time.hours, from: hour, below: 24) else {
        (day, hour, minute, second) = (day + 1, 0, 0, 0)
        continue
      }
      if nextHour != hour { (hour, minute, second) = (nextHour, 0, 0) }
      if plan.frequency == .hourly { return day * 24 + hour }
      guard let nextMinute = Self.first(plan.time.minutes, from: minute, below: 60) else {
        (hour, minute, second) = (hour + 1, 0, 0)
        if hour == 24 { (day, hour) = (day + 1, 0) }
        continue
      }
      if nextMinute != minute { (minute, second) = (nextMinute, 0) }
      if plan.frequency == .minutely { return (day * 24 + hour) * 60 + minute }
      guard let nextSecond = Self.first(plan.time.seconds, from: second, below: 60) else {
        (minute, second) = (minute + 1, 0)
        if minute == 60 { (hour, minute) = (hour + 1, 0) }
        if hour == 24 { (day, hour) = (day + 1, 0) }
        continue
      }
      return day * 86_400 + hour * 3600 + minute * 60 + nextSecond
    }
  }

  /// The smallest value at or after `value` and below `limit` whose bit is set in `allowed`.
  private static func first(_ allowed: UInt64, from value: Int, below limit: Int) -> Int? {
    let bits = allowed >> UInt64(value)
    let found = value + bits.trailingZeroBitCount
    return bits != 0 && found < limit ? found : nil
  }

  /// The day mask of a month, remembering the last one (each fresh mask counts as work).
  private mutating func monthMask(year: Int, month: Int) -> UInt32 {
    guard plan.months & (UInt16(1) << UInt16(month)) != 0 else { return 0 }
    let id = year * 12 + month - 1
    if id != cachedMonth {
      work += 1
      cachedMonth = id
      cachedMask = plan.dayMask(year: year, month: month)
    }
    return cachedMask
  }

  // MARK: The loaded period

  /// Loads the current period's candidates and moves the cursor to the first at or after
  /// `floorKey`.
  private mutating func load() {
    days = DayBits()
    if plan.isSubDaily {
      days.insert(1, at: 0)
      let seconds = period * plan.unitSeconds
      periodBase = plan.isDate ? Civil.floorDiv(seconds, 86_400) * 86_400 : seconds
    } else {
      let range = plan.dayRange(period)
      var date = Civil.date(range.start)
      var first = range.start - date.day + 1
      while first < range.end {
        let length = Civil.daysIn(date.month, date.year)
        let inRange = Civil.bits(
          max(range.start, first) - first, min(range.end, first + length) - first)
        let mask = UInt64(monthMask(year: date.year, month: date.month)) & inRange
        if mask != 0 {
          if first >= range.start {
            days.insert(mask, at: first - range.start)
          } else {
            days.insert(mask >> UInt64(range.start - first), at: 0)
          }
        }
        first += length
        date = date.month == 12 ? (date.year + 1, 1, 1) : (date.year, date.month + 1, 1)
      }
      periodBase = range.start * 86_400
    }
    total = days.count * plan.time.count
    dayOrdinal = -1
    loaded = true
    cursor = lowerBound(from: 0)
  }

  /// The next candidate index at or after the cursor (BYSETPOS: the next selected one).
  private mutating func nextIndex() -> Int? {
    if plan.setPositions.isEmpty {
      guard cursor < total else { return nil }
      cursor += 1
      return cursor - 1
    }
    var best = Int.max
    for position in plan.setPositions {
      let index = position > 0 ? position - 1 : total + position
      if index >= cursor, index < total, index < best { best = index }
    }
    guard best < total else {
      cursor = total
      return nil
    }
    cursor = best + 1
    return best
  }

  /// The first index at or after `low` whose key is at or after `floorKey`.
  private mutating func lowerBound(from low: Int) -> Int {
    var low = low
    var high = total
    while low < high {
      let middle = low + (high - low) / 2
      if key(at: middle) < floorKey {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }

  /// The key of candidate `index` of the loaded period.
  private mutating func key(at index: Int) -> Int {
    let timeCount = plan.time.count
    let ordinal = timeCount == 1 ? index : index / timeCount
    if ordinal != dayOrdinal {
      if ordinal == dayOrdinal + 1, dayOrdinal >= 0, let next = days.offset(after: dayOffset) {
        dayOffset = next
      } else {
        dayOffset = days.offset(ofOrdinal: ordinal)
      }
      dayOrdinal = ordinal
    }
    return periodBase + dayOffset * 86_400 + timeShift
      + plan.timeOffset(index - ordinal * timeCount)
  }
}
