/// A calendar date without a time zone (proleptic Gregorian).
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  // Month and day in a byte each: a series holds several dates and times.
  private let storedYear: Int
  private let storedMonth: UInt8
  private let storedDay: UInt8

  /// The year, 1 ... 9999 when read from text (arithmetic can leave that range).
  public var year: Int { storedYear }
  /// The month, 1 ... 12.
  public var month: Int { Int(storedMonth) }
  /// The day of the month, 1 ... 31.
  public var day: Int { Int(storedDay) }

  /// Creates a date, or nil when the fields do not name a real day.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...LocalDate.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    storedYear = year
    storedMonth = UInt8(month)
    storedDay = UInt8(day)
  }

  /// The date `days` days after 1970-01-01 (negative before it).
  public init(daysSince1970 days: Int) {
    let (year, month, day) = Civil.date(days)
    storedYear = year
    storedMonth = UInt8(month)
    storedDay = UInt8(day)
  }

  /// Days since 1970-01-01.
  public var daysSince1970: Int { Civil.days(year, month, day) }

  /// The day of the week.
  public var weekday: Weekday {
    // 1970-01-01 was a Thursday.
    Weekday.thursday.advanced(by: daysSince1970 % 7)
  }

  /// The date `count` days later.
  public func adding(days count: Int) -> LocalDate {
    LocalDate(daysSince1970: daysSince1970 + count)
  }

  /// Whether `year` is a Gregorian leap year.
  public static func isLeap(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  /// The number of days in a month.
  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// `YYYY-MM-DD`.
  public var description: String { "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }

  /// The RFC 5545 DATE form `YYYYMMDD`.
  public var icalString: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(8)
    appendICalString(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``icalString``'s bytes.
  func appendICalString(to bytes: inout [UInt8]) {
    if (0...9999).contains(year) {
      appendTwoDigits(year / 100, to: &bytes)
      appendTwoDigits(year % 100, to: &bytes)
    } else {
      bytes.append(contentsOf: pad(year, 4).utf8)
    }
    appendTwoDigits(month, to: &bytes)
    appendTwoDigits(day, to: &bytes)
  }

  /// Orders by day.
  public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }
}

/// A wall-clock time of day without a time zone.
public struct LocalTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  private let storedHour: UInt8
  private let storedMinute: UInt8
  private let storedSecond: UInt8

  /// The hour, 0 ... 23.
  public var hour: Int { Int(storedHour) }
  /// The minute, 0 ... 59.
  public var minute: Int { Int(storedMinute) }
  /// The second, 0 ... 59 (a leap second 60 is read as 59).
  public var second: Int { Int(storedSecond) }

  /// Creates a time, or nil when out of range.
  public init?(hour: Int, minute: Int, second: Int = 0) {
    guard (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
    else { return nil }
    storedHour = UInt8(hour)
    storedMinute = UInt8(minute)
    storedSecond = UInt8(min(second, 59))
  }

  /// The time `seconds` after midnight, wrapped into one day.
  public init(secondsSinceMidnight seconds: Int) {
    let s = ((seconds % 86_400) + 86_400) % 86_400
    storedHour = UInt8(s / 3600)
    storedMinute = UInt8(s / 60 % 60)
    storedSecond = UInt8(s % 60)
  }

  /// Midnight.
  public static let midnight = LocalTime(secondsSinceMidnight: 0)

  /// Seconds since midnight.
  public var secondsSinceMidnight: Int { hour * 3600 + minute * 60 + second }

  /// `HH:mm:ss`.
  public var description: String { "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))" }

  /// Orders by time of day.
  public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool {
    lhs.secondsSinceMidnight < rhs.secondsSinceMidnight
  }
}

/// A date and wall-clock time without a time zone.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The date.
  public let date: LocalDate
  /// The time of day.
  public let time: LocalTime

  /// Combines a date and a time.
  public init(_ date: LocalDate, _ time: LocalTime) {
    self.date = date
    self.time = time
  }

  /// The wall-clock reading `seconds` after 1970-01-01T00:00:00 (no zone, no DST).
  public init(secondsSince1970 seconds: Int64) {
    let days = Int((seconds >= 0 ? seconds : seconds - 86_399) / 86_400)
    date = LocalDate(daysSince1970: days)
    time = LocalTime(secondsSinceMidnight: Int(seconds - Int64(days) * 86_400))
  }

  /// Seconds since 1970-01-01T00:00:00 on a clock without a zone.
  public var secondsSince1970: Int64 {
    Int64(date.daysSince1970) * 86_400 + Int64(time.secondsSinceMidnight)
  }

  /// The reading `seconds` later on a clock without a zone (nominal arithmetic).
  public func adding(seconds: Int64) -> LocalDateTime {
    LocalDateTime(secondsSince1970: secondsSince1970 + seconds)
  }

  /// `YYYY-MM-DDTHH:mm:ss`.
  public var description: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(19)
    appendDescription(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``description``'s 19 ASCII bytes (the year's last four digits), for output made of
  /// many readings.
  public func appendDescription(to bytes: inout [UInt8]) {
    let year = date.year % 10_000
    appendTwoDigits(year / 100, to: &bytes)
    appendTwoDigits(year % 100, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendTwoDigits(date.month, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendTwoDigits(date.day, to: &bytes)
    bytes.append(UInt8(ascii: "T"))
    appendTwoDigits(time.hour, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendTwoDigits(time.minute, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendTwoDigits(time.second, to: &bytes)
  }

  /// The RFC 5545 form `YYYYMMDDTHHMMSS` (without `Z`).
  public var icalString: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(15)
    appendICalString(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``icalString``'s bytes.
  func appendICalString(to bytes: inout [UInt8]) {
    date.appendICalString(to: &bytes)
    bytes.append(UInt8(ascii: "T"))
    appendTwoDigits(time.hour, to: &bytes)
    appendTwoDigits(time.minute, to: &bytes)
    appendTwoDigits(time.second, to: &bytes)
  }

  /// Orders by date, then time.
  public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
    (lhs.date, lhs.time) < (rhs.date, rhs.time)
  }
}

/// Zero-pads a non-negative number to `width` digits.
func pad(_ value: Int, _ width: Int) -> String {
  let digits = String(value)
  return digits.count >= width
    ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// Appends `value` (0 ... 99) as two decimal digits.
func appendTwoDigits(_ value: Int, to bytes: inout [UInt8]) {
  bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
  bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
}
