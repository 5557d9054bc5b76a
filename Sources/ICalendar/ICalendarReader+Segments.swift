import Foundation

/// Reading a large file in segments at once: for `document` and `read`.
extension ICalendarReader {
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
