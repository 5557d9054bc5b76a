import ICalendar

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

/// Appends `string` as a JSON string in quotes, copying runs that need no escaping in one go.
func appendJSONString(_ string: String, to bytes: ByteBuffer) {
  var string = string
  bytes.append(UInt8(ascii: "\""))
  string.withUTF8 { utf8 in
    bytes.reserve(utf8.count + 1)
    var runStart = 0
    var index = 0
    while index < utf8.count {
      let byte = utf8[index]
      // Most bytes need no escape; only these few might.
      guard
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xE2
      else {
        index += 1
        continue
      }
      let escape: StaticString?  // nil: a control character written as \u00XX
      var length = 1
      switch byte {
      case UInt8(ascii: "\""): escape = "\\\""
      case UInt8(ascii: "\\"): escape = "\\\\"
      case UInt8(ascii: "\n"): escape = "\\n"
      case UInt8(ascii: "\r"): escape = "\\r"
      case UInt8(ascii: "\t"): escape = "\\t"
      case 0x08: escape = "\\b"
      case 0x0C: escape = "\\f"
      case 0xE2:
        // U+2028 and U+2029 (E2 80 A8 and E2 80 A9) end lines in JavaScript; escape them.
        guard index + 2 < utf8.count, utf8[index + 1] == 0x80, utf8[index + 2] & 0xFE == 0xA8
        else {
          index += 1
          continue
        }
        escape = utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
        length = 3
      default:
        escape = nil
      }
      bytes.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      if let escape {
        bytes.append(escape)
      } else {
        let hexDigits: StaticString = "0123456789abcdef"
        bytes.append("\\u00")
        hexDigits.withUTF8Buffer { digits in
          bytes.append(digits[Int(byte >> 4)])
          bytes.append(digits[Int(byte & 0x0F)])
        }
      }
      index += length
      runStart = index
    }
    bytes.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
  }
  bytes.append(UInt8(ascii: "\""))
}

/// Writes compact JSON objects member by member straight into bytes: the same text as
/// ``JSONWriter`` in `.compact` style, without building a ``JSONValue`` first (for output of
/// millions of objects).
public struct JSONObjectWriter {
  /// Where the text goes.
  public let output: ByteBuffer
  private var needsComma = false

  /// A writer appending to `output`.
  public init(output: ByteBuffer = ByteBuffer()) {
    self.output = output
  }

  /// Starts an object.
  public mutating func beginObject() {
    output.append(UInt8(ascii: "{"))
    needsComma = false
  }

  /// Ends the object.
  public func endObject() {
    output.append(UInt8(ascii: "}"))
  }

  /// A member whose value is a string, or `null` when nil.
  public mutating func member(_ key: StaticString, _ value: String?) {
    if let value {
      memberKey(key)
      appendJSONString(value, to: output)
    } else {
      member(key, literal: "null")
    }
  }

  /// A member whose value is an instant as `YYYY-MM-DDTHH:MM:SSZ`.
  public mutating func member(_ key: StaticString, instant: Instant) {
    member(key, unescapedCount: Instant.descriptionLength, instant.writeDescription)
  }

  /// A member whose string value is exactly `count` bytes that need no JSON escaping (ASCII
  /// digits and punctuation, such as a timestamp), stored by `write` through the pointer given.
  public mutating func member(
    _ key: StaticString, unescapedCount count: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Void
  ) {
    memberKey(key)
    output.append(count: count + 2) { start in
      start[0] = UInt8(ascii: "\"")
      write(start + 1)
      start[count + 1] = UInt8(ascii: "\"")
    }
  }

  /// A member whose value is an integer.
  public mutating func member(_ key: StaticString, integer: Int) {
    memberKey(key)
    if integer >= 0, integer < 10 {
      output.append(UInt8(ascii: "0") + UInt8(integer))
    } else {
      output.append(utf8: String(integer))
    }
  }

  /// A member whose value is written as is: a number, `true`, `false` or `null`.
  public mutating func member(_ key: StaticString, literal: StaticString) {
    memberKey(key)
    output.append(literal)
  }

  /// Appends raw text between objects (separators, newlines).
  public func append(_ text: StaticString) {
    output.append(text)
  }

  private mutating func memberKey(_ key: StaticString) {
    if needsComma { output.append(UInt8(ascii: ",")) }
    needsComma = true
    output.reserve(key.utf8CodeUnitCount + 3)
    output.append(UInt8(ascii: "\""))
    output.append(key)
    output.append(UInt8(ascii: "\""))
    output.append(UInt8(ascii: ":"))
  }
}
