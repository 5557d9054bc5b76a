import Foundation

/// Reads iCalendar bytes into ``ICalComponent`` trees with the ``ContentLineLexer``: the one
/// reader behind `upcoming`, `convert` and `validate`.
///
/// Components nest by their BEGIN and END lines, as libical nests them: an END closes the
/// innermost open component, or, when it names an open ancestor, that ancestor and what is open
/// inside it; components still open at the end of the data are closed there. Every property
/// keeps its value exactly as written and where its line starts, so ``SourceMap`` can place
/// each of its parts. A line that is no content line becomes a note in
/// ``ICalComponent/unreadable`` of the component it was in.
public enum ICalendarReader {
  /// The top-level components of `bytes` (UTF-8); throws when the data is not iCalendar at all
  /// (no BEGIN line, a NUL byte) or nests deeper than ``ComponentNesting/maximumDepth``.
  /// A large file is read in segments at once, as ``document(_:)`` reads it.
  public static func read(_ bytes: [UInt8]) throws(ICalendarSyntaxError) -> [ICalComponent] {
    try read(bytes, segmentBytes: defaultSegmentBytes)
  }

  /// ``read(_:)`` with segments of at least `segmentBytes` bytes.
  static func read(_ bytes: [UInt8], segmentBytes: Int) throws(ICalendarSyntaxError)
    -> [ICalComponent]
  {
    try refuseNUL(bytes)
    var builder = TreeBuilder(
      bytes: bytes, lint: false, scope: .everything)
    readInSegments(&builder, segmentBytes: segmentBytes)
    builder.run()
    return try roots(builder.roots, tooDeepAt: builder.tooDeepAt)
  }

  /// Throws when `bytes` holds a NUL byte: no text at all.
  private static func refuseNUL(_ bytes: [UInt8]) throws(ICalendarSyntaxError) {
    let nul = ByteSearch.firstOffset(of: 0, in: bytes, from: 0)
    if nul < bytes.count {
      throw ICalendarSyntaxError(
        line: bytes[..<nul].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) },
        message: "contains a NUL byte: this is not iCalendar text")
    }
  }

  /// The top-level components read; throws when reading stopped at a BEGIN nested too deep
  /// (on line `tooDeepAt`) or found no component.
  private static func roots(_ roots: [ICalComponent], tooDeepAt: Int?)
    throws(ICalendarSyntaxError) -> [ICalComponent]
  {
    if let line = tooDeepAt { throw ComponentNesting.tooDeep(line: line) }
    guard !roots.isEmpty else {
      throw ICalendarSyntaxError(line: 1, message: "no BEGIN line: this is not iCalendar data")
    }
    return roots
  }

  /// Everything in `bytes`, however broken, for `validate`: the tree, every problem the lexer
  /// found (`lint` ones included), and every problem with the nesting of components. A large
  /// file is read in segments at once (``ParallelWork``), each from a VEVENT's or VTODO's BEGIN
  /// line inside a top-level component; a segment that would not begin and end there in a
  /// reading in one pass is read again in one pass, so the document never depends on the split.
  public static func document(_ bytes: [UInt8]) -> ICalendarDocument {
    document(bytes, segmentBytes: defaultSegmentBytes)
  }

  /// ``document(_:)`` with segments of at least `segmentBytes` bytes.
  static func document(_ bytes: [UInt8], segmentBytes: Int) -> ICalendarDocument {
    var builder = TreeBuilder(
      bytes: bytes, lint: true, scope: .everything)
    readInSegments(&builder, segmentBytes: segmentBytes)
    builder.run()
    let findings = builder.lexer.findings.enumerated().sorted {
      ($0.element.position, $0.offset) < ($1.element.position, $1.offset)
    }.map(\.element)
    return ICalendarDocument(
      components: builder.tooDeepAt == nil ? builder.roots : [], findings: findings,
      structure: builder.problems, firstLine: builder.firstLine, source: SourceMap(bytes))
  }

  /// The smallest segment worth reading on its own.
  static let defaultSegmentBytes = 1 << 16

}
