/// A VTIMEZONE cut to a span (khal writes one year's two onsets) whose TZID names an IANA zone
/// that agrees with it there: the file's offsets up to its last onset, the IANA zone's after
/// (RFC 5545 §3.6.5: the VTIMEZONE governs the times it defines).
public struct ContinuedZone: ZoneOffsets {
  /// The file's definition.
  public let definition: VTimezoneRules
  /// The IANA zone that continues it.
  public let continuation: TimeZoneRules
  /// The definition's last onset: from it on, the IANA zone's offsets.
  public let until: Instant

  /// The definition continued by the IANA zone its TZID (or `X-LIC-LOCATION`) names, when the
  /// definition ends (no observance recurs without end) and agrees with that zone where it
  /// defines offsets; nil otherwise.
  public init?(_ definition: VTimezoneRules, named names: [String]) {
    guard let until = definition.definedUntil,
      let iana = names.lazy.compactMap(TimeZoneNames.ianaIdentifier(forTZID:)).first,
      let continuation = TimeZoneRules(identifier: iana),
      VTimezoneMatcher.cutDefinition(definition, agreesWith: continuation)
    else { return nil }
    self.definition = definition
    self.continuation = continuation
    self.until = until
  }

  /// The file's offset before its last onset, the IANA zone's from it on.
  public func offset(at instant: Instant) -> Int {
    instant < until ? definition.offset(at: instant) : continuation.offset(at: instant)
  }
}
