/// alarmcal's PRODID (RFC 5545 §3.7.3): the one home of the text every calendar it makes
/// carries, whether exported, split into resources for a server, or joined by a pull.
public enum ProductIdentifier {
  /// The PRODID alarmcal writes.
  public static let alarmcal = "-//alarmcal//alarmcal 0.1//EN"

  /// Whether `prodid` is one alarmcal wrote: this version's, or an earlier one
  /// (`-//alarmcal//EN` in pulled files before the two were one).
  public static func isAlarmcal(_ prodid: String) -> Bool {
    prodid.hasPrefix("-//alarmcal//")
  }
}
