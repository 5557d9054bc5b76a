import Foundation

/// Finds the IANA zone that a custom VTIMEZONE (Outlook's "Customized Time Zone", a Windows
/// name alarmcal does not know, an invented TZID) describes, by comparing offsets.
public enum VTimezoneMatcher {
  /// Whether a VTIMEZONE agrees with the IANA zone its TZID names where it defines offsets:
  /// from `from` to `to` when an observance recurs without end; otherwise from its first onset
  /// (not before 1970: older ones are mostly placeholders such as Outlook's 1601) to its last,
  /// past which the IANA zone continues it (RFC 5545 §3.6.5: the VTIMEZONE governs the times
  /// it defines; khal writes definitions cut to one year).
  public static func agrees(
    _ rules: VTimezoneRules, with iana: String, from: Instant, to: Instant
  ) -> Bool {
    guard let zone = TimeZoneRules(identifier: iana) else { return false }
    guard rules.definedUntil != nil else {
      return ianaIdentifier(for: rules, preferring: [iana], from: from, to: to) == iana
    }
    return cutDefinition(rules, agreesWith: zone)
  }

  /// Whether each onset of a cut definition (no observance recurs without end), from its first
  /// (not before 1970) to its last, changes to the offset the IANA zone has then, and the zone
  /// changes nowhere else; false for a definition that is not cut. An onset may be given as the
  /// local time after the change (pytz and so khal write `DTSTART:20261025T020000` where RFC
  /// 5545 §3.6.5 means the local time before it, 03:00): it then reads up to the size of the
  /// change early or late, so the zone's offset is compared at the onset and that much after it.
  static func cutDefinition(_ rules: VTimezoneRules, agreesWith zone: TimeZoneRules) -> Bool {
    guard let last = rules.definedUntil, let first = rules.transitions.first?.instant else {
      return false
    }
    let start = max(first, Instant(secondsSince1970: 0))
    var changes = 0
    var widest: Int64 = 0
    var before = rules.initialOffset
    for (instant, offset) in rules.transitions {
      defer { before = offset }
      guard instant >= start, instant <= last, offset != before else { continue }
      let size = Int64(abs(offset - before))
      widest = max(widest, size)
      guard
        zone.offset(at: instant) == offset
          || zone.offset(at: instant.adding(seconds: size)) == offset
      else { return false }
      changes += 1
    }
    if changes == 0 { return zone.offset(at: start) == rules.offset(at: start) }
    let zoneChanges = offsetChanges(
      of: zone, from: start.adding(seconds: -widest), to: last.adding(seconds: widest + 1))
    return zoneChanges.count == changes
  }

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
