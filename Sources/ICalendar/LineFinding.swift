/// A problem the lexer found in a content line, at its place in the original file.
public struct LineFinding: Equatable, Sendable, CustomStringConvertible {
  /// What is wrong.
  public enum Kind: Equatable, Sendable {
    /// Lines end with LF alone; reported once, at the first, with how many lines do.
    case bareLineFeed(count: Int)
    /// A physical line longer than 75 octets (line break excluded).
    case longLine(octets: Int)
    /// A line starting with a space or tab with no content line before it to continue.
    case orphanContinuation
    /// Bytes that are not UTF-8.
    case invalidUTF8
    /// A control character other than HTAB (its byte value).
    case controlCharacter(UInt8)
    /// No colon separates the name from the value.
    case missingColon
    /// The line starts with `:` or `;`.
    case emptyName
    /// A character that names may not contain (names are letters, digits and `-`).
    case invalidName(UInt8)
    /// A malformed parameter; the text says how.
    case badParameter(String)
  }

  /// What is wrong.
  public let kind: Kind
  /// Where.
  public let position: SourcePosition

  /// Creates a finding.
  public init(_ kind: Kind, at position: SourcePosition) {
    self.kind = kind
    self.position = position
  }

  /// Whether the file breaks RFC 5545 here (otherwise it only breaks a SHOULD or a MUST that
  /// readers commonly forgive: bare LF line ends, long lines).
  public var isError: Bool {
    switch kind {
    case .bareLineFeed, .longLine: false
    default: true
    }
  }

  /// A sentence about the problem.
  public var description: String {
    switch kind {
    case .bareLineFeed(let count):
      "line ends with LF instead of CRLF (\(count) line\(count == 1 ? "" : "s") in this file)"
    case .longLine(let octets): "line is \(octets) octets long; lines should be folded at 75"
    case .orphanContinuation:
      "continuation line (starting with a space or tab) has no content line to continue"
    case .invalidUTF8: "bytes that are not UTF-8; iCalendar text must be UTF-8"
    case .controlCharacter(let byte):
      "control character U+\(hex(byte)) is not allowed (only HTAB is)"
    case .missingColon: "content line has no ':' between its name and its value"
    case .emptyName: "content line has no property name"
    case .invalidName(let byte):
      "character '\(printable(byte))' is not allowed in a property name (letters, digits, '-')"
    case .badParameter(let why): why
    }
  }

  private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - digits.count) + digits
  }

  private func printable(_ byte: UInt8) -> String {
    byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + hex(byte).suffix(2)
  }
}
