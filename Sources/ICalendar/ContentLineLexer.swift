/// The one reader of iCalendar text, RFC 5545 §3.1: splits bytes into physical lines (CRLF or
/// bare LF, a UTF-8 byte order mark skipped), joins folded lines (a line starting with a space
/// or tab continues the one before; empty lines hold nothing), and splits each content line
/// into `name *(";" param) ":" value`.
///
/// Every problem is reported as a ``LineFinding`` at its place in the original file. Problems
/// that lose a line (no colon, a bad name, a parameter it cannot recover from, a continuation
/// with nothing to continue) are always reported; with `lint`, so are those that keep it (bare
/// LF line ends, lines over 75 octets, bytes that are not UTF-8, control characters, a bad
/// parameter skipped to the value's colon).
struct ContentLineLexer {
  /// The longest line RFC 5545 §3.1 allows without folding, in octets.
  static let maximumLineOctets = 75

  private let bytes: [UInt8]
  /// Whether problems that keep a line are reported too.
  let lint: Bool
  /// The next physical line to read.
  private var index: Int
  /// Where reading stops: the end of the data, or where a reader of part of it pauses.
  private var end: Int
  private var number = 1
  /// Whether a content line has started (a continuation before the first one is an orphan).
  private var started = false
  private var bareLineFeeds = 0
  private var firstBareLineFeed: SourcePosition?
  /// Problems found so far, in the order found.
  private(set) var findings: [LineFinding] = []

  init(_ bytes: [UInt8], lint: Bool) {
    self.bytes = bytes
    self.lint = lint
    index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    end = bytes.count
  }

  /// A lexer that reads from byte `start`, which begins physical line `line` and a content line.
  init(_ bytes: [UInt8], from start: Int, line: Int) {
    self.init(bytes, lint: false, from: start, line: line, until: bytes.count)
  }

  /// A lexer that reads from byte `start`, which begins physical line `line` and a content
  /// line, and stops at byte `end`, which begins a physical line that is no continuation.
  init(_ bytes: [UInt8], lint: Bool, from start: Int, line: Int, until end: Int) {
    self.bytes = bytes
    self.lint = lint
    index = start
    self.end = end
    number = line
    started = true
  }

  /// Stops reading at byte `offset`, which begins a physical line that is no continuation:
  /// ``next(structureOnly:)`` then gives nil there, as at the end of the data, and reading
  /// goes on from there after ``resume(at:line:)``.
  mutating func pause(at offset: Int) {
    end = offset
  }

  /// Goes on reading, to the end of the data, from byte `offset` (physical line `line`), which
  /// begins a content line.
  mutating func resume(at offset: Int, line: Int) {
    index = offset
    number = line
    end = bytes.count
  }

  /// Takes in what `other`, which read the lines just before where this one goes on, found.
  mutating func adopt(_ other: ContentLineLexer) {
    findings += other.findings
    bareLineFeeds += other.bareLineFeeds
    if firstBareLineFeed == nil { firstBareLineFeed = other.firstBareLineFeed }
  }

  /// One unfolded content line.
  struct Line {
    /// The offset of its first byte in the file.
    let start: Int
    /// The offset just past its last byte (its line break excluded).
    let end: Int
    /// The physical line it starts on.
    let number: Int
    /// The bytes, unfolded: a slice of the file when it was not folded.
    let bytes: ArraySlice<UInt8>
  }

  /// Adds a problem that lost a line (always reported).
  mutating func noteLost(_ finding: LineFinding) {
    findings.append(finding)
  }

  /// Adds a problem the line recovered from (reported with `lint` only).
  mutating func noteRecovered(_ finding: LineFinding) {
    if lint { findings.append(finding) }
  }

  /// The next content line, or nil at the end of the data (then the bare-LF finding, if any,
  /// has been added) or where it pauses. With `structureOnly`, lines other than BEGIN and END are passed over
  /// unread (a reader that keeps nothing of a component needs only where it ends).
  mutating func next(structureOnly: Bool = false) -> Line? {
    while index < end {
      let physical = physicalLine()
      if physical.end == physical.start { continue }  // an empty line holds nothing
      if structureOnly, !startsBeginOrEnd(physical.start, physical.end) { continue }
      let first = bytes[physical.start]
      if first == 0x20 || first == 0x09, !started {
        findings.append(
          LineFinding(.orphanContinuation, at: SourcePosition(line: physical.number, column: 1)))
        continue
      }
      started = true
      var unfolded: [UInt8]?
      var end = physical.end
      // Continuations, across empty lines, as long as they come.
      while let continuation = peekContinuation() {
        if unfolded == nil { unfolded = Array(bytes[physical.start..<physical.end]) }
        unfolded?.append(contentsOf: bytes[(continuation.start + 1)..<continuation.end])
        end = continuation.end
      }
      let line = Line(
        start: physical.start, end: end, number: physical.number,
        bytes: unfolded.map { $0[...] } ?? bytes[physical.start..<physical.end])
      if lint { checkCharacters(line) }
      return line
    }
    if index >= bytes.count, let firstBareLineFeed {
      findings.append(LineFinding(.bareLineFeed(count: bareLineFeeds), at: firstBareLineFeed))
      self.firstBareLineFeed = nil
    }
    return nil
  }

  /// Whether the line from `start` to `end` names BEGIN or END (any case) before its first `:`
  /// or `;`: the only lines that open or close components.
  private func startsBeginOrEnd(_ start: Int, _ end: Int) -> Bool {
    func spells(_ word: StaticString) -> Bool {
      let length = word.utf8CodeUnitCount
      guard end - start > length else { return false }
      let next = bytes[start + length]
      guard next == UInt8(ascii: ":") || next == UInt8(ascii: ";") else { return false }
      return word.withUTF8Buffer { wanted in
        wanted.indices.allSatisfy { bytes[start + $0] & 0xDF == wanted[$0] }
      }
    }
    return spells("BEGIN") || spells("END")
  }

  /// Reads the physical line at `index` (its line break excluded) and moves past it.
  private mutating func physicalLine() -> (start: Int, end: Int, number: Int) {
    let start = index
    let count = bytes.count
    let end = ByteSearch.firstOffset(of: 0x0A, in: bytes, from: start)
    let lineNumber = number
    var contentEnd = end
    if end < count {
      if end > start && bytes[end - 1] == 0x0D {
        contentEnd = end - 1
      } else if lint {
        bareLineFeeds += 1
        if firstBareLineFeed == nil {
          firstBareLineFeed = SourcePosition(line: lineNumber, column: end - start + 1)
        }
      }
    }
    if lint, contentEnd - start > Self.maximumLineOctets {
      findings.append(
        LineFinding(
          .longLine(octets: contentEnd - start),
          at: SourcePosition(line: lineNumber, column: Self.maximumLineOctets + 1)))
    }
    index = end < count ? end + 1 : end
    number += 1
    return (start, contentEnd, lineNumber)
  }

  /// The next physical line if it continues the current content line (after any empty lines,
  /// which are read and passed over); nil, reading nothing but empty lines, otherwise.
  private mutating func peekContinuation() -> (start: Int, end: Int)? {
    while index < end {
      let byte = bytes[index]
      if byte == 0x20 || byte == 0x09 {
        let physical = physicalLine()
        return (physical.start, physical.end)
      }
      guard byte == 0x0A || (byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A)
      else { return nil }
      _ = physicalLine()  // an empty line
    }
    return nil
  }

  /// Reports the first bytes that are not UTF-8 and the first control character of the line.
  /// Runs on the unfolded bytes: a fold may split a multi-octet character (RFC 5545 §3.1).
  private mutating func checkCharacters(_ line: Line) {
    let text = line.bytes
    // Most lines are printable ASCII throughout: one pass without branches shows it.
    var outsidePrintable: UInt8 = 0
    for byte in text { outsidePrintable |= byte &- 0x20 >= 0x5F ? 1 : 0 }
    if outsidePrintable == 0 { return }
    var sawInvalid = false
    var sawControl = false
    var offset = text.startIndex
    while offset < text.endIndex {
      let byte = text[offset]
      if byte < 0x80 {
        if !sawControl && (byte < 0x20 && byte != 0x09 || byte == 0x7F) {
          sawControl = true
          findings.append(
            LineFinding(.controlCharacter(byte), at: position(in: line, offset - text.startIndex)))
        }
        offset += 1
        continue
      }
      let length = UTF8Validation.sequenceLength(text, at: offset)
      if length == 0 {
        if !sawInvalid {
          sawInvalid = true
          findings.append(
            LineFinding(.invalidUTF8, at: position(in: line, offset - text.startIndex)))
        }
        offset += 1
      } else {
        offset += length
      }
    }
  }

  /// The position of the byte `unfolded` bytes into `line`.
  func position(in line: Line, _ unfolded: Int) -> SourcePosition {
    Self.locate(in: bytes, lineStart: line.start, line: line.number, unfolded: unfolded).position
  }

  /// Where the byte `unfolded` bytes into the content line starting at `lineStart` (on physical
  /// line `line`) lies in the file: its offset and position. A byte at a fold is the first one
  /// after it, as the continuation line shows it; past the end is just past the last byte.
  static func locate(in bytes: [UInt8], lineStart: Int, line: Int, unfolded: Int)
    -> (offset: Int, position: SourcePosition)
  {
    var offset = lineStart
    var physicalStart = lineStart
    var lineNumber = line
    var remaining = unfolded
    let count = bytes.count
    while true {
      // At a line break: step over it, any empty lines, and the continuation's space or tab.
      if offset < count,
        bytes[offset] == 0x0A
          || (bytes[offset] == 0x0D && offset + 1 < count && bytes[offset + 1] == 0x0A)
      {
        var probe = offset
        var breaks = 0
        var lastStart = offset
        while probe < count {
          if bytes[probe] == 0x0D, probe + 1 < count, bytes[probe + 1] == 0x0A {
            probe += 2
          } else if bytes[probe] == 0x0A {
            probe += 1
          } else {
            break
          }
          breaks += 1
          lastStart = probe
        }
        guard breaks > 0, probe < count, bytes[probe] == 0x20 || bytes[probe] == 0x09 else {
          break  // the end of the content line
        }
        offset = probe + 1
        physicalStart = lastStart
        lineNumber += breaks
        continue
      }
      if remaining == 0 || offset >= count { break }
      offset += 1
      remaining -= 1
    }
    return (offset, SourcePosition(line: lineNumber, column: offset - physicalStart + 1))
  }

  /// The raw offset of the byte `unfolded` bytes into the content line starting at `lineStart`.
  static func rawOffset(in bytes: [UInt8], lineStart: Int, unfolded: Int) -> Int {
    locate(in: bytes, lineStart: lineStart, line: 1, unfolded: unfolded).offset
  }
}

/// A content line split into its parts, as offsets into its unfolded bytes.
struct ContentLineParts {
  /// One `;NAME=value[,value…]` parameter.
  struct Parameter {
    /// Where the name starts and ends.
    let name: Range<Int>
    /// Each value, quotes removed.
    let values: [Range<Int>]
    /// Where the first value starts (its opening quote, when quoted).
    let valueStart: Int
  }

  /// The name's end (it starts at 0).
  let nameEnd: Int
  /// The parameters in the order written (a malformed one skipped, when the line recovers).
  let parameters: [Parameter]
  /// Where the value starts (just after the colon).
  let valueStart: Int
  /// What was wrong but recovered from (a malformed parameter), as a kind and an offset.
  let recovered: [(LineFinding.Kind, Int)]

  /// Why a line has no parts: a kind and the offset of the problem.
  struct Failure: Error {
    let kinds: [(LineFinding.Kind, Int)]
  }

  /// Splits `line` (its unfolded bytes), RFC 5545 §3.1-3.2.
  static func parse(_ line: ArraySlice<UInt8>) -> Result<ContentLineParts, Failure> {
    var parser = PartsParser(text: line)
    return parser.run()
  }
}

private let colon = UInt8(ascii: ":")
private let semicolon = UInt8(ascii: ";")
private let comma = UInt8(ascii: ",")
private let equals = UInt8(ascii: "=")
private let quote = UInt8(ascii: "\"")

/// Whether a byte may be part of a name: letters, digits and `-` (RFC 5545 §3.1).
func isNameByte(_ byte: UInt8) -> Bool {
  switch byte {
  case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
    true
  default: false
  }
}

/// The parser behind ``ContentLineParts/parse(_:)``; offsets are from the line's first byte.
private struct PartsParser {
  let text: ArraySlice<UInt8>
  var recovered: [(LineFinding.Kind, Int)] = []

  init(text: ArraySlice<UInt8>) {
    self.text = text
  }

  subscript(offset: Int) -> UInt8 { text[text.startIndex + offset] }
  var count: Int { text.count }

  func string(_ range: Range<Int>) -> String {
    String(
      decoding: text[(text.startIndex + range.lowerBound)..<(text.startIndex + range.upperBound)],
      as: UTF8.self)
  }

  /// The offset of the first colon at or after `start` outside double quotes.
  func colonOutsideQuotes(from start: Int) -> Int? {
    var inQuotes = false
    var index = start
    while index < count {
      let byte = self[index]
      if byte == quote {
        inQuotes.toggle()
      } else if byte == colon && !inQuotes {
        return index
      }
      index += 1
    }
    return nil
  }

  mutating func run() -> Result<ContentLineParts, ContentLineParts.Failure> {
    var index = 0
    while index < count && isNameByte(self[index]) { index += 1 }
    let nameEnd = index
    guard index < count, self[index] == semicolon || self[index] == colon else {
      let hasColon = text.contains(colon)
      if !hasColon {
        return .failure(.init(kinds: [(.missingColon, nameEnd)]))
      } else if nameEnd == 0 {
        return .failure(.init(kinds: [(.emptyName, 0)]))
      } else {
        return .failure(.init(kinds: [(.invalidName(self[index]), index)]))
      }
    }
    guard nameEnd > 0 else { return .failure(.init(kinds: [(.emptyName, 0)])) }
    var parameters: [ContentLineParts.Parameter] = []
    while self[index] == semicolon {
      switch parseParameter(from: index + 1) {
      case .success(let (parameter, next)):
        parameters.append(parameter)
        index = next
      case .failure(let failure):
        guard let resume = failure.resume, let found = colonOutsideQuotes(from: resume) else {
          return .failure(.init(kinds: recovered + [(failure.kind, failure.offset)]))
        }
        recovered.append((failure.kind, failure.offset))
        index = found
      }
      if index >= count {
        return .failure(.init(kinds: recovered + [(.missingColon, count)]))
      }
    }
    return .success(
      ContentLineParts(
        nameEnd: nameEnd, parameters: parameters, valueStart: index + 1, recovered: recovered))
  }

  struct ParameterFailure: Error {
    let kind: LineFinding.Kind
    let offset: Int
    /// Where to look for the value's colon, or nil when the line cannot be recovered.
    let resume: Int?
  }

  /// Parses `NAME=value[,value…]` at `start`; returns it and the offset of the `;` or `:`
  /// after it (or the line's end).
  func parseParameter(from start: Int) -> Result<
    (ContentLineParts.Parameter, Int), ParameterFailure
  > {
    var index = start
    while index < count && isNameByte(self[index]) { index += 1 }
    func fail(_ why: String, at offset: Int, resume: Int?) -> Result<
      (ContentLineParts.Parameter, Int), ParameterFailure
    > {
      .failure(ParameterFailure(kind: .badParameter(why), offset: offset, resume: resume))
    }
    guard index > start else {
      return fail("expected a parameter name after ';'", at: index, resume: index)
    }
    let nameRange = start..<index
    let name = string(nameRange)
    guard index < count, self[index] == equals else {
      return fail("parameter \(name) has no '=' and value", at: index, resume: index)
    }
    index += 1
    let valueStart = index
    var values: [Range<Int>] = []
    while true {
      if index < count && self[index] == quote {
        let open = index
        index += 1
        while index < count && self[index] != quote { index += 1 }
        guard index < count else {
          return fail(
            "quoted value of parameter \(name) has no closing '\"'", at: open, resume: nil)
        }
        values.append((open + 1)..<index)
        index += 1
        if index < count, self[index] != semicolon, self[index] != colon, self[index] != comma {
          return fail(
            "unexpected character after the quoted value of parameter \(name)", at: index,
            resume: index)
        }
      } else {
        let first = index
        while index < count {
          let byte = self[index]
          if byte == semicolon || byte == colon || byte == comma || byte == quote { break }
          index += 1
        }
        if index < count && self[index] == quote {
          return fail(
            "'\"' inside a value of parameter \(name); quote the whole value", at: index,
            resume: index + 1)
        }
        values.append(first..<index)
      }
      guard index < count, self[index] == comma else { break }
      index += 1
    }
    let parameter = ContentLineParts.Parameter(
      name: nameRange, values: values, valueStart: valueStart)
    return .success((parameter, index))
  }
}
