/// An RFC 5545 §3.3.6 DURATION: weeks and days are nominal, the time part is exact.
public struct ICalDuration: Hashable, Sendable, CustomStringConvertible {
  /// Whether the duration points back in time.
  public let isNegative: Bool
  /// Nominal days (weeks are stored as 7 days each).
  public let days: Int
  /// Exact seconds (the hour, minute and second part).
  public let seconds: Int

  /// Creates a duration from its nominal days and exact seconds.
  public init(negative: Bool = false, days: Int = 0, seconds: Int = 0) {
    isNegative = negative && (days != 0 || seconds != 0)
    self.days = days
    self.seconds = seconds
  }

  /// Zero.
  public static let zero = ICalDuration()

  /// The most days (all W and D parts together) a parsed duration may have. Each number is at
  /// most 10^9 already, but parts can repeat (`P999999999W999999999W...`), and
  /// `days * 86_400 + seconds` times 1,000 repeats must still fit in 64 bits.
  public static let maximumDays = 7_000_000_000
  /// The most seconds (all H, M and S parts together) a parsed duration may have.
  public static let maximumSeconds = 3_600_000_000_000

  /// Parses `[+-]P[nW][nD][T[nH][nM][nS]]`; nil when the text is not a duration.
  public init?(_ text: String) {
    // Read in place, ASCII letters upper-cased byte by byte (a duration is ASCII): copying and
    // upper-casing the text took most of the time of reading a trigger.
    var chars = text.utf8.lazy.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }[...]
    var negative = false
    if let sign = chars.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      negative = sign == UInt8(ascii: "-")
      chars = chars.dropFirst()
    }
    guard chars.first == UInt8(ascii: "P") else { return nil }
    chars = chars.dropFirst()
    var days = 0
    var seconds = 0
    var inTime = false
    var sawPart = false
    var sawTimePart = false
    var number: Int?
    for byte in chars {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        let digit = Int(byte - UInt8(ascii: "0"))
        let (times, o1) = (number ?? 0).multipliedReportingOverflow(by: 10)
        let (sum, o2) = times.addingReportingOverflow(digit)
        guard !o1, !o2, sum <= 1_000_000_000 else { return nil }
        number = sum
      case UInt8(ascii: "T"):
        guard !inTime, number == nil else { return nil }
        inTime = true
      default:
        guard let value = number else { return nil }
        switch (byte, inTime) {
        case (UInt8(ascii: "W"), false): days += value * 7
        case (UInt8(ascii: "D"), false): days += value
        case (UInt8(ascii: "H"), true): seconds += value * 3600
        case (UInt8(ascii: "M"), true): seconds += value * 60
        case (UInt8(ascii: "S"), true): seconds += value
        default: return nil
        }
        guard days <= Self.maximumDays, seconds <= Self.maximumSeconds else { return nil }
        sawPart = true
        sawTimePart = sawTimePart || inTime
        number = nil
      }
    }
    guard number == nil, sawPart, !inTime || sawTimePart else { return nil }
    self.init(negative: negative, days: days, seconds: seconds)
  }

  /// The signed nominal day count.
  public var signedDays: Int { isNegative ? -days : days }

  /// The signed exact second count.
  public var signedSeconds: Int { isNegative ? -seconds : seconds }

  /// The canonical text, e.g. `-PT15M`, `P1D`, `P1W`, `PT0S`.
  public var description: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(16)
    appendText(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``description``'s bytes.
  func appendText(to bytes: inout [UInt8]) {
    if isNegative { bytes.append(UInt8(ascii: "-")) }
    bytes.append(UInt8(ascii: "P"))
    if days == 0 && seconds == 0 {
      bytes.append(UInt8(ascii: "T"))
      bytes.append(UInt8(ascii: "0"))
      bytes.append(UInt8(ascii: "S"))
      return
    }
    if seconds == 0 && days % 7 == 0 {
      Self.appendPart(days / 7, UInt8(ascii: "W"), to: &bytes)
      return
    }
    if days > 0 { Self.appendPart(days, UInt8(ascii: "D"), to: &bytes) }
    if seconds > 0 {
      bytes.append(UInt8(ascii: "T"))
      if seconds / 3600 > 0 { Self.appendPart(seconds / 3600, UInt8(ascii: "H"), to: &bytes) }
      if seconds / 60 % 60 > 0 { Self.appendPart(seconds / 60 % 60, UInt8(ascii: "M"), to: &bytes) }
      if seconds % 60 > 0 { Self.appendPart(seconds % 60, UInt8(ascii: "S"), to: &bytes) }
    }
  }

  /// Appends `number` in decimal and the letter that names its unit.
  private static func appendPart(_ number: Int, _ unit: UInt8, to bytes: inout [UInt8]) {
    if number >= 0 && number < 100 {
      if number >= 10 { bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: number / 10)) }
      bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: number % 10))
    } else {
      bytes.append(contentsOf: String(number).utf8)
    }
    bytes.append(unit)
  }
}
