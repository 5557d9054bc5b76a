import Foundation

/// The offsets of one IANA time zone, from the system's zone data through Foundation.
///
/// Foundation is asked once per zone for its offset changes from 1900 to 2200; lookups are then
/// a binary search (Foundation's own lookup costs microseconds, and a schedule makes several per
/// firing). Outside that span Foundation is asked directly. Wall-clock readings become instants
/// in ``ZoneOffsets`` (RFC 5545 §3.3.5), not in libical, which resolves gaps and overlaps
/// differently from the RFC.
public struct TimeZoneRules: ZoneOffsets {
  /// The IANA identifier, such as `Europe/Berlin`.
  public let identifier: String
  private let table: TransitionTable

  /// The rules for an IANA identifier, or nil when the system does not know it.
  public init?(identifier: String) {
    guard !identifier.isEmpty, let table = TransitionTable.shared(for: identifier) else {
      return nil
    }
    self.identifier = identifier
    self.table = table
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
    table.offset(at: instant.secondsSince1970)
  }
}

/// One zone's offset changes, computed once per process and shared (immutable once built).
final class TransitionTable: Sendable {
  private static let cache = Locked<[String: TransitionTable]>([:])
  /// 1900-01-01T00:00:00Z and 2200-01-01T00:00:00Z: the span the table covers.
  static let first: Int64 = -2_208_988_800
  static let last: Int64 = 7_258_118_400

  let zone: Foundation.TimeZone
  /// Instants where the offset changes, ascending, and the offset from each on.
  let instants: [Int64]
  let offsets: [Int]
  let initialOffset: Int

  /// The table for a zone, built on first use.
  static func shared(for identifier: String) -> TransitionTable? {
    if let known = cache.withLock({ $0[identifier] }) { return known }
    guard let zone = Foundation.TimeZone(identifier: identifier) else { return nil }
    let table = TransitionTable(zone: zone)
    return cache.withLock { cache in
      if let raced = cache[identifier] { return raced }
      cache[identifier] = table
      return table
    }
  }

  private init(zone: Foundation.TimeZone) {
    self.zone = zone
    var instants: [Int64] = []
    var offsets: [Int] = []
    let start = Date(timeIntervalSince1970: TimeInterval(Self.first))
    let initial = zone.secondsFromGMT(for: start)
    var previous = initial
    var cursor = start
    while instants.count < 2_000,
      let next = zone.nextDaylightSavingTimeTransition(after: cursor),
      next.timeIntervalSince1970 < TimeInterval(Self.last)
    {
      let offset = zone.secondsFromGMT(for: next)
      if offset != previous {
        instants.append(Int64(next.timeIntervalSince1970.rounded()))
        offsets.append(offset)
        previous = offset
      }
      cursor = next
    }
    self.instants = instants
    self.offsets = offsets
    initialOffset = initial
  }

  func offset(at seconds: Int64) -> Int {
    guard seconds >= Self.first, seconds < Self.last else {
      return zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
    var low = 0
    var high = instants.count
    while low < high {
      let middle = (low + high) / 2
      if instants[middle] <= seconds { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? initialOffset : offsets[low - 1]
  }
}
