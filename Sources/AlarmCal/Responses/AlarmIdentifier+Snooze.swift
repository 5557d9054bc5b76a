import ICalendar

extension AlarmIdentifier {
  /// The RFC 9074 UID of the snooze alarm that rings at `until` for the alarm whose UID is
  /// `alarmUID`, unless a client gave it another: `snooze` writes it and an export derives it
  /// the same way, so a snooze keeps its firing id through an alarm list and back.
  static func snoozeUID(ofAlarm alarmUID: String, until: Instant) -> String {
    derived(from: "snooze\u{0}\(alarmUID)\u{0}\(until)")
  }
}
