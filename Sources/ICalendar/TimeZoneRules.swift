import Foundation

/// The offsets of one IANA time zone, from the system's zone data through Foundation.
///
/// Wall-clock readings become instants in ``ZoneOffsets`` (RFC 5545 §3.3.5), not in libical,
/// which resolves gaps and overlaps differently from the RFC.
public struct TimeZoneRules: ZoneOffsets {
  /// The IANA identifier, such as `Europe/Berlin`.
  public let identifier: String
  private let zone: Foundation.TimeZone

  /// The rules for an IANA identifier, or nil when the system does not know it.
  public init?(identifier: String) {
    guard !identifier.isEmpty, let zone = Foundation.TimeZone(identifier: identifier) else {
      return nil
    }
    self.identifier = identifier
    self.zone = zone
  }

  /// UTC.
  public static let utc: TimeZoneRules = {
    guard let rules = TimeZoneRules(identifier: "UTC") else {
      preconditionFailure("Foundation knows no UTC zone")
    }
    return rules
  }()

  /// The UTC offset in seconds in force at an instant.
  public func offset(at instant: Instant) -> Int {
    zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant.secondsSince1970)))
  }
}
