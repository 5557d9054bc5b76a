import ICalendar

/// Trigger arithmetic, RFC 5545 §3.3.6: the day and week part of a duration is nominal
/// (calendar days on the wall clock), the hour, minute and second part exact elapsed time.
public enum AlarmTriggers {
  /// A moment as both a wall-clock reading and an instant. Both are kept because a reading that
  /// happens twice (a DST overlap) does not say which instant it is.
  public struct Moment: Sendable {
    /// The wall-clock reading.
    public let local: LocalDateTime
    /// The instant.
    public let instant: Instant

    /// The moment of a reading, resolved per RFC 5545 §3.3.5.
    public init(_ local: LocalDateTime, in zone: some ZoneOffsets) {
      self.local = local
      instant = zone.instant(for: local)
    }

    /// A moment whose reading and instant are already known to agree.
    init(local: LocalDateTime, instant: Instant) {
      self.local = local
      self.instant = instant
    }

    /// The moment of an instant.
    public init(_ instant: Instant, in zone: some ZoneOffsets) {
      self.instant = instant
      local = zone.local(at: instant)
    }
  }

  /// The instant `duration` after `moment`: days on the wall clock, then exact seconds.
  public static func instant(
    _ duration: ICalDuration, after moment: Moment, in zone: some ZoneOffsets
  ) -> Instant {
    let seconds = Int64(duration.signedSeconds)
    guard duration.days != 0 else { return moment.instant.adding(seconds: seconds) }
    let shifted = LocalDateTime(
      moment.local.date.adding(days: duration.signedDays), moment.local.time)
    return zone.instant(for: shifted).adding(seconds: seconds)
  }

  /// The wall-clock reading `duration` after `local` in `zone`. Without an exact part the
  /// result stays on the wall clock as written (02:30 on a gap day stays 02:30, as an alarm's
  /// time of day should); with one, it is the reading at the resulting instant.
  public static func apply(
    _ duration: ICalDuration, to local: LocalDateTime, in zone: some ZoneOffsets
  ) -> LocalDateTime {
    guard duration.seconds != 0 else {
      return LocalDateTime(local.date.adding(days: duration.signedDays), local.time)
    }
    return zone.local(at: instant(duration, after: Moment(local, in: zone), in: zone))
  }
}
