/// Something in a calendar file that import could not turn into an alarm, reported per item.
public struct ImportLoss: Equatable, Sendable, CustomStringConvertible {
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
  /// Why it could not be kept.
  public let reason: String

  /// Creates a loss.
  public init(file: String, line: Int?, kind: String, uid: String, summary: String?, reason: String)
  {
    self.file = file
    self.line = line
    self.kind = kind
    self.uid = uid
    self.summary = summary
    self.reason = reason
  }

  /// `file.ics:LINE: event "UID" (Summary): why; skipped`.
  public var description: String {
    let place = line.map { "\(file):\($0)" } ?? file
    let title = summary.map { " (\(printable($0)))" } ?? ""
    return "\(place): \(kind) \(quoted(uid))\(title): \(reason); skipped"
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
