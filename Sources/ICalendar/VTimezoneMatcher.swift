import Foundation

/// Finds the IANA zone that a custom VTIMEZONE (Outlook's "Customized Time Zone", a Windows
/// name alarmcal does not know, an invented TZID) describes, by comparing offsets.
public enum VTimezoneMatcher {
  /// The first of `preferred`, then of CLDR's primary Windows zones, then of all zones the
  /// system knows, whose offsets equal the VTIMEZONE's at every change from `from` to `to`.
  public static func ianaIdentifier(
    for rules: VTimezoneRules, preferring preferred: [String], from: Instant, to: Instant
  ) -> String? {
    let changes = offsetChanges(of: rules, from: from, to: to)
    var seen = Set<String>()
    let candidates =
      preferred + WindowsZoneNames.ianaIdentifierByWindowsName.values.sorted()
      + knownIdentifiers()
    // Cheap probes first: the offsets just before and at each change, and at both ends.
    var probes = [from, to.adding(seconds: -1)]
    for change in changes { probes += [change.instant.adding(seconds: -1), change.instant] }
    for identifier in candidates where seen.insert(identifier).inserted {
      guard let zone = TimeZoneRules(identifier: identifier),
        probes.allSatisfy({ zone.offset(at: $0) == rules.offset(at: $0) }),
        offsetChanges(of: zone, from: from, to: to) == changes
      else { continue }
      return identifier
    }
    return nil
  }

  /// Every instant in `from..<to` where the offset changes, with the new offset, found by
  /// checking each day and narrowing the change down to the second.
  static func offsetChanges(of zone: some ZoneOffsets, from: Instant, to: Instant) -> [Change] {
    var result: [Change] = []
    var previous = zone.offset(at: from)
    var cursor = from
    while cursor < to {
      let next = min(cursor.adding(seconds: 86_400), to)
      let offset = zone.offset(at: next)
      if offset != previous {
        var low = cursor.secondsSince1970
        var high = next.secondsSince1970
        while high - low > 1 {
          let middle = low + (high - low) / 2
          if zone.offset(at: Instant(secondsSince1970: middle)) == previous {
            low = middle
          } else {
            high = middle
          }
        }
        result.append(Change(instant: Instant(secondsSince1970: high), offset: offset))
        previous = offset
      }
      cursor = next
    }
    return result
  }

  /// An offset change.
  struct Change: Equatable {
    let instant: Instant
    let offset: Int
  }

  private static func knownIdentifiers() -> [String] {
    Foundation.TimeZone.knownTimeZoneIdentifiers.sorted()
  }
}
