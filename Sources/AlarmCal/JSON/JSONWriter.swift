/// Writes a ``JSONValue`` as RFC 8259 text, deterministically.
///
/// Members keep their order, numbers are written as their literal text, and strings escape only
/// what must be escaped (plus U+2028 and U+2029); everything else, non-ASCII included, is written
/// as UTF-8. No trailing newline is added.
public struct JSONWriter: Sendable {
  /// The layout of the output.
  public enum Style: Sendable {
    /// One member or element per line, indented by two spaces, with `"key": value`.
    case pretty
    /// No whitespace at all.
    case compact
  }

  /// The layout this writer produces.
  public var style: Style

  /// Creates a writer with the given layout.
  public init(style: Style = .pretty) {
    self.style = style
  }

  /// The JSON text for `value`, without a trailing newline.
  public func string(from value: JSONValue) -> String {
    String(decoding: utf8(from: value), as: UTF8.self)
  }

  /// The JSON text for `value` as UTF-8, without a trailing newline.
  func utf8(from value: JSONValue) -> [UInt8] {
    var bytes: [UInt8] = []
    write(value, depth: 0, to: &bytes)
    return bytes
  }

  /// Appends `value` as the value of a member or element `depth` levels deep: its inner lines
  /// are indented for that depth.
  func write(_ value: JSONValue, depth: Int, to bytes: inout [UInt8]) {
    switch value {
    case .null: bytes += "null".utf8
    case .bool(let bool): bytes += (bool ? "true" : "false").utf8
    case .number(let text): bytes += text.utf8
    case .string(let string): Self.appendString(string, to: &bytes)
    case .array(let elements):
      guard !elements.isEmpty else { return bytes += "[]".utf8 }
      bytes.append(UInt8(ascii: "["))
      for (offset, element) in elements.enumerated() {
        if offset > 0 { bytes.append(UInt8(ascii: ",")) }
        newline(depth: depth + 1, to: &bytes)
        write(element, depth: depth + 1, to: &bytes)
      }
      newline(depth: depth, to: &bytes)
      bytes.append(UInt8(ascii: "]"))
    case .object(let members):
      guard !members.isEmpty else { return bytes += "{}".utf8 }
      bytes.append(UInt8(ascii: "{"))
      for (offset, member) in members.enumerated() {
        if offset > 0 { bytes.append(UInt8(ascii: ",")) }
        newline(depth: depth + 1, to: &bytes)
        Self.appendString(member.key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        if style == .pretty { bytes.append(UInt8(ascii: " ")) }
        write(member.value, depth: depth + 1, to: &bytes)
      }
      newline(depth: depth, to: &bytes)
      bytes.append(UInt8(ascii: "}"))
    }
  }

  private func newline(depth: Int, to bytes: inout [UInt8]) {
    guard style == .pretty else { return }
    bytes.append(UInt8(ascii: "\n"))
    for _ in 0..<2 * depth {
      bytes.append(UInt8(ascii: " "))
    }
  }

  /// Appends `text` as a JSON string in quotes (RFC 8259): `"`, `\`, control characters (`\n`,
  /// `\r`, `\t`, `\b`, `\f`, else `\u00XX` in lower-case hex) and U+2028 and U+2029, which end
  /// lines in JavaScript, are escaped; everything else, non-ASCII included, is copied as is.
  public static func appendString(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    let utf8 = text.utf8
    // Nearly every UID, label and file name needs no escape: copied at once, read in place
    // where the string holds its UTF-8 contiguously (native strings do).
    let copied =
      utf8.withContiguousStorageIfAvailable { text in
        guard !text.contains(where: mayNeedEscape) else { return false }
        bytes.append(contentsOf: text)
        return true
      } ?? false
    if copied {
      bytes.append(UInt8(ascii: "\""))
      return
    }
    var index = utf8.startIndex
    while index < utf8.endIndex {
      let byte = utf8[index]
      switch byte {
      case UInt8(ascii: "\""): bytes += #"\""#.utf8
      case UInt8(ascii: "\\"): bytes += #"\\"#.utf8
      case UInt8(ascii: "\n"): bytes += #"\n"#.utf8
      case UInt8(ascii: "\r"): bytes += #"\r"#.utf8
      case UInt8(ascii: "\t"): bytes += #"\t"#.utf8
      case 0x08: bytes += #"\b"#.utf8
      case 0x0C: bytes += #"\f"#.utf8
      case 0..<0x20:
        bytes += #"\u00"#.utf8
        bytes.append(hexDigit(byte >> 4))
        bytes.append(hexDigit(byte & 0x0F))
      case 0xE2:
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
        let second = utf8.index(after: index)
        let third = second < utf8.endIndex ? utf8.index(after: second) : second
        if third < utf8.endIndex, utf8[second] == 0x80, utf8[third] & 0xFE == 0xA8 {
          bytes += (utf8[third] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8
          index = utf8.index(after: third)
          continue
        }
        bytes.append(byte)
      default:
        bytes.append(byte)
      }
      index = utf8.index(after: index)
    }
    bytes.append(UInt8(ascii: "\""))
  }
}

/// Whether a byte is one ``JSONWriter/appendString(_:to:)`` escapes, or may start one (0xE2
/// starts U+2028 and U+2029).
private func mayNeedEscape(_ byte: UInt8) -> Bool {
  byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0xE2
}

/// A lower-case hex digit.
private func hexDigit(_ nibble: UInt8) -> UInt8 {
  nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
}
