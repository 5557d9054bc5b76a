/// One problem in an alarm file, naming the file, the alarm and the field.
public struct AlarmFileProblem: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file name as the user gave it.
  public let file: String
  /// The alarm's 1-based position in the list, nil for a problem with the file as a whole.
  public let alarmIndex: Int?
  /// The alarm's label (or id) for the reader's benefit, if known.
  public let alarmName: String?
  /// What is wrong.
  public let message: String
  /// What the record is: `alarm` or `task`.
  public let noun: String

  /// Creates a problem.
  public init(
    file: String, alarmIndex: Int? = nil, alarmName: String? = nil, message: String,
    noun: String = "alarm"
  ) {
    self.file = file
    self.alarmIndex = alarmIndex
    self.alarmName = alarmName
    self.message = message
    self.noun = noun
  }

  /// `alarms.json: alarm 3 ("Gym"): time "25:00" is not a valid HH:mm time`.
  public var description: String {
    guard let alarmIndex else { return "\(file): \(message)" }
    let name = alarmName.map { " (\(quoted($0)))" } ?? ""
    return "\(file): \(noun) \(alarmIndex)\(name): \(message)"
  }
}

/// `"text"` with quotes, backslashes and control characters escaped, cut at 60 characters.
func quoted(_ text: String) -> String {
  var body = ""
  for scalar in text.unicodeScalars.prefix(60) {
    switch scalar {
    case "\"": body += "\\\""
    case "\\": body += "\\\\"
    case "\n": body += "\\n"
    case "\r": body += "\\r"
    case "\t": body += "\\t"
    case _ where scalar.value < 0x20: body += "\\u{\(String(scalar.value, radix: 16))}"
    default: body.unicodeScalars.append(scalar)
    }
  }
  if text.unicodeScalars.count > 60 { body += "…" }
  return "\"\(body)\""
}
