/// One problem found in a file, at its exact place, the way a compiler reports it.
public struct Diagnostic: Equatable, Sendable, CustomStringConvertible {
  /// How bad a problem is.
  public enum Severity: String, Equatable, Sendable {
    /// The file breaks a MUST of the standard; readers may reject or misread it.
    case error
    /// The file breaks a SHOULD, or does something readers commonly forgive.
    case warning
    /// Extra information attached to another diagnostic.
    case note
  }

  /// The file as named on the command line (`<stdin>` for standard input).
  public var file: String
  /// The 1-based physical line in the original file.
  public var line: Int
  /// The 1-based byte column on that line.
  public var column: Int
  /// How bad it is.
  public var severity: Severity
  /// A stable rule id such as `content.bare-lf`.
  public var rule: String
  /// A sentence a person can act on.
  public var message: String
  /// The section of the standard the rule comes from, such as `RFC 5545 §3.1`.
  public var rfc: String

  /// Creates a diagnostic.
  public init(
    file: String, line: Int, column: Int, severity: Severity, rule: String, message: String,
    rfc: String
  ) {
    self.file = file
    self.line = line
    self.column = column
    self.severity = severity
    self.rule = rule
    self.message = message
    self.rfc = rfc
  }

  /// `path:LINE:COL: error: message [rule-id]`.
  public var description: String {
    "\(file):\(line):\(column): \(severity.rawValue): \(message) [\(rule)]"
  }
}
