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

/// One parse over a borrowed buffer; the buffer must outlive the reader. Its scalars (strings,
/// numbers, literals, UTF-8) are read in `JSONReader+Scalars.swift`.
struct JSONReader {
  /// ASCII bytes the grammar refers to.
  enum Byte {
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

  /// An array or object that has been opened and not yet closed.
  private struct Frame {
    var isObject: Bool
    /// Where this container's elements or members start in the shared scratch stacks.
    var start: Int
    /// The key of the member whose value is being read (objects only).
    var key: String
  }

  /// The document's bytes.
  let bytes: UnsafeBufferPointer<UInt8>
  private let maximumDepth: Int
  private let maximumElements: Int
  /// Where the text starts, after any byte order mark; columns on line 1 count from here.
  private var textStart = 0
  /// The place of the next byte to read.
  var index = 0

  private var frames: [Frame] = []
  /// Finished elements of every open array, innermost last.
  private var elements: [JSONValue] = []
  /// Finished members of every open object, innermost last.
  private var members: [JSONMember] = []
  /// Reused buffer for decoding strings that contain escapes.
  var scratch: [UInt8] = []

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
    while true {
      guard let value = try startValue() else { continue }
      if let whole = try close(value) { return whole }
    }
  }

  /// Reads a scalar or an empty container; nil once a container is opened, whose first
  /// element or member is read next.
  private mutating func startValue() throws(JSONSyntaxError) -> JSONValue? {
    skipWhitespace()
    guard index < bytes.count else { throw expected("a value") }
    switch bytes[index] {
    case Byte.openBracket:
      try checkDepth()
      index += 1
      skipWhitespace()
      if peek(Byte.closeBracket) {
        index += 1
        return .array([])
      }
      frames.append(Frame(isObject: false, start: elements.count, key: ""))
      return nil
    case Byte.openBrace:
      try checkDepth()
      index += 1
      skipWhitespace()
      if peek(Byte.closeBrace) {
        index += 1
        return .object([])
      }
      guard peek(Byte.quote) else { throw expected("a string key or '}'") }
      let key = try parseKey()
      frames.append(Frame(isObject: true, start: members.count, key: key))
      return nil
    case Byte.quote:
      return .string(try parseString())
    case Byte.minus, Byte.zero...Byte.nine:
      return .number(try parseNumber())
    case Byte.lowerA...Byte.lowerZ, Byte.upperA...Byte.upperZ:
      return try parseLiteral()
    default:
      throw failure("unexpected character \(try describeCharacter(at: index)); expected a value")
    }
  }

  /// Hands a finished value to the innermost open container, closing containers as they end:
  /// the whole value once none is open, nil when another element or member is to be read.
  private mutating func close(_ finished: JSONValue) throws(JSONSyntaxError) -> JSONValue? {
    var value = finished
    while let frame = frames.last {
      skipWhitespace()
      let closed =
        frame.isObject ? try add(member: value, to: frame) : try add(element: value, to: frame)
      guard let closed else { return nil }
      value = closed
      frames.removeLast()
    }
    return value
  }

  /// Adds `value` to the open object of `frame`: nil when a member follows (its key read),
  /// else the object, closed.
  private mutating func add(member value: JSONValue, to frame: Frame) throws(JSONSyntaxError)
    -> JSONValue?
  {
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
      return nil
    }
    guard peek(Byte.closeBrace) else { throw expected("',' or '}' after an object member") }
    index += 1
    defer { members.removeSubrange(frame.start...) }
    return .object(Array(members[frame.start...]))
  }

  /// Adds `value` to the open array of `frame`: nil when an element follows, else the array,
  /// closed.
  private mutating func add(element value: JSONValue, to frame: Frame) throws(JSONSyntaxError)
    -> JSONValue?
  {
    if elements.count - frame.start >= maximumElements {
      throw failure("an array has more than \(maximumElements) elements, the limit")
    }
    elements.append(value)
    if peek(Byte.comma) {
      let comma = index
      index += 1
      skipWhitespace()
      if peek(Byte.closeBracket) { throw failure("trailing comma in an array", at: comma) }
      return nil
    }
    guard peek(Byte.closeBracket) else { throw expected("',' or ']' after an array element") }
    index += 1
    defer { elements.removeSubrange(frame.start...) }
    return .array(Array(elements[frame.start...]))
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

  /// Whether the next byte is `byte`.
  @inline(__always)
  func peek(_ byte: UInt8) -> Bool {
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

  // MARK: Messages

  /// Names the character at `position` for a message: `'x'` for visible ASCII, `U+XXXX`
  /// otherwise. Invalid UTF-8 there is reported as such instead.
  func describeCharacter(at position: Int) throws(JSONSyntaxError) -> String {
    let byte = bytes[position]
    if byte == 0x27 { return "\"'\"" }
    if byte > Byte.space && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    if byte < 0x80 { return scalarName(UInt32(byte)) }
    let length = try utf8SequenceLength(at: position)
    let scalar = text(position..<position + length).unicodeScalars.first
    return scalarName(scalar?.value ?? 0xFFFD)
  }

  /// `U+XXXX` for the scalar value `value`.
  func scalarName(_ value: UInt32) -> String {
    "U+\(hex(value, width: 4))"
  }

  /// `value` in upper-case hex digits, at least `width` of them.
  func hex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  /// An error for a missing piece at `index`, mentioning the end of input if that is the cause.
  func expected(_ what: String) -> JSONSyntaxError {
    index < bytes.count
      ? failure("expected \(what)") : failure("unexpected end of input; expected \(what)")
  }

  /// An error at `index`.
  func failure(_ message: String) -> JSONSyntaxError {
    failure(message, at: index)
  }

  /// An error at byte `position`, converted to a line and column.
  func failure(_ message: String, at position: Int) -> JSONSyntaxError {
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
  func text(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }
}
