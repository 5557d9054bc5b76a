import ICalendar

/// The iCalendar names alarmcal writes and reads: one home for the mapping's vocabulary.
///
/// Standard properties carry what RFC 5545 gives a meaning (UID, DTSTART, RRULE, SUMMARY, ACTION,
/// TRIGGER, ATTACH); `X-ALARMCAL-` properties carry only what no standard covers.
enum AlarmVocabulary {
  /// VALARM: the snooze switch, `TRUE` or `FALSE`.
  static let snooze = "X-ALARMCAL-SNOOZE"
  /// VALARM: the snooze interval, a DURATION such as `PT9M`.
  static let snoozeInterval = "X-ALARMCAL-SNOOZE-INTERVAL"
  /// VEVENT: `ONCE` marks an alarm that rings once at the next occurrence of its time, so the
  /// date of DTSTART came from the export time and is not part of the alarm.
  static let rings = "X-ALARMCAL-RINGS"
  /// VEVENT, once per field: a member of the app's record that alarmcal does not know, as a
  /// one-member JSON object (TEXT), so that it comes back on import as it came.
  static let extraField = "X-ALARMCAL-FIELD"
  /// The value of ``rings`` for a time-of-day alarm without repeat days.
  static let ringsOnce = "ONCE"
  /// VALARM `ACTION` of an enabled alarm: DISPLAY, with its label as DESCRIPTION (RFC 5545
  /// §3.6.6). Every client shows it (khal shows only DISPLAY alarms; AUDIO was never marked);
  /// DISPLAY has no ATTACH, so the sound goes in ``sound``.
  static let enabledAction = "DISPLAY"
  /// VALARM: the sound's name (a clock app's sound, not a URI), read back on import; an AUDIO
  /// alarm's ATTACH is read where this is missing.
  static let sound = "X-ALARMCAL-SOUND"
  /// VEVENT: how long an alarm's event lasts. RFC 5545 §3.6.1 lets an event end when it
  /// starts, but Cyrus IMAP 3.6 refuses one that does not end after its start; one minute is
  /// the shortest every server takes, and TRANSP:TRANSPARENT keeps it out of free/busy time.
  static let eventLength = "PT1M"
  /// VALARM `ACTION` of a disabled alarm. RFC 5545 §3.8.6.1 has clients ignore alarms whose
  /// action they do not recognize; Apple's clients write and honour `NONE` as "no alert".
  static let disabledAction = "NONE"
}
