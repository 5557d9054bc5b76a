import ICalendar

/// A VALARM that can ring (read by ``AlarmComponent``), its times resolved for the scheduler.
struct RingingAlarm {
  enum Trigger {
    /// A duration from the instance's start or end (RFC 5545 §3.8.6.3).
    case relative(ICalDuration, fromEnd: Bool)
    /// One absolute time: rings once, not per instance.
    case absolute(Instant)
  }

  let action: String
  let trigger: Trigger
  let repeatCount: Int
  let repeatInterval: ICalDuration
  /// The latest acknowledgement covering this alarm (RFC 9074 ACKNOWLEDGED, X-MOZ-LASTACK).
  let acknowledged: Instant?
  /// Which VALARM (or Thunderbird snooze) of its component this is.
  let identity: AlarmIdentity
}

/// Which alarm of its component a firing comes from, for ids, output and edits.
struct AlarmIdentity: Equatable {
  /// What firing ids hash for the alarm: `#<n>` for the n-th VALARM that is not a snooze
  /// (counted from 0), a snooze's RFC 9074 UID (else `#snooze<n>`), or the name of a
  /// Thunderbird `X-MOZ-SNOOZE-TIME` property. A position, not the UID, names an alarm that is
  /// no snooze, so that the UID a snooze adds to it (RFC 9074 §7) leaves its ids as they were.
  let key: String
  /// The VALARM's RFC 9074 UID, if it has one.
  let uid: String?
  /// For an RFC 9074 snooze alarm, the UID of the alarm it snoozes (`RELATED-TO;RELTYPE=SNOOZE`).
  let snoozeOf: String?
  /// Where the VALARM's BEGIN line (or the snooze property's line) starts in the bytes read;
  /// -1 when unknown (an Int, not an optional one: one is kept per alarm of every series).
  private let storedOffset: Int
  /// The alarm's sound and snooze, as a clock app offers them (a snooze's: those of the alarm
  /// it snoozes).
  let settings: AlarmSettings

  init(
    key: String, uid: String?, snoozeOf: String?, sourceOffset: Int?,
    settings: AlarmSettings = .standard
  ) {
    self.key = key
    self.uid = uid
    self.snoozeOf = snoozeOf
    storedOffset = sourceOffset ?? -1
    self.settings = settings
  }

  /// Where the VALARM's BEGIN line (or the snooze property's line) starts in the bytes read.
  var sourceOffset: Int? { storedOffset < 0 ? nil : storedOffset }

  /// Whether the alarm is a snooze: RFC 9074's, or Thunderbird's `X-MOZ-SNOOZE-TIME`.
  var isSnooze: Bool { snoozeOf != nil || key.hasPrefix(AlarmComponent.mozillaSnoozeTime) }
}

/// What a clock app offers when an alarm rings: its sound, and whether and for how long it
/// snoozes. `convert` reads a VALARM into an alarm record with it (`CalendarMapper`), so a
/// firing carries the values of its alarm's record: alarmcal's `X-ALARMCAL-SOUND`,
/// `X-ALARMCAL-SNOOZE` and `X-ALARMCAL-SNOOZE-INTERVAL`, else an AUDIO (or NONE) alarm's ATTACH
/// (a name or URI, not embedded bytes); an alarm with none of them has ``standard``.
public struct AlarmSettings: Equatable, Sendable {
  /// The sound's name; nil for the default sound.
  public let sound: String?
  /// Whether the alarm offers Snooze (`X-ALARMCAL-SNOOZE` is not `FALSE`).
  public let offersSnooze: Bool
  /// How long a snooze lasts, in minutes (``Alarm/snoozeMinutesRange``).
  public let snoozeMinutes: Int

  /// The default sound, Snooze offered, ``Alarm/defaultSnoozeMinutes``: a clock app's
  /// defaults, for an alarm that says nothing of them (another program's, a task's deadline).
  public static let standard = AlarmSettings(
    sound: nil, offersSnooze: true, snoozeMinutes: Alarm.defaultSnoozeMinutes)

  init(sound: String?, offersSnooze: Bool, snoozeMinutes: Int) {
    self.sound = sound
    self.offersSnooze = offersSnooze
    self.snoozeMinutes = snoozeMinutes
  }

  /// The settings of `valarm`.
  init(_ valarm: ICalComponent) {
    let action = AlarmComponent.action(of: valarm)
    var sound = valarm.property(uppercased: AlarmVocabulary.sound)?.text
    if sound == nil, action == "AUDIO" || action == AlarmVocabulary.disabledAction,
      let attach = valarm.property(uppercased: "ATTACH"),
      attach.parameter(uppercased: "VALUE")?.uppercased() != "BINARY",
      attach.parameter(uppercased: "ENCODING") == nil
    {
      sound = attach.value
    }
    var minutes = Alarm.defaultSnoozeMinutes
    if let text = valarm.propertyValue(uppercased: AlarmVocabulary.snoozeInterval),
      let duration = ICalDuration(text), duration.days == 0, duration.seconds % 60 == 0,
      Alarm.snoozeMinutesRange.contains(duration.seconds / 60)
    {
      minutes = duration.seconds / 60
    }
    self.init(
      sound: sound,
      offersSnooze: valarm.propertyValue(uppercased: AlarmVocabulary.snooze)?.asciiUppercased
        != "FALSE",
      snoozeMinutes: minutes)
  }
}

/// What one instance needs to ring: from the master, or from a RECURRENCE-ID override.
struct InstanceTemplate {
  let summary: String?
  let alarms: [RingingAlarm]
  let cancelled: Bool
  /// The span from start to end, for triggers related to the end.
  let length: InstanceLength

  /// The same instances without alarms and marked cancelled: a completed task's.
  var silenced: InstanceTemplate {
    InstanceTemplate(summary: summary, alarms: [], cancelled: true, length: length)
  }

  /// Whether each instance made from this template rings: not cancelled, with an alarm
  /// relative to its start or end (absolute ones ring once, not per instance).
  var canRingPerInstance: Bool {
    !cancelled
      && alarms.contains {
        if case .relative = $0.trigger { return true }
        return false
      }
  }
}

/// How long an instance lasts (RFC 5545 §3.6.1, §3.8.2.5): exact for DATE-TIME spans, nominal
/// days for DATE spans, or a DURATION applied to each start.
enum InstanceLength {
  case exact(seconds: Int64)
  case days(Int)
  case duration(ICalDuration)

  /// Whether the length counts nominal (wall-clock) days.
  var countsDays: Bool {
    switch self {
    case .exact: false
    case .days: true
    case .duration(let duration): duration.days != 0
    }
  }

  /// The end of an instance that starts at `start`.
  func end(of start: AlarmTriggers.Moment, in zone: any ZoneOffsets) -> AlarmTriggers.Moment {
    switch self {
    case .exact(let seconds):
      AlarmTriggers.Moment(start.instant.adding(seconds: seconds), in: zone)
    case .days(let days):
      AlarmTriggers.Moment(
        LocalDateTime(start.local.date.adding(days: days), start.local.time), in: zone)
    case .duration(let duration):
      AlarmTriggers.Moment(AlarmTriggers.instant(duration, after: start, in: zone), in: zone)
    }
  }

  /// The longest this can be, in seconds, for window bounds.
  var maximumSeconds: Int64 {
    switch self {
    case .exact(let seconds): seconds
    case .days(let days): Int64(days) * 86_400
    case .duration(let duration):
      Int64(duration.signedDays) * 86_400 + Int64(duration.signedSeconds)
    }
  }
}
