import ICalendar

/// A strict RFC 8259 JSON parser working directly on UTF-8 bytes.
///
/// It accepts exactly the RFC grammar (no comments, trailing commas, `NaN`, leading zeros or
/// unescaped control characters), skips a UTF-8 byte order mark at the very start, and rejects
/// invalid UTF-8. Nesting is tracked on an explicit stack, so deep input produces a
/// ``JSONSyntaxError`` rather than a stack overflow.
public struct JSONParser: Sendable {
  /// The greatest number of arrays and objects that may be open at once.
  public var maximumDepth: Int
  /// The greatest number of elements in one array or members in one object.
  public var maximumElements: Int

  /// Creates a parser that rejects arrays and objects nested deeper than `maximumDepth`.
  ///
  /// The limit also protects the caller: a `JSONValue` nested many thousands of levels deep is
  /// slow to compare and to free, so raise it only as far as your documents need.
  /// `maximumElements` bounds each array and object, so a huge document fails early instead of
  /// being built in memory first.
  public init(maximumDepth: Int = 256, maximumElements: Int = .max) {
    self.maximumDepth = maximumDepth
    self.maximumElements = maximumElements
  }

  /// Parses one JSON document from UTF-8 bytes.
  public func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    let result = bytes.withUnsafeBufferPointer { buffer in
      var reader = JSONReader(
        bytes: buffer, maximumDepth: maximumDepth, maximumElements: maximumElements)
      return Result { () throws(JSONSyntaxError) in try reader.parseDocument() }
    }
    return try result.get()
  }

  /// Parses one JSON document from text.
  public func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    var text = text
    let result = text.withUTF8 { buffer in
      var reader = JSONReader(
        bytes: buffer, maximumDepth: maximumDepth, maximumElements: maximumElements)
      return Result { () throws(JSONSyntaxError) in try reader.parseDocument() }
    }
    return try result.get()
  }
}

/// A JSON document that does not follow RFC 8259, with the place where reading stopped.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The 1-based line of the problem.
  public var line: Int
  /// The 1-based column of the problem, counted in UTF-8 bytes from the start of the line.
  ///
  /// A byte order mark at the start of the document is not counted.
  public var column: Int
  /// What is wrong, for example `expected ',' or '}' after an object member`.
  public var message: String

  /// Creates an error at the given 1-based line and byte column.
  public init(line: Int, column: Int, message: String) {
    self.line = line
    self.column = column
    self.message = message
  }

  /// The position and the message, for example
  /// `line 3, column 14: expected ',' or '}' after an object member`.
  public var description: String {
    "line \(line), column \(column): \(message)"
  }
}

// MARK: - Reader

/// ASCII bytes the grammar refers to.
private enum Byte {
  static let tab: UInt8 = 0x09
  static let newline: UInt8 = 0x0A
  static let carriageReturn: UInt8 = 0x0D
  static let space: UInt8 = 0x20
  static let quote: UInt8 = 0x22  // "
  static let plus: UInt8 = 0x2B  // +
  static let comma: UInt8 = 0x2C  // ,
  static let minus: UInt8 = 0x2D  // -
  static let period: UInt8 = 0x2E  // .
  static let slash: UInt8 = 0x2F  // /
  static let zero: UInt8 = 0x30  // 0
  static let nine: UInt8 = 0x39  // 9
  static let colon: UInt8 = 0x3A  // :
  static let upperA: UInt8 = 0x41  // A
  static let upperE: UInt8 = 0x45  // E
  static let upperF: UInt8 = 0x46  // F
  static let upperZ: UInt8 = 0x5A  // Z
  static let openBracket: UInt8 = 0x5B  // [
  static let backslash: UInt8 = 0x5C  // \
  static let closeBracket: UInt8 = 0x5D  // ]
  static let underscore: UInt8 = 0x5F  // _
  static let lowerA: UInt8 = 0x61  // a
  static let lowerB: UInt8 = 0x62  // b
  static let lowerE: UInt8 = 0x65  // e
  static let lowerF: UInt8 = 0x66  // f
  static let lowerN: UInt8 = 0x6E  // n
  static let lowerR: UInt8 = 0x72  // r
  static let lowerT: UInt8 = 0x74  // t
  static let lowerU: UInt8 = 0x75  // u
  static let lowerZ: UInt8 = 0x7A  // z
  static let openBrace: UInt8 = 0x7B  // {
  static let closeBrace: UInt8 = 0x7D  // }
}

/// One parse over a borrowed buffer; the buffer must outlive the reader.
private struct JSONReader {
  /// An array or object that has been opened and not yet closed.
  private struct Frame {
    var isObject: Bool
    /// Where this container's elements or members start in the shared scratch stacks.
    var start: Int
    /// The key of the member whose value is being read (objects only).
    var key: String
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private let maximumDepth: Int
  private let maximumElements: Int
  /// Where the text starts, after any byte order mark; columns on line 1 count from here.
  private var textStart = 0
  private var index = 0

  private var frames: [Frame] = []
  /// Finished elements of every open array, innermost last.
  private var elements: [JSONValue] = []
  /// Finished members of every open object, innermost last.
  private var members: [JSONMember] = []
  /// Reused buffer for decoding strings that contain escapes.
  private var scratch: [UInt8] = []

  init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, maximumElements: Int) {
    self.bytes = bytes
    self.maximumDepth = maximumDepth
    self.maximumElements = maximumElements
  }

  mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      textStart = 3
      index = 3
    }
    let value = try parseValue()
    skipWhitespace()
    if index < bytes.count {
      throw failure("unexpected character \(try describeCharacter(at: index)) after the JSON value")
    }
    return value
  }

  // MARK: Structure

  /// Reads one complete value, keeping open containers on `frames` rather than the call stack.
  private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
    readingValues: while true {
      skipWhitespace()
      guard index < bytes.count else { throw expected("a value") }
      var value: JSONValue
      switch bytes[index] {
      case Byte.openBracket:
        try checkDepth()
        index += 1
        skipWhitespace()
        if peek(Byte.closeBracket) {
          index += 1
          value = .array([])
        } else {
          frames.append(Frame(isObject: false, start: elements.count, key: ""))
          continue readingValues
        }
      case Byte.openBrace:
        try checkDepth()
        index += 1
        skipWhitespace()
        if peek(Byte.closeBrace) {
          index += 1
          value = .object([])
        } else if peek(Byte.quote) {
          let key = try parseKey()
          frames.append(Frame(isObject: true, start: members.count, key: key))
          continue readingValues
        } else {
          throw expected("a string key or '}'")
        }
      case Byte.quote:
        value = .string(try parseString())
      case Byte.minus, Byte.zero...Byte.nine:
        value = .number(try parseNumber())
      case Byte.lowerA...Byte.lowerZ, Byte.upperA...Byte.upperZ:
        value = try parseLiteral()
      default:
        throw failure("unexpected character \(try describeCharacter(at: index)); expected a value")
      }

      // Hand the finished value to the innermost open container, closing containers as we go.
      while let frame = frames.last {
        skipWhitespace()
        if frame.isObject {
          if members.count - frame.start >= maximumElements {
            throw failure("an object has more than \(maximumElements) members, the limit")
          }
          members.append(JSONMember(frame.key, value))
          if peek(Byte.comma) {
            let comma = index
            index += 1
            skipWhitespace()
            if peek(Byte.closeBrace) { throw failure("trailing comma in an object", at: comma) }
            guard peek(Byte.quote) else { throw expected("a string key after ','") }
            frames[frames.count - 1].key = try parseKey()
            continue readingValues
          }
          guard peek(Byte.closeBrace) else {
            throw expected("',' or '}' after an object member")
          }
          index += 1
          value = .object(Array(members[frame.start...]))
          members.removeSubrange(frame.start...)
        } else {
          if elements.count - frame.start >= maximumElements {
            throw failure("an array has more than \(maximumElements) elements, the limit")
          }
          elements.append(value)
          if peek(Byte.comma) {
            let comma = index
            index += 1
            skipWhitespace()
            if peek(Byte.closeBracket) { throw failure("trailing comma in an array", at: comma) }
            continue readingValues
          }
          guard peek(Byte.closeBracket) else {
            throw expected("',' or ']' after an array element")
          }
          index += 1
          value = .array(Array(elements[frame.start...]))
          elements.removeSubrange(frame.start...)
        }
        frames.removeLast()
      }
      return value
    }
  }

  private func checkDepth() throws(JSONSyntaxError) {
    if frames.count >= maximumDepth {
      throw failure("nesting exceeds the maximum depth of \(maximumDepth)")
    }
  }

  /// Reads `"key"` and the `:` after it.
  private mutating func parseKey() throws(JSONSyntaxError) -> String {
    let key = try parseString()
    skipWhitespace()
    guard peek(Byte.colon) else { throw expected("':' after an object key") }
    index += 1
    return key
  }

  @inline(__always)
  private func peek(_ byte: UInt8) -> Bool {
    index < bytes.count && bytes[index] == byte
  }

  @inline(__always)
  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case Byte.space, Byte.newline, Byte.carriageReturn, Byte.tab: index += 1
      default: return
      }
    }
  }

  // MARK: Scalars

  /// Reads `true`, `false` or `null`; any other word is reported whole.
  private mutating func parseLiteral() throws(JSONSyntaxError) -> JSONValue {
    let start = index
    while index < bytes.count, isWordByte(bytes[index]) {
      index += 1
    }
    let word = text(start..<min(index, start + 32))
    switch word {
    case "true": return .bool(true)
    case "false": return .bool(false)
    case "null": return .null
    default:
      let shown = index - start > 32 ? word + "..." : word
      throw failure("invalid literal '\(shown)'", at: start)
    }
  }

  private func isWordByte(_ byte: UInt8) -> Bool {
    switch byte {
    case Byte.lowerA...Byte.lowerZ, Byte.upperA...Byte.upperZ, Byte.zero...Byte.nine,
      Byte.underscore:
      true
    default: false
    }
  }

  /// Reads `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` and returns it as written.
  private mutating func parseNumber() throws(JSONSyntaxError) -> String {
    let start = index
    if bytes[index] == Byte.minus {
      index += 1
    }
    guard isDigit(at: index) else { throw expected("a digit after '-'") }
    if bytes[index] == Byte.zero {
      index += 1
      if isDigit(at: index) {
        throw failure("leading zeros are not allowed in numbers", at: start)
      }
    } else {
      skipDigits()
    }
    if peek(Byte.period) {
      index += 1
      guard isDigit(at: index) else { throw expected("a digit after the decimal point") }
      skipDigits()
    }
    if peek(Byte.lowerE) || peek(Byte.upperE) {
      index += 1
      if peek(Byte.plus) || peek(Byte.minus) {
        index += 1
      }
      guard isDigit(at: index) else { throw expected("a digit in the exponent") }
      skipDigits()
    }
    return text(start..<index)
  }

  @inline(__always)
  private func isDigit(at position: Int) -> Bool {
    position < bytes.count && (Byte.zero...Byte.nine).contains(bytes[position])
  }

  @inline(__always)
  private mutating func skipDigits() {
    while isDigit(at: index) {
      index += 1
    }
  }

  /// Reads a string starting at its opening quote and returns it with escapes decoded.
  private mutating func parseString() throws(JSONSyntaxError) -> String {
    let openingQuote = index
    index += 1
    var runStart = index
    // Strings without escapes become a String straight from the buffer; the others are decoded
    // into `scratch`, a run of plain bytes at a time.
    var hasEscapes = false
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == Byte.quote || byte == Byte.backslash else {
        try advanceOverStringByte(byte)
        continue
      }
      if byte == Byte.quote && !hasEscapes {
        let string = text(runStart..<index)
        index += 1
        return string
      }
      if !hasEscapes {
        hasEscapes = true
        scratch.removeAll(keepingCapacity: true)
      }
      scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
      if byte == Byte.quote {
        index += 1
        return String(decoding: scratch, as: UTF8.self)
      }
      try decodeEscape(openingQuote: openingQuote)
      runStart = index
    }
    throw failure("unterminated string", at: openingQuote)
  }

  /// Steps over one unescaped character inside a string, checking it is allowed there.
  @inline(__always)
  private mutating func advanceOverStringByte(_ byte: UInt8) throws(JSONSyntaxError) {
    if byte < Byte.space {
      throw failure("unescaped control character \(scalarName(UInt32(byte))) in a string")
    }
    index += byte < 0x80 ? 1 : try utf8SequenceLength(at: index)
  }

  /// Decodes the escape at `index` (a backslash) into `scratch`.
  private mutating func decodeEscape(openingQuote: Int) throws(JSONSyntaxError) {
    let backslash = index
    index += 1
    guard index < bytes.count else { throw failure("unterminated string", at: openingQuote) }
    let replacement: UInt8
    switch bytes[index] {
    case Byte.quote: replacement = Byte.quote
    case Byte.backslash: replacement = Byte.backslash
    case Byte.slash: replacement = Byte.slash
    case Byte.lowerB: replacement = 0x08
    case Byte.lowerF: replacement = 0x0C
    case Byte.lowerN: replacement = Byte.newline
    case Byte.lowerR: replacement = Byte.carriageReturn
    case Byte.lowerT: replacement = Byte.tab
    case Byte.lowerU:
      index = backslash
      appendUTF8(try decodeUnicodeEscape())
      return
    default:
      let byte = bytes[index]
      if byte > Byte.space && byte < 0x7F {
        throw failure(
          "invalid escape sequence '\\\(Character(Unicode.Scalar(byte)))'", at: backslash)
      }
      throw failure(
        "invalid escape sequence: '\\' followed by \(try describeCharacter(at: index))",
        at: backslash)
    }
    index += 1
    scratch.append(replacement)
  }

  /// Decodes `\uXXXX` at `index`, or a surrogate pair `\uXXXX\uXXXX`, into a scalar.
  private mutating func decodeUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
    let first = index
    let unit = try readHexEscape()
    switch unit {
    case 0xD800...0xDBFF:
      let second = index
      if peek(Byte.backslash), index + 1 < bytes.count, bytes[index + 1] == Byte.lowerU {
        let low = try readHexEscape()
        if (0xDC00...0xDFFF).contains(low) {
          let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
          if let scalar = Unicode.Scalar(value) { return scalar }
        }
        index = second
      }
      throw failure("lone surrogate '\\u\(hex(unit, width: 4))' in a string", at: first)
    case 0xDC00...0xDFFF:
      throw failure("lone surrogate '\\u\(hex(unit, width: 4))' in a string", at: first)
    default:
      guard let scalar = Unicode.Scalar(unit) else {
        throw failure("lone surrogate '\\u\(hex(unit, width: 4))' in a string", at: first)
      }
      return scalar
    }
  }

  /// Reads `\u` and four hex digits at `index`.
  private mutating func readHexEscape() throws(JSONSyntaxError) -> UInt32 {
    let backslash = index
    index += 2
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard index < bytes.count, let digit = hexDigitValue(bytes[index]) else {
        throw failure("invalid \\u escape; expected four hex digits", at: backslash)
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  private func hexDigitValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case Byte.zero...Byte.nine: UInt32(byte - Byte.zero)
    case Byte.lowerA...Byte.lowerF: UInt32(byte - Byte.lowerA + 10)
    case Byte.upperA...Byte.upperF: UInt32(byte - Byte.upperA + 10)
    default: nil
    }
  }

  private mutating func appendUTF8(_ scalar: Unicode.Scalar) {
    let value = scalar.value
    switch value {
    case 0..<0x80:
      scratch.append(UInt8(value))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | value >> 6))
      scratch.append(UInt8(0x80 | value & 0x3F))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | value >> 12))
      scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | value & 0x3F))
    default:
      scratch.append(UInt8(0xF0 | value >> 18))
      scratch.append(UInt8(0x80 | value >> 12 & 0x3F))
      scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | value & 0x3F))
    }
  }

  // MARK: UTF-8

  /// The length of the well-formed UTF-8 sequence at `position` (whose first byte is not ASCII;
  /// ``UTF8Validation``), or an error naming the byte that begins none.
  private func utf8SequenceLength(at position: Int) throws(JSONSyntaxError) -> Int {
    let length = UTF8Validation.sequenceLength(bytes, at: position)
    if length > 0 { return length }
    let lead = bytes[position]
    guard UTF8Validation.canBegin(lead) else {
      throw failure("invalid UTF-8 byte 0x\(hex(UInt32(lead), width: 2))", at: position)
    }
    throw invalidSequence(at: position)
  }

  private func invalidSequence(at position: Int) -> JSONSyntaxError {
    failure(
      "invalid UTF-8 sequence starting with byte 0x\(hex(UInt32(bytes[position]), width: 2))",
      at: position)
  }

  // MARK: Messages

  /// Names the character at `position` for a message: `'x'` for visible ASCII, `U+XXXX`
  /// otherwise. Invalid UTF-8 there is reported as such instead.
  private func describeCharacter(at position: Int) throws(JSONSyntaxError) -> String {
    let byte = bytes[position]
    if byte == 0x27 { return "\"'\"" }
    if byte > Byte.space && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    if byte < 0x80 { return scalarName(UInt32(byte)) }
    let length = try utf8SequenceLength(at: position)
    let scalar = text(position..<position + length).unicodeScalars.first
    return scalarName(scalar?.value ?? 0xFFFD)
  }

  private func scalarName(_ value: UInt32) -> String {
    "U+\(hex(value, width: 4))"
  }

  private func hex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  /// An error for a missing piece at `index`, mentioning the end of input if that is the cause.
  private func expected(_ what: String) -> JSONSyntaxError {
    index < bytes.count
      ? failure("expected \(what)") : failure("unexpected end of input; expected \(what)")
  }

  /// An error at `index`.
  private func failure(_ message: String) -> JSONSyntaxError {
    failure(message, at: index)
  }

  /// An error at byte `position`, converted to a line and column.
  private func failure(_ message: String, at position: Int) -> JSONSyntaxError {
    var line = 1
    var lineStart = textStart
    var cursor = textStart
    while cursor < position {
      let byte = bytes[cursor]
      cursor += 1
      if byte == Byte.newline
        || (byte == Byte.carriageReturn && (cursor == bytes.count || bytes[cursor] != Byte.newline))
      {
        line += 1
        lineStart = cursor
      }
    }
    return JSONSyntaxError(line: line, column: position - lineStart + 1, message: message)
  }

  /// The bytes in `range`, which are known to be valid UTF-8, as a String.
  @inline(__always)
  private func text(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }
}
