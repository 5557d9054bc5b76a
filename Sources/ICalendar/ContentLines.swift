/// A place in the original file: 1-based physical line, 1-based byte column.
public struct SourcePosition: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The physical line (1-based).
  public let line: Int
  /// The byte column on that line (1-based).
  public let column: Int

  /// Creates a position.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// Earlier in the file first.
  public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
    (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }

  /// `line:column`.
  public var description: String { "\(line):\(column)" }
}

/// One unfolded content line, RFC 5545 §3.1: `name *(";" param) ":" value`, with the position
/// of each part in the original (folded) file.
public struct ContentLine: Sendable {
  /// One `;NAME=value[,value…]` parameter, RFC 5545 §3.2.
  public struct Parameter: Sendable {
    /// The name as written.
    public let name: String
    /// The values, quotes removed.
    public let values: [String]
    /// Where the name starts.
    public let namePosition: SourcePosition
    /// Where the first value starts (its opening quote, when quoted).
    public let valuePosition: SourcePosition

    /// The values joined with commas.
    public var value: String { values.joined(separator: ",") }
  }

  /// Where a run of unfolded bytes starts in the original file.
  struct Segment: Sendable {
    let offset: Int
    let position: SourcePosition
  }

  /// The property (or `BEGIN`/`END`) name as written.
  public let name: String
  /// The parameters in the order written.
  public let parameters: [Parameter]
  /// The value after the first colon outside quotes, unfolded.
  public let value: String
  /// Where the name starts (column 1 of the content line's first physical line).
  public let namePosition: SourcePosition
  /// Where the value starts (just after the colon).
  public let valuePosition: SourcePosition
  /// The unfolded byte offset of the value.
  let valueOffset: Int
  /// Unfolded offset → physical position map, one entry per physical line.
  let segments: [Segment]

  /// The physical line the content line starts on.
  public var line: Int { namePosition.line }

  /// The name in upper case, for comparisons (names are case-insensitive).
  public var upperName: String { name.uppercased() }

  /// The first parameter with this name (case-insensitive).
  public func parameter(_ name: String) -> Parameter? {
    let wanted = name.uppercased()
    return parameters.first { $0.name.uppercased() == wanted }
  }

  /// The original position of the byte `offset` bytes into the value.
  public func position(ofValueOffset offset: Int) -> SourcePosition {
    ContentLine.position(ofOffset: valueOffset + offset, in: segments)
  }

  /// The original position of an unfolded byte offset.
  static func position(ofOffset offset: Int, in segments: [Segment]) -> SourcePosition {
    var chosen = segments[0]
    for segment in segments.dropFirst() {
      guard segment.offset <= offset else { break }
      chosen = segment
    }
    return SourcePosition(
      line: chosen.position.line, column: chosen.position.column + offset - chosen.offset)
  }
}

/// A problem the scanner found, at its place in the original file.
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

/// Splits raw iCalendar bytes into unfolded content lines, reporting every problem on the way
/// instead of stopping at the first. Pure Swift: positions are those of the original bytes.
public enum ContentLineScanner {
  /// The longest line RFC 5545 §3.1 allows without folding, in octets.
  public static let maximumLineOctets = 75

  /// The content lines of `bytes` (a UTF-8 BOM is skipped) and the problems found, in file order.
  public static func scan(_ bytes: [UInt8]) -> (lines: [ContentLine], findings: [LineFinding]) {
    var scanner = Scanner(bytes: bytes)
    scanner.run()
    return (scanner.lines, scanner.findings.sorted { $0.position < $1.position })
  }
}

private let colon = UInt8(ascii: ":")
private let semicolon = UInt8(ascii: ";")
private let comma = UInt8(ascii: ",")
private let equals = UInt8(ascii: "=")
private let quote = UInt8(ascii: "\"")

private func isNameByte(_ byte: UInt8) -> Bool {
  switch byte {
  case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
    true
  default: false
  }
}

private struct Scanner {
  let bytes: [UInt8]
  var lines: [ContentLine] = []
  var findings: [LineFinding] = []
  var bareLineFeeds = 0
  var firstBareLineFeed: SourcePosition?
  /// The content line being unfolded.
  var buffer: [UInt8] = []
  var segments: [ContentLine.Segment] = []

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  mutating func run() {
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var number = 1
    while start < bytes.count {
      var end = start
      while end < bytes.count && bytes[end] != 0x0A { end += 1 }
      var contentEnd = end
      if end < bytes.count {
        if end > start && bytes[end - 1] == 0x0D {
          contentEnd = end - 1
        } else {
          bareLineFeeds += 1
          if firstBareLineFeed == nil {
            firstBareLineFeed = SourcePosition(line: number, column: end - start + 1)
          }
        }
      }
      physicalLine(number, start, contentEnd)
      start = end + 1
      number += 1
    }
    flush()
    if let firstBareLineFeed {
      findings.append(LineFinding(.bareLineFeed(count: bareLineFeeds), at: firstBareLineFeed))
    }
  }

  mutating func physicalLine(_ number: Int, _ start: Int, _ end: Int) {
    let length = end - start
    if length > ContentLineScanner.maximumLineOctets {
      findings.append(
        LineFinding(
          .longLine(octets: length),
          at: SourcePosition(line: number, column: ContentLineScanner.maximumLineOctets + 1)))
    }
    guard length > 0 else { return }  // an empty line continues nothing and holds nothing
    if bytes[start] == 0x20 || bytes[start] == 0x09 {
      guard !segments.isEmpty else {
        findings.append(
          LineFinding(.orphanContinuation, at: SourcePosition(line: number, column: 1)))
        return
      }
      segments.append(
        ContentLine.Segment(
          offset: buffer.count, position: SourcePosition(line: number, column: 2)))
      buffer.append(contentsOf: bytes[(start + 1)..<end])
    } else {
      flush()
      segments = [
        ContentLine.Segment(offset: 0, position: SourcePosition(line: number, column: 1))
      ]
      buffer = Array(bytes[start..<end])
    }
  }

  func position(_ offset: Int) -> SourcePosition {
    ContentLine.position(ofOffset: offset, in: segments)
  }

  /// Checks and parses the content line collected so far, then starts afresh.
  mutating func flush() {
    guard !segments.isEmpty else { return }
    defer {
      buffer = []
      segments = []
    }
    checkCharacters()
    if let line = parse() { lines.append(line) }
  }

  /// Reports the first invalid UTF-8 sequence and the first control character of the line.
  /// Runs on the unfolded bytes: a fold may split a multi-octet character (RFC 5545 §3.1).
  mutating func checkCharacters() {
    var sawInvalid = false
    var sawControl = false
    var index = 0
    let count = buffer.count
    while index < count {
      let byte = buffer[index]
      if byte < 0x80 {
        if !sawControl && (byte < 0x20 && byte != 0x09 || byte == 0x7F) {
          sawControl = true
          findings.append(LineFinding(.controlCharacter(byte), at: position(index)))
        }
        index += 1
        continue
      }
      let length = utf8SequenceLength(at: index)
      if length == 0 {
        if !sawInvalid {
          sawInvalid = true
          findings.append(LineFinding(.invalidUTF8, at: position(index)))
        }
        index += 1
      } else {
        index += length
      }
    }
  }

  /// The length of the valid UTF-8 sequence at `index`, or 0.
  func utf8SequenceLength(at index: Int) -> Int {
    let lead = buffer[index]
    var need = 0
    var lower: UInt8 = 0x80
    var upper: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: need = 1
    case 0xE0:
      need = 2
      lower = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: need = 2
    case 0xED:
      need = 2
      upper = 0x9F
    case 0xF0:
      need = 3
      lower = 0x90
    case 0xF1...0xF3: need = 3
    case 0xF4:
      need = 3
      upper = 0x8F
    default: return 0
    }
    guard index + need < buffer.count else { return 0 }
    guard buffer[index + 1] >= lower && buffer[index + 1] <= upper else { return 0 }
    for next in stride(from: index + 2, through: index + need, by: 1)
    where buffer[next] < 0x80 || buffer[next] > 0xBF {
      return 0
    }
    return need + 1
  }

  func text(_ range: Range<Int>) -> String {
    String(decoding: buffer[range], as: UTF8.self)
  }

  /// The offset of the first colon at or after `start` outside double quotes.
  func colonOutsideQuotes(from start: Int) -> Int? {
    var inQuotes = false
    for index in start..<buffer.count {
      if buffer[index] == quote {
        inQuotes.toggle()
      } else if buffer[index] == colon && !inQuotes {
        return index
      }
    }
    return nil
  }

  mutating func parse() -> ContentLine? {
    let count = buffer.count
    var index = 0
    while index < count && isNameByte(buffer[index]) { index += 1 }
    let nameEnd = index
    guard index < count, buffer[index] == semicolon || buffer[index] == colon else {
      if !buffer.contains(colon) {
        findings.append(LineFinding(.missingColon, at: position(nameEnd)))
      } else if nameEnd == 0 {
        findings.append(LineFinding(.emptyName, at: position(0)))
      } else {
        findings.append(LineFinding(.invalidName(buffer[index]), at: position(index)))
      }
      return nil
    }
    guard nameEnd > 0 else {
      findings.append(LineFinding(.emptyName, at: position(0)))
      return nil
    }
    var parameters: [ContentLine.Parameter] = []
    while buffer[index] == semicolon {
      switch parseParameter(from: index + 1) {
      case .success(let (parameter, next)):
        parameters.append(parameter)
        index = next
      case .failure(let failure):
        findings.append(failure.finding)
        guard let resume = failure.resume, let found = colonOutsideQuotes(from: resume) else {
          return nil
        }
        index = found
      }
      if index >= count {
        findings.append(LineFinding(.missingColon, at: position(count)))
        return nil
      }
    }
    return ContentLine(
      name: text(0..<nameEnd), parameters: parameters, value: text((index + 1)..<count),
      namePosition: position(0), valuePosition: position(index + 1), valueOffset: index + 1,
      segments: segments)
  }

  struct ParameterFailure: Error {
    let finding: LineFinding
    /// Where to look for the value's colon, or nil when the line cannot be recovered.
    let resume: Int?
  }

  /// Parses `NAME=value[,value…]` at `start`; returns it and the offset of the `;` or `:`
  /// after it (or the line's end).
  func parseParameter(from start: Int) -> Result<(ContentLine.Parameter, Int), ParameterFailure> {
    let count = buffer.count
    var index = start
    while index < count && isNameByte(buffer[index]) { index += 1 }
    func fail(_ why: String, at offset: Int, resume: Int?) -> Result<
      (ContentLine.Parameter, Int), ParameterFailure
    > {
      .failure(
        ParameterFailure(
          finding: LineFinding(.badParameter(why), at: position(offset)), resume: resume))
    }
    guard index > start else {
      return fail("expected a parameter name after ';'", at: index, resume: index)
    }
    let name = text(start..<index)
    guard index < count, buffer[index] == equals else {
      return fail("parameter \(name) has no '=' and value", at: index, resume: index)
    }
    index += 1
    let valueStart = index
    var values: [String] = []
    while true {
      if index < count && buffer[index] == quote {
        let open = index
        index += 1
        while index < count && buffer[index] != quote { index += 1 }
        guard index < count else {
          return fail(
            "quoted value of parameter \(name) has no closing '\"'", at: open, resume: nil)
        }
        values.append(text((open + 1)..<index))
        index += 1
        if index < count && ![semicolon, colon, comma].contains(buffer[index]) {
          return fail(
            "unexpected character after the quoted value of parameter \(name)", at: index,
            resume: index)
        }
      } else {
        let first = index
        while index < count && ![semicolon, colon, comma, quote].contains(buffer[index]) {
          index += 1
        }
        if index < count && buffer[index] == quote {
          return fail(
            "'\"' inside a value of parameter \(name); quote the whole value", at: index,
            resume: index + 1)
        }
        values.append(text(first..<index))
      }
      guard index < count, buffer[index] == comma else { break }
      index += 1
    }
    let parameter = ContentLine.Parameter(
      name: name, values: values, namePosition: position(start),
      valuePosition: position(valueStart))
    return .success((parameter, index))
  }
}
