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
    var output = JSONOutput(pretty: style == .pretty)
    output.write(value, depth: 0)
    return output.bytes.withBytes { String(decoding: $0, as: UTF8.self) }
  }
}

/// The byte buffer a ``JSONWriter`` fills.
private struct JSONOutput {
  let pretty: Bool
  let bytes = ByteBuffer(capacity: 1024)

  init(pretty: Bool) {
    self.pretty = pretty
  }

  mutating func write(_ value: JSONValue, depth: Int) {
    switch value {
    case .null: append("null")
    case .bool(let bool): append(bool ? "true" : "false")
    case .number(let text): append(text)
    case .string(let string): writeString(string)
    case .array(let elements):
      guard !elements.isEmpty else { return append("[]") }
      bytes.append(UInt8(ascii: "["))
      for (offset, element) in elements.enumerated() {
        if offset > 0 { bytes.append(UInt8(ascii: ",")) }
        newline(depth: depth + 1)
        write(element, depth: depth + 1)
      }
      newline(depth: depth)
      bytes.append(UInt8(ascii: "]"))
    case .object(let members):
      guard !members.isEmpty else { return append("{}") }
      bytes.append(UInt8(ascii: "{"))
      for (offset, member) in members.enumerated() {
        if offset > 0 { bytes.append(UInt8(ascii: ",")) }
        newline(depth: depth + 1)
        writeString(member.key)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        write(member.value, depth: depth + 1)
      }
      newline(depth: depth)
      bytes.append(UInt8(ascii: "}"))
    }
  }

  private mutating func newline(depth: Int) {
    guard pretty else { return }
    bytes.append(UInt8(ascii: "\n"))
    for _ in 0..<2 * depth { bytes.append(UInt8(ascii: " ")) }
  }

  private mutating func append(_ text: String) {
    bytes.append(utf8: text)
  }

  private mutating func writeString(_ string: String) {
    appendJSONString(string, to: bytes)
  }
}

/// Appends `string` as a JSON string in quotes.
func appendJSONString(_ string: String, to bytes: ByteBuffer) {
  bytes.appendJSON(maximumCount: JSONCursor.maximumLength(of: string)) { $0.string(string) }
}
