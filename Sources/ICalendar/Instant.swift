/// A point in time as whole seconds since 1970-01-01T00:00:00Z.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Seconds since the Unix epoch (UTC).
  public let secondsSince1970: Int64

  /// Creates an instant.
  public init(secondsSince1970: Int64) {
    self.secondsSince1970 = secondsSince1970
  }

  /// The instant whose UTC wall-clock reading is `utc`.
  public init(utc: LocalDateTime) {
    secondsSince1970 = utc.secondsSince1970
  }

  /// The UTC wall-clock reading.
  public var utc: LocalDateTime { LocalDateTime(secondsSince1970: secondsSince1970) }

  /// The instant `seconds` later.
  public func adding(seconds: Int64) -> Instant {
    Instant(secondsSince1970: secondsSince1970 + seconds)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ`.
  public var description: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(20)
    appendDescription(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``description``'s 20 ASCII bytes.
  public func appendDescription(to bytes: inout [UInt8]) {
    utc.appendDescription(to: &bytes)
    bytes.append(UInt8(ascii: "Z"))
  }

  /// Orders by time.
  public static func < (lhs: Instant, rhs: Instant) -> Bool {
    lhs.secondsSince1970 < rhs.secondsSince1970
  }
}
