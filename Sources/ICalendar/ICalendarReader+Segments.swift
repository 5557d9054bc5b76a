import Foundation

/// Reading a large file in segments at once: for `document`, `read` and the scheduler.
extension ICalendarReader {
  /// `bytes` cut into segments whose children can be read at once, with no pass over the whole
  /// text first; nil unless the text is large, holds one top-level component that ends on its
  /// last line, and reads without a problem up to its first VEVENT or VTODO.
  package static func segments(_ bytes: [UInt8]) -> CalendarSegments? {
    guard ByteSearch.firstOffset(of: 0, in: bytes, from: 0) == bytes.count,
      let end = lastLineStart(bytes)
    else { return nil }
    let starts = segmentStarts(bytes, segmentBytes: defaultSegmentBytes).filter { $0 < end }
    guard starts.count > 1 else { return nil }
    var builder = TreeBuilder(
      bytes: bytes, lint: false, scope: .everything)
    builder.lexer.pause(at: starts[0])
    builder.readLines()
    guard builder.tooDeepAt == nil, builder.roots.isEmpty, builder.problems.isEmpty,
      let top = builder.openTopLevel, closes(bytes, from: end, top.name)
    else { return nil }
    return CalendarSegments(
      root: builder.segmentRead.top, top: top, starts: starts,
      lines: lineNumbers(at: starts, in: bytes), end: end)
  }

  /// Where the last line that is not empty starts, if the text ends with a line break after it.
  private static func lastLineStart(_ bytes: [UInt8]) -> Int? {
    var end = bytes.count
    while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
    guard end > 0, end < bytes.count else { return nil }
    var start = end
    while start > 0, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
    return start
  }

  /// Whether the line at `start` is exactly `END:` and `name`.
  private static func closes(_ bytes: [UInt8], from start: Int, _ name: String) -> Bool {
    var line = bytes[start...]
    while let last = line.last, last == 0x0A || last == 0x0D { line.removeLast() }
    return line.elementsEqual(("END:" + name).utf8)
  }

  /// Reads with `builder`, which has read nothing yet, the segments of a large file at once
  /// (``segmentStarts(_:segmentBytes:)``) and leaves it to read the rest: the last event and
  /// what follows it or, when a segment did not begin and end inside the one top-level
  /// component open, everything after the first.
  static func readInSegments(_ builder: inout TreeBuilder, segmentBytes: Int) {
    let bytes = builder.bytes
    let starts = segmentStarts(bytes, segmentBytes: segmentBytes)
    guard let first = starts.first, let last = starts.last, starts.count > 1 else { return }
    let lines = lineNumbers(at: starts, in: bytes)
    builder.lexer.pause(at: first)
    builder.readLines()
    var goOnFrom = 0
    if let top = builder.openTopLevel {
      let lint = builder.lexer.lint
      let ranges = (0..<(starts.count - 1)).map { ($0, starts[$0], starts[$0 + 1]) }
      let segments = ParallelWork.map(ranges) { index, start, end in
        var segment = TreeBuilder(
          bytes: bytes, lint: lint, inside: top, from: start, line: lines[index], until: end)
        segment.readLines()
        return segment.segmentRead
      }
      if segments.allSatisfy(\.stayedInside) {
        for segment in segments { builder.adopt(segment) }
        goOnFrom = starts.count - 1
      }
    }
    builder.lexer.resume(at: goOnFrom == 0 ? first : last, line: lines[goOnFrom])
  }

  /// The physical line (1-based) at each of `offsets` (ascending, each at a line's start).
  private static func lineNumbers(at offsets: [Int], in bytes: [UInt8]) -> [Int] {
    var numbers: [Int] = []
    numbers.reserveCapacity(offsets.count)
    var line = 1
    var next = 0
    for offset in offsets {
      while case let end = ByteSearch.firstOffset(of: 0x0A, in: bytes, from: next), end < offset {
        line += 1
        next = end + 1
      }
      numbers.append(line)
    }
    return numbers
  }

  /// Where `bytes` may be cut for ``document(_:segmentBytes:)``: offsets of physical lines that
  /// begin `BEGIN:VEVENT` or `BEGIN:VTODO`, the first and the last in the data and about one
  /// every `segmentBytes` bytes between them (at most four per processor); none when the data
  /// is too short to cut.
  static func segmentStarts(_ bytes: [UInt8], segmentBytes: Int) -> [Int] {
    let count = bytes.count
    let segments = min(
      4 * ProcessInfo.processInfo.activeProcessorCount, count / max(segmentBytes, 1))
    guard segments > 1, let first = beginLine(in: bytes, atOrAfter: 0) else { return [] }
    var last = first
    while let next = beginLine(in: bytes, atOrAfter: max(last + 1, count - segmentBytes)) {
      last = next
    }
    var starts = [first]
    for segment in 1..<segments {
      guard let start = beginLine(in: bytes, atOrAfter: count / segments * segment),
        start < last
      else { break }
      if start > starts[starts.count - 1] { starts.append(start) }
    }
    if last > starts[starts.count - 1] { starts.append(last) }
    return starts
  }

  /// The offset of the first physical line at or after `offset` that begins `BEGIN:VEVENT` or
  /// `BEGIN:VTODO` (then a line break), if any.
  private static func beginLine(in bytes: [UInt8], atOrAfter offset: Int) -> Int? {
    var start = offset
    if start > 0, bytes[start - 1] != 0x0A {
      start = ByteSearch.firstOffset(of: 0x0A, in: bytes, from: start) + 1
    }
    while start < bytes.count {
      if startsEventOrTask(bytes, at: start) { return start }
      start = ByteSearch.firstOffset(of: 0x0A, in: bytes, from: start) + 1
    }
    return nil
  }

  private static func startsEventOrTask(_ bytes: [UInt8], at start: Int) -> Bool {
    for word in ["BEGIN:VEVENT", "BEGIN:VTODO"] {
      let utf8 = word.utf8
      let end = start + utf8.count
      guard end < bytes.count, bytes[end] == 0x0D || bytes[end] == 0x0A else { continue }
      if bytes[start..<end].elementsEqual(utf8) { return true }
    }
    return false
  }
}

/// A large file of one top-level component, cut into segments at VEVENT and VTODO BEGIN lines
/// (as ``ICalendarReader/document(_:)`` cuts one), whose children can be read segment by
/// segment at once, after the top-level component's own properties and the children before the
/// first event (its VTIMEZONEs): ``ICalendarReader/segments(_:)``.
package struct CalendarSegments: Sendable {
  /// The top-level component as read up to its first VEVENT or VTODO.
  package let root: ICalComponent
  /// How many segments there are.
  package var count: Int { starts.count }
  private let top: TreeBuilder.OpenTopLevel
  /// Where each segment starts, on which line; the last ends at `end`, the END line of the
  /// top-level component.
  private let starts: [Int]
  private let lines: [Int]
  private let end: Int

  fileprivate init(
    root: ICalComponent, top: TreeBuilder.OpenTopLevel, starts: [Int], lines: [Int], end: Int
  ) {
    (self.root, self.top, self.starts, self.lines, self.end) = (root, top, starts, lines, end)
  }

  /// Reads segment `index` of `bytes`, handing each child but a VTIMEZONE to `visit` as it is
  /// complete, in file order. False when the segment does not read as the same lines would in
  /// one pass with only the top-level component open, without a problem in its structure, or
  /// when it holds a VTIMEZONE: then the file is to be read with
  /// ``ICalendarReader/calendarsAndZones(_:)``.
  package func read(
    _ index: Int, of bytes: [UInt8], visit: (_ child: consuming ICalComponent) -> Void
  ) -> Bool {
    let end = index + 1 < starts.count ? starts[index + 1] : self.end
    var holdsZone = false
    return withoutActuallyEscaping(visit) { visit in
      var builder = TreeBuilder(
        bytes: bytes, lint: false, inside: top, from: starts[index], line: lines[index],
        until: end,
        visit: { child in
          if child.name == "VTIMEZONE" { holdsZone = true } else { visit(child) }
        })
      builder.readLines()
      let read = builder.segmentRead
      return read.stayedInside && read.problems.isEmpty && read.top.unreadable.isEmpty
        && read.top.properties.isEmpty && !holdsZone
    }
  }
}
