/// Changes to iCalendar text made in place: content lines replaced, inserted or removed, and
/// every other byte left as it was (folding, order, unknown properties, line breaks).
///
/// Offsets are those of the text read (``ICalProperty/sourceOffset``,
/// ``ICalComponent/sourceRange``). New lines are folded at 75 octets (RFC 5545 §3.1) and end
/// the way the text's first line does, CRLF or LF.
public struct TextEdits {
  /// The text being edited.
  public let original: [UInt8]
  private var changes: [(range: Range<Int>, bytes: [UInt8])] = []
  private let lineBreak: [UInt8]

  /// Starts editing `original`.
  public init(_ original: [UInt8]) {
    self.original = original
    let firstBreak = original.firstIndex(of: 0x0A)
    let bare = firstBreak.map { $0 == 0 || original[$0 - 1] != 0x0D } ?? false
    lineBreak = bare ? [0x0A] : [0x0D, 0x0A]
  }

  /// The bytes of the content line that starts at `offset`: its continuation lines and its line
  /// break included.
  public func contentLine(at offset: Int) -> Range<Int> {
    var end = offset
    while end < original.count {
      guard let lineFeed = original[end...].firstIndex(of: 0x0A) else {
        return offset..<original.count
      }
      end = lineFeed + 1
      guard end < original.count, original[end] == 0x20 || original[end] == 0x09 else { break }
    }
    return offset..<end
  }

  /// The bytes of a component read from `range` (``ICalComponent/sourceRange``), with the line
  /// break after its END line.
  private func componentLines(_ range: Range<Int>) -> Range<Int> {
    var end = range.upperBound
    if end < original.count, original[end] == 0x0D { end += 1 }
    if end < original.count, original[end] == 0x0A { end += 1 }
    return range.lowerBound..<end
  }

  /// Replaces the content line that starts at `offset` with `lines` (none removes it).
  public mutating func replaceLine(at offset: Int, with lines: [ICalProperty]) {
    changes.append((contentLine(at: offset), text(of: lines)))
  }

  /// Inserts `lines` before the line that starts at `offset`.
  public mutating func insert(_ lines: [ICalProperty], before offset: Int) {
    changes.append((offset..<offset, text(of: lines)))
  }

  /// Inserts a component `name` before the line that starts at `offset`: `leading` lines, the
  /// content lines of this text at `copied` (each with its line break), then `trailing`.
  public mutating func insertComponent(
    _ name: String, leading: [ICalProperty], copying copied: [Range<Int>],
    trailing: [ICalProperty], before offset: Int
  ) {
    var bytes = Array("BEGIN:\(name)".utf8) + lineBreak
    bytes += text(of: leading)
    for range in copied { bytes += original[range] }
    bytes += text(of: trailing)
    bytes += Array("END:\(name)".utf8) + lineBreak
    changes.append((offset..<offset, bytes))
  }

  /// Where the END line of the component read from `range` starts.
  public func endLine(of range: Range<Int>) -> Int {
    original[range].lastIndex(of: 0x0A).map { $0 + 1 } ?? range.lowerBound
  }

  /// Where the line after the last of `component`'s own properties starts (after its BEGIN line
  /// when it has none): where a new property goes.
  public func afterProperties(of component: ICalComponent) -> Int? {
    if let last = component.properties.last(where: { $0.sourceOffset != nil }),
      let offset = last.sourceOffset
    {
      return contentLine(at: offset).upperBound
    }
    return component.sourceRange.map { contentLine(at: $0.lowerBound).upperBound }
  }

  /// Removes the component read from `range`, with the line break after it.
  public mutating func removeComponent(_ range: Range<Int>) {
    changes.append((componentLines(range), []))
  }

  /// Replaces the bytes of `range` (an empty range: inserts there) with `bytes` as they are.
  public mutating func replace(_ range: Range<Int>, with bytes: [UInt8]) {
    changes.append((range, bytes))
  }

  /// The edited text.
  public func applied() -> [UInt8] {
    // Insertions at one offset keep the order they were made in.
    let ordered = changes.enumerated().sorted {
      ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset)
    }
    var result: [UInt8] = []
    result.reserveCapacity(original.count + ordered.reduce(0) { $0 + $1.element.bytes.count })
    var position = 0
    for (_, change) in ordered {
      let start = max(change.range.lowerBound, position)
      result += original[position..<start]
      result += change.bytes
      position = max(position, change.range.upperBound)
    }
    result += original[position...]
    return result
  }

  private func text(of lines: [ICalProperty]) -> [UInt8] {
    var printer = ICalendarPrinter()
    for line in lines { printer.write(line) }
    let bytes = printer.takeBytes()
    guard lineBreak == [0x0A] else { return bytes }
    var lf: [UInt8] = []
    lf.reserveCapacity(bytes.count)
    for (index, byte) in bytes.enumerated()
    where !(byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A) {
      lf.append(byte)
    }
    return lf
  }
}
