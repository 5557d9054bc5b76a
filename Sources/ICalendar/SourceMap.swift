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

/// Where the bytes of one file lie: byte offsets to lines and columns, and offsets into an
/// unfolded content line back to the physical line they came from (RFC 5545 §3.1 folding).
public struct SourceMap: Sendable {
  /// The file's bytes.
  public let bytes: [UInt8]
  /// The offset where each physical line starts (line 1 after a UTF-8 byte order mark).
  private let lineStarts: [Int]

  /// The map of `bytes`.
  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
    var starts = [bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0]
    var next = 0
    while case let end = ByteSearch.firstOffset(of: 0x0A, in: bytes, from: next), end < bytes.count
    {
      starts.append(end + 1)
      next = end + 1
    }
    lineStarts = starts
  }

  /// The line and column of the byte at `offset`.
  public func position(ofOffset offset: Int) -> SourcePosition {
    var low = 0
    var high = lineStarts.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle }
    }
    return SourcePosition(line: low + 1, column: offset - lineStarts[low] + 1)
  }

  /// Where the parts of the content line that starts at byte `start` lie (the line a
  /// property was read from: ``ICalProperty/sourceOffset``); nil when no content line that
  /// could be read starts there.
  public func layout(ofLineAt start: Int) -> ContentLineLayout? {
    let number = position(ofOffset: start).line
    var lexer = ContentLineLexer(bytes, from: start, line: number)
    guard let line = lexer.next(), line.start == start,
      case .success(let parts) = ContentLineParts.parse(line.bytes)
    else { return nil }
    return ContentLineLayout(lexer: lexer, line: line, parts: parts)
  }
}

/// Where the parts of one content line lie in the original (folded) file.
public struct ContentLineLayout {
  private let lexer: ContentLineLexer
  private let line: ContentLineLexer.Line
  private let parts: ContentLineParts

  init(lexer: ContentLineLexer, line: ContentLineLexer.Line, parts: ContentLineParts) {
    self.lexer = lexer
    self.line = line
    self.parts = parts
  }

  /// Where the name starts.
  public var name: SourcePosition { SourcePosition(line: line.number, column: 1) }

  /// Where the value starts (just after the colon).
  public var value: SourcePosition { lexer.position(in: line, parts.valueStart) }

  /// The position of the byte `offset` bytes into the value.
  public func position(ofValueOffset offset: Int) -> SourcePosition {
    lexer.position(in: line, parts.valueStart + offset)
  }

  /// Where the first value of the first parameter named `name` (case-insensitive) starts
  /// (its opening quote, when quoted); nil when there is none.
  public func parameterValue(_ name: String) -> SourcePosition? {
    let wanted = Array(name.uppercased().utf8)
    let base = line.bytes.startIndex
    for parameter in parts.parameters {
      let written = line.bytes[
        (base + parameter.name.lowerBound)..<(base + parameter.name.upperBound)]
      if written.count == wanted.count,
        zip(written, wanted).allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0) == $1 })
      {
        return lexer.position(in: line, parameter.valueStart)
      }
    }
    return nil
  }
}
