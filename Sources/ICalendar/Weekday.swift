/// A day of the week, Monday first (ISO 8601), with its RFC 5545 two-letter code.
public enum Weekday: Int, CaseIterable, Comparable, Hashable, Sendable {
  /// Monday (`MO`).
  case monday = 1
  /// Tuesday (`TU`).
  case tuesday
  /// Wednesday (`WE`).
  case wednesday
  /// Thursday (`TH`).
  case thursday
  /// Friday (`FR`).
  case friday
  /// Saturday (`SA`).
  case saturday
  /// Sunday (`SU`).
  case sunday

  /// The RFC 5545 `weekday` code (`MO` … `SU`), §3.3.10.
  public var icalCode: String {
    switch self {
    case .monday: "MO"
    case .tuesday: "TU"
    case .wednesday: "WE"
    case .thursday: "TH"
    case .friday: "FR"
    case .saturday: "SA"
    case .sunday: "SU"
    }
  }

  /// The weekday for an RFC 5545 code, case-insensitive.
  public init?(icalCode: String) {
    guard let day = Weekday.allCases.first(where: { $0.icalCode == icalCode.uppercased() })
    else { return nil }
    self = day
  }

  /// The weekday `count` days later (negative goes back).
  public func advanced(by count: Int) -> Weekday {
    let index = ((rawValue - 1 + count) % 7 + 7) % 7
    return Weekday(rawValue: index + 1) ?? .monday
  }

  /// Orders Monday before Sunday.
  public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}
