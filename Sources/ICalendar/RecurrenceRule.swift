/// An RRULE value, RFC 5545 §3.3.10, parsed into its parts.
public struct RecurrenceRule: Equatable, Sendable {
  /// FREQ.
  public enum Frequency: String, CaseIterable, Sendable {
    /// Every second.
    case secondly = "SECONDLY"
    /// Every minute.
    case minutely = "MINUTELY"
    /// Every hour.
    case hourly = "HOURLY"
    /// Every day.
    case daily = "DAILY"
    /// Every week.
    case weekly = "WEEKLY"
    /// Every month.
    case monthly = "MONTHLY"
    /// Every year.
    case yearly = "YEARLY"
  }

  /// A BYDAY entry: a weekday, optionally with an ordinal such as `-1SU` (last Sunday).
  public struct WeekdayEntry: Hashable, Sendable {
    /// The ordinal (±1 ... ±53), nil for every such weekday.
    public let ordinal: Int?
    /// The weekday.
    public let weekday: Weekday

    /// Creates an entry.
    public init(ordinal: Int? = nil, _ weekday: Weekday) {
      self.ordinal = ordinal
      self.weekday = weekday
    }

    /// `MO`, `2TU`, `-1SU`.
    public var text: String { (ordinal.map { String($0) } ?? "") + weekday.icalCode }
  }

  /// FREQ.
  public var frequency: Frequency
  /// INTERVAL (1 when absent).
  public var interval: Int = 1
  /// COUNT.
  public var count: Int?
  /// UNTIL.
  public var until: DateTimeValue?
  /// BYSECOND.
  public var bySecond: [Int] = []
  /// BYMINUTE.
  public var byMinute: [Int] = []
  /// BYHOUR.
  public var byHour: [Int] = []
  /// BYDAY.
  public var byDay: [WeekdayEntry] = []
  /// BYMONTHDAY.
  public var byMonthDay: [Int] = []
  /// BYYEARDAY.
  public var byYearDay: [Int] = []
  /// BYWEEKNO.
  public var byWeekNo: [Int] = []
  /// BYMONTH.
  public var byMonth: [Int] = []
  /// BYSETPOS.
  public var bySetPos: [Int] = []
  /// WKST (Monday when absent).
  public var weekStart: Weekday = .monday

  /// Creates a rule with only a frequency.
  public init(frequency: Frequency) {
    self.frequency = frequency
  }

  /// Whether any BY part other than BYDAY is present.
  public var hasByPartsBesidesDay: Bool {
    !(bySecond.isEmpty && byMinute.isEmpty && byHour.isEmpty && byMonthDay.isEmpty
      && byYearDay.isEmpty && byWeekNo.isEmpty && byMonth.isEmpty && bySetPos.isEmpty)
  }

  /// Whether the rule repeats one weekly pattern without end: DAILY or WEEKLY, every day or
  /// week, no COUNT or UNTIL, and no part but plain weekdays (no ordinals such as `1MO`).
  public var repeatsWeeklyForever: Bool {
    (frequency == .daily || frequency == .weekly) && interval == 1 && count == nil
      && until == nil && !hasByPartsBesidesDay && byDay.allSatisfy { $0.ordinal == nil }
  }

  /// Parses an RRULE value such as `FREQ=WEEKLY;BYDAY=MO,WE`.
  public init(parsing text: String) throws(RecurrenceRuleError) {
    var frequency: Frequency?
    var rule = RecurrenceRule(frequency: .daily)
    var seen = Set<String>()
    for part in text.split(separator: ";", omittingEmptySubsequences: true) {
      let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard pieces.count == 2 else { throw .init("\"\(part)\" is not NAME=VALUE") }
      let name = pieces[0].uppercased()
      let value = String(pieces[1])
      guard seen.insert(name).inserted else { throw .init("\(name) appears twice") }
      switch name {
      case "FREQ":
        guard let parsed = Frequency(rawValue: value.uppercased()) else {
          throw .init("FREQ \"\(value)\" is not a frequency")
        }
        frequency = parsed
      case "INTERVAL":
        guard let number = Int(value), number >= 1 else {
          throw .init("INTERVAL must be a positive integer, not \"\(value)\"")
        }
        rule.interval = number
      case "COUNT":
        guard let number = Int(value), number >= 1 else {
          throw .init("COUNT must be a positive integer, not \"\(value)\"")
        }
        rule.count = number
      case "UNTIL":
        guard let until = DateTimeValue(text: value) else {
          throw .init("UNTIL \"\(value)\" is not a DATE or DATE-TIME")
        }
        rule.until = until
      case "BYSECOND": rule.bySecond = try Self.numbers(name, value, 0...60, signed: false)
      case "BYMINUTE": rule.byMinute = try Self.numbers(name, value, 0...59, signed: false)
      case "BYHOUR": rule.byHour = try Self.numbers(name, value, 0...23, signed: false)
      case "BYMONTHDAY": rule.byMonthDay = try Self.numbers(name, value, 1...31, signed: true)
      case "BYYEARDAY": rule.byYearDay = try Self.numbers(name, value, 1...366, signed: true)
      case "BYWEEKNO": rule.byWeekNo = try Self.numbers(name, value, 1...53, signed: true)
      case "BYMONTH": rule.byMonth = try Self.numbers(name, value, 1...12, signed: false)
      case "BYSETPOS": rule.bySetPos = try Self.numbers(name, value, 1...366, signed: true)
      case "BYDAY": rule.byDay = try Self.weekdays(value)
      case "WKST":
        guard let day = Self.weekday(value) else {
          throw .init("WKST \"\(value)\" is not a weekday")
        }
        rule.weekStart = day
      default:
        if !name.hasPrefix("X-") { throw .init("\(name) is not an RRULE part") }
      }
    }
    guard let frequency else { throw .init("FREQ is missing") }
    if rule.count != nil && rule.until != nil {
      throw .init("COUNT and UNTIL cannot both be given")
    }
    rule.frequency = frequency
    self = rule
  }

  /// The canonical RRULE text (FREQ first, parts in RFC 5545 order).
  public var text: String {
    var parts = ["FREQ=\(frequency.rawValue)"]
    if let until { parts.append("UNTIL=\(until.icalString)") }
    if let count { parts.append("COUNT=\(count)") }
    if interval != 1 { parts.append("INTERVAL=\(interval)") }
    func add(_ name: String, _ values: [Int]) {
      if !values.isEmpty {
        parts.append("\(name)=" + values.map(String.init).joined(separator: ","))
      }
    }
    add("BYSECOND", bySecond)
    add("BYMINUTE", byMinute)
    add("BYHOUR", byHour)
    if !byDay.isEmpty { parts.append("BYDAY=" + byDay.map(\.text).joined(separator: ",")) }
    add("BYMONTHDAY", byMonthDay)
    add("BYYEARDAY", byYearDay)
    add("BYWEEKNO", byWeekNo)
    add("BYMONTH", byMonth)
    add("BYSETPOS", bySetPos)
    if weekStart != .monday { parts.append("WKST=\(weekStart.icalCode)") }
    return parts.joined(separator: ";")
  }

  private static func numbers(
    _ name: String, _ value: String, _ range: ClosedRange<Int>, signed: Bool
  )
    throws(RecurrenceRuleError) -> [Int]
  {
    var result: [Int] = []
    for item in value.split(separator: ",", omittingEmptySubsequences: false) {
      guard let number = Int(item.hasPrefix("+") ? item.dropFirst() : item),
        range.contains(signed ? abs(number) : number)
      else {
        let allowed =
          signed
          ? "±\(range.lowerBound)...±\(range.upperBound)"
          : "\(range.lowerBound)...\(range.upperBound)"
        throw .init("\(name) value \"\(item)\" is outside \(allowed)")
      }
      result.append(number)
    }
    return result
  }

  /// The weekday of a two-letter code in any case (``Weekday/init(icalCode:)``, without its
  /// case folding of each candidate when the code is ASCII).
  private static func weekday(_ code: String) -> Weekday? {
    var bytes = code.utf8.makeIterator()
    guard let first = bytes.next(), let second = bytes.next(), bytes.next() == nil,
      first < 0x80, second < 0x80
    else { return Weekday(icalCode: code) }
    let upper = { (byte: UInt8) in byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte }
    switch (upper(first), upper(second)) {
    case (UInt8(ascii: "M"), UInt8(ascii: "O")): return .monday
    case (UInt8(ascii: "T"), UInt8(ascii: "U")): return .tuesday
    case (UInt8(ascii: "W"), UInt8(ascii: "E")): return .wednesday
    case (UInt8(ascii: "T"), UInt8(ascii: "H")): return .thursday
    case (UInt8(ascii: "F"), UInt8(ascii: "R")): return .friday
    case (UInt8(ascii: "S"), UInt8(ascii: "A")): return .saturday
    case (UInt8(ascii: "S"), UInt8(ascii: "U")): return .sunday
    default: return nil
    }
  }

  private static func weekdays(_ value: String) throws(RecurrenceRuleError) -> [WeekdayEntry] {
    var result: [WeekdayEntry] = []
    for item in value.split(separator: ",", omittingEmptySubsequences: false) {
      let code = String(item.suffix(2))
      let prefix = item.dropLast(2)
      guard item.count >= 2, let day = weekday(code) else {
        throw .init("BYDAY value \"\(item)\" is not a weekday")
      }
      if prefix.isEmpty {
        result.append(WeekdayEntry(day))
        continue
      }
      guard let ordinal = Int(prefix.hasPrefix("+") ? prefix.dropFirst() : prefix),
        (1...53).contains(abs(ordinal))
      else { throw .init("BYDAY value \"\(item)\" has an ordinal outside ±1...±53") }
      result.append(WeekdayEntry(ordinal: ordinal, day))
    }
    return result
  }
}

/// Why an RRULE value could not be read.
public struct RecurrenceRuleError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong.
  public let message: String

  /// An error with this message.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}
