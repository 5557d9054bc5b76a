/// Proleptic Gregorian arithmetic on day numbers (days since 1970-01-01), without the range
/// checks of ``LocalDate`` (the iterator steps just outside 1...9999 at the edges); the one
/// home of the civil-calendar algorithm, which ``LocalDate`` uses too.
enum Civil {
  /// 0001-01-01.
  static let minDay = -719_162
  /// 9999-12-31.
  static let maxDay = 2_932_896
  /// The last second of 9999-12-31, as seconds since 1970-01-01T00:00:00.
  static let maxKey = maxDay * 86_400 + 86_399

  /// The day number of `year`-`month`-`day` (the day may run past the month's end).
  static func days(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The year, month and day of a day number.
  static func date(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    // Within an era every value is small and non-negative: unsigned arithmetic without overflow
    // checks divides by constants in a few instructions (this runs several times per firing).
    let doe = UInt(truncatingIfNeeded: z - era * 146_097)  // 0 ... 146_096
    let yoe = (doe &- doe / 1460 &+ doe / 36524 &- doe / 146_096) / 365  // 0 ... 399
    let doy = doe &- (365 &* yoe &+ yoe / 4 &- yoe / 100)  // 0 ... 365, from March 1st
    let mp = (5 &* doy &+ 2) / 153  // 0 ... 11, March first
    let day = Int(truncatingIfNeeded: doy &- (153 &* mp &+ 2) / 5 &+ 1)
    let month = Int(truncatingIfNeeded: mp < 10 ? mp &+ 3 : mp &- 9)
    return (Int(truncatingIfNeeded: yoe) + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// The weekday of a day number, 0 for Monday ... 6 for Sunday.
  static func weekday(_ days: Int) -> Int {
    ((days + 3) % 7 + 7) % 7  // 1970-01-01 was a Thursday
  }

  /// The number of days in a month.
  static func daysIn(_ month: Int, _ year: Int) -> Int {
    LocalDate.daysIn(month: month, year: year)
  }

  /// Division rounding towards minus infinity.
  static func floorDiv(_ value: Int, _ divisor: Int) -> Int {
    let quotient = value / divisor
    return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }

  /// The first day of week 1 of `year` when weeks start on `weekStart` (0 = Monday): the week
  /// holding January 4th, i.e. the first week with at least four days in the year.
  static func weekYearStart(_ year: Int, weekStart: Int) -> Int {
    let january4 = days(year, 1, 4)
    return january4 - (weekday(january4) - weekStart + 7) % 7
  }

  /// The day on which the `ordinal`-th (negative: from the end) `weekday` falls in the
  /// `length` days from `first`, or nil when there is no such day.
  static func ordinalWeekday(_ ordinal: Int, _ weekday: Int, first: Int, length: Int) -> Int? {
    let earliest = first + (weekday - Self.weekday(first) + 7) % 7
    let day: Int
    if ordinal > 0 {
      day = earliest + 7 * (ordinal - 1)
    } else {
      let latest = earliest + 7 * ((first + length - 1 - earliest) / 7)
      day = latest + 7 * (ordinal + 1)
    }
    return day >= first && day < first + length ? day : nil
  }

  /// Bits `low..<high` set (`0 <= low`, `high <= 64`).
  static func bits(_ low: Int, _ high: Int) -> UInt64 {
    guard high > low else { return 0 }
    let width = high - low
    return (width >= 64 ? UInt64.max : (1 << UInt64(width)) - 1) << UInt64(low)
  }
}

/// The days of one period as bits (bit `k`: the period's first day plus `k` passes the rule),
/// held inline so that loading a period allocates nothing. A year needs 366 of the 384 bits.
struct DayBits {
  private var w0: UInt64 = 0
  private var w1: UInt64 = 0
  private var w2: UInt64 = 0
  private var w3: UInt64 = 0
  private var w4: UInt64 = 0
  private var w5: UInt64 = 0

  private func word(_ index: Int) -> UInt64 {
    switch index {
    case 0: w0
    case 1: w1
    case 2: w2
    case 3: w3
    case 4: w4
    case 5: w5
    default: 0
    }
  }

  private mutating func merge(_ value: UInt64, into index: Int) {
    switch index {
    case 0: w0 |= value
    case 1: w1 |= value
    case 2: w2 |= value
    case 3: w3 |= value
    case 4: w4 |= value
    case 5: w5 |= value
    default: break
    }
  }

  /// Sets the bits of `value` shifted up by `offset`.
  mutating func insert(_ value: UInt64, at offset: Int) {
    let index = offset >> 6
    let shift = UInt64(offset & 63)
    merge(value << shift, into: index)
    if shift != 0, value >> (64 - shift) != 0 { merge(value >> (64 - shift), into: index + 1) }
  }

  /// The number of days set.
  var count: Int {
    w0.nonzeroBitCount + w1.nonzeroBitCount + w2.nonzeroBitCount + w3.nonzeroBitCount
      + w4.nonzeroBitCount + w5.nonzeroBitCount
  }

  /// The offset of the `ordinal`-th set bit (0-based); the caller keeps it below ``count``.
  func offset(ofOrdinal ordinal: Int) -> Int {
    var remaining = ordinal
    for index in 0..<6 {
      var bits = word(index)
      let inWord = bits.nonzeroBitCount
      if remaining < inWord {
        for _ in 0..<remaining { bits &= bits - 1 }
        return index * 64 + bits.trailingZeroBitCount
      }
      remaining -= inWord
    }
    return 6 * 64
  }

  /// The offset of the first set bit after `offset`, or nil.
  func offset(after offset: Int) -> Int? {
    let from = offset + 1
    var index = from >> 6
    guard index < 6 else { return nil }
    var bits = word(index) & (UInt64.max << UInt64(from & 63))
    while bits == 0 {
      index += 1
      guard index < 6 else { return nil }
      bits = word(index)
    }
    return index * 64 + bits.trailingZeroBitCount
  }
}
