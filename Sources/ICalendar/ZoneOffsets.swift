/// A time zone as a function from instants to UTC offsets; wall-clock conversions follow from it.
public protocol ZoneOffsets: Sendable {
  /// The UTC offset in seconds in force at an instant.
  func offset(at instant: Instant) -> Int

  /// The instant of a wall-clock reading, RFC 5545 §3.3.5. A zone with a faster way may
  /// implement it; it must give ``instantFromOffsets(for:)``'s result.
  func instant(for local: LocalDateTime) -> Instant
}

extension ZoneOffsets {
  /// The wall-clock reading at an instant.
  public func local(at instant: Instant) -> LocalDateTime {
    instant.utc.adding(seconds: Int64(offset(at: instant)))
  }

  /// The instant of a wall-clock reading, RFC 5545 §3.3.5: a reading that occurs twice is the
  /// first occurrence; a reading skipped by a gap uses the offset from before the gap (so
  /// 02:30 on a spring-forward night is 03:30 in the new offset).
  public func instant(for local: LocalDateTime) -> Instant { instantFromOffsets(for: local) }

  /// ``instant(for:)`` worked out from ``offset(at:)`` alone: the rule's one home.
  public func instantFromOffsets(for local: LocalDateTime) -> Instant {
    let asUTC = local.secondsSince1970
    // Offsets a day either side: a zone changes its offset at most once in that span.
    let before = offset(at: Instant(secondsSince1970: asUTC - 86_400))
    let after = offset(at: Instant(secondsSince1970: asUTC + 86_400))
    // No change within the span: the reading occurs once (what the checks below would find).
    if before == after { return Instant(secondsSince1970: asUTC - Int64(before)) }
    let withBefore = Instant(secondsSince1970: asUTC - Int64(before))
    let withAfter = Instant(secondsSince1970: asUTC - Int64(after))
    let beforeFits = offset(at: withBefore) == before
    let afterFits = offset(at: withAfter) == after
    switch (beforeFits, afterFits) {
    case (true, true): return min(withBefore, withAfter)
    case (true, false): return withBefore
    case (false, true): return withAfter
    case (false, false): return withBefore  // in the gap: the offset from before it
    }
  }
}
