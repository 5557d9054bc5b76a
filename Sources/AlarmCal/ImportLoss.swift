/// Something in a calendar file that import could not turn into an alarm, reported per item.
public struct ImportLoss: Equatable, Sendable, CustomStringConvertible {
  /// What became of the item the loss is about.
  public enum Outcome: Equatable, Sendable {
    /// The whole event or task gives no alarm.
    case skipped
    /// One VALARM gives no alarm; the component's other alarms are imported.
    case alarmSkipped
    /// The alarm is imported without what the reason names; the text says how it then rings
    /// ("it rings from now on").
    case alarmKept(String)
    /// The task is imported without what the reason names; the text says how.
    case taskKept(String)
  }

  /// The file name as the user gave it.
  public let file: String
  /// The physical line of the component's BEGIN, if known.
  public let line: Int?
  /// `event` for a VEVENT, `task` for a VTODO.
  public let kind: String
  /// The component's UID.
  public let uid: String
  /// The component's SUMMARY, if any.
  public let summary: String?
  /// Why something could not be kept.
  public let reason: String
  /// What was imported nonetheless.
  public let outcome: Outcome

  /// Creates a loss.
  public init(
    file: String, line: Int?, kind: String, uid: String, summary: String?, reason: String,
    outcome: Outcome
  ) {
    self.file = file
    self.line = line
    self.kind = kind
    self.uid = uid
    self.summary = summary
    self.reason = reason
    self.outcome = outcome
  }

  /// `file.ics:LINE: event "UID" (Summary): why; the event is skipped` (or `this alarm is
  /// skipped`, or `the alarm is kept: …`).
  public var description: String {
    let consequence =
      switch outcome {
      case .skipped: "the \(kind) is skipped"
      case .alarmSkipped: "this alarm is skipped"
      case .alarmKept(let how): "the alarm is kept: \(how)"
      case .taskKept(let how): "the task is kept: \(how)"
      }
    return
      "\(ImportItem.place(file, line)): \(ImportItem.title(kind, uid, summary)): \(reason); \(consequence)"
  }
}

/// Something import kept whole but the user should know (an alarm that will never ring again,
/// an id alarmcal had to make up, an older revision it passed over): reported like a loss, but
/// `--strict` does not count it.
public struct ImportWarning: Equatable, Sendable, CustomStringConvertible {
  /// The file name as the user gave it.
  public let file: String
  /// The physical line of the component's BEGIN, if known.
  public let line: Int?
  /// `event` for a VEVENT, `task` for a VTODO.
  public let kind: String
  /// The component's UID.
  public let uid: String
  /// The component's SUMMARY, if any.
  public let summary: String?
  /// What the user should know.
  public let message: String

  /// Creates a warning.
  public init(
    file: String, line: Int?, kind: String, uid: String, summary: String?, message: String
  ) {
    self.file = file
    self.line = line
    self.kind = kind
    self.uid = uid
    self.summary = summary
    self.message = message
  }

  /// `file.ics:LINE: event "UID" (Summary): message`, with no severity: the one who prints it
  /// says how it weighs.
  public var description: String {
    "\(ImportItem.place(file, line)): \(ImportItem.title(kind, uid, summary)): \(message)"
  }
}

/// How import messages name their item.
enum ImportItem {
  /// `file.ics:LINE`, or the file alone.
  static func place(_ file: String, _ line: Int?) -> String {
    line.map { "\(file):\($0)" } ?? file
  }

  /// `event "UID" (Summary)`.
  static func title(_ kind: String, _ uid: String, _ summary: String?) -> String {
    "\(kind) \(quoted(uid))" + (summary.map { " (\(printable($0)))" } ?? "")
  }
}

/// Text from a file made safe for one terminal line: line breaks and tabs become spaces, other
/// control characters (escape sequences included) become `\u{…}`.
public func printable(_ text: String) -> String {
  var out = ""
  for scalar in text.unicodeScalars {
    switch scalar.value {
    case 0x0A, 0x0D, 0x09: out += " "
    case 0..<0x20, 0x7F, 0x80..<0xA0: out += "\\u{\(String(scalar.value, radix: 16))}"
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out
}
