import ICalendar

/// Trigger arithmetic and firing construction shared by every kind of firing.
enum FiringMath {
  /// The k-th REPEAT of a trigger, each `interval` after the previous one (RFC 5545 §3.8.6.2);
  /// the day part of the interval is nominal in `zone`, the time part exact.
  static func repeatTrigger(
    _ trigger: Instant, _ k: Int, _ interval: ICalDuration,
    zone: any ZoneOffsets = TimeZoneRules.utc
  ) -> Instant {
    guard k > 0 else { return trigger }
    let scaled = ICalDuration(days: interval.days * k, seconds: interval.seconds * k)
    return AlarmTriggers.instant(scaled, after: AlarmTriggers.Moment(trigger, in: zone), in: zone)
  }

  static func firing(
    origin: FiringOrigin, trigger: Instant,
    recurrenceID: RecurrenceID?, eventStart: Instant, summary: String?, alarm: RingingAlarm,
    repeatIndex: Int
  ) -> Firing {
    Firing(
      trigger: trigger, origin: origin, recurrenceID: recurrenceID, eventStart: eventStart,
      summary: summary, action: alarm.action, repeatIndex: repeatIndex, alarm: alarm.identity,
      acknowledged: AlarmComponent.covers(alarm.acknowledged, ringAt: trigger))
  }
}
