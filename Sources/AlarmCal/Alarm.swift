import ICalendar

/// One alarm as a clock app stores it.
public struct Alarm: Equatable, Sendable {
  /// When an alarm rings.
  public enum Schedule: Equatable, Sendable {
    /// A time of day on the given weekdays; no weekdays means it rings once, at the next
    /// occurrence of that time.
    case time(LocalTime, repeat: Set<Weekday>)
    /// A one-shot reminder at a local date and time.
    case at(LocalDateTime)
  }

  /// The stable identifier (a UUID when an app created the alarm).
  public var id: String
  /// When it rings.
  public var schedule: Schedule
  /// The label shown when it rings.
  public var label: String
  /// The sound's name, or nil for the default sound.
  public var sound: String?
  /// Whether the snooze button is offered.
  public var snooze: Bool
  /// Minutes between snoozes.
  public var snoozeMinutes: Int
  /// Whether the alarm is switched on.
  public var enabled: Bool
  /// The IANA time zone whose wall clock the schedule follows.
  public var timeZone: String
  /// The RFC 9074 UID of its VALARM when that is not the one derived from ``id`` (an imported
  /// alarm keeps its own); nil otherwise.
  public var alarmUID: String?
  /// When it was last dismissed or snoozed (RFC 9074 ACKNOWLEDGED): rings up to then are done.
  public var acknowledgedAt: Instant?
  /// When a pending snooze rings again (an RFC 9074 snooze alarm).
  public var snoozedUntil: Instant?
  /// The RFC 9074 UID of the pending snooze's VALARM when a client gave it one other than the
  /// one derived from ``exportedAlarmUID`` and ``snoozedUntil``; nil otherwise.
  public var snoozeUID: String?
  /// The members of the app's record that alarmcal does not know (`"vibrate": true`), in
  /// order, carried through a calendar unchanged and given back as they came.
  public var extraFields: [JSONMember] = []

  /// The label a clock app shows when none was typed.
  public static let defaultLabel = "Alarm"
  /// The snooze interval clock apps use unless told otherwise.
  public static let defaultSnoozeMinutes = 9
  /// The allowed snooze intervals, in minutes.
  public static let snoozeMinutesRange = 1...60

  /// Creates an alarm; the optional fields take clock-app defaults.
  public init(
    id: String, schedule: Schedule, label: String = Alarm.defaultLabel, sound: String? = nil,
    snooze: Bool = true, snoozeMinutes: Int = Alarm.defaultSnoozeMinutes, enabled: Bool = true,
    timeZone: String, alarmUID: String? = nil, acknowledgedAt: Instant? = nil,
    snoozedUntil: Instant? = nil
  ) {
    self.id = id
    self.schedule = schedule
    self.label = label
    self.sound = sound
    self.snooze = snooze
    self.snoozeMinutes = snoozeMinutes
    self.enabled = enabled
    self.timeZone = timeZone
    self.alarmUID = alarmUID
    self.acknowledgedAt = acknowledgedAt
    self.snoozedUntil = snoozedUntil
  }

  /// The UID its VALARM is exported with.
  public var exportedAlarmUID: String { alarmUID ?? AlarmIdentifier.alarmUID(forAlarm: id) }

  /// The UID its pending snooze's VALARM is exported with: ``snoozeUID``, else the one derived
  /// from ``exportedAlarmUID`` and ``snoozedUntil``; nil without a pending snooze.
  public var exportedSnoozeUID: String? {
    snoozedUntil.map {
      snoozeUID ?? AlarmIdentifier.snoozeUID(ofAlarm: exportedAlarmUID, until: $0)
    }
  }
}
