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
      bytes: bytes, lint: false, scope: .everything, visit: { child, _, _ in child })
    readInSegments(&builder, segmentBytes: segmentBytes)
    builder.run()
    return try roots(builder.roots, tooDeepAt: builder.tooDeepAt)
  }

  /// Reads like ``read(_:)``, but hands each child of a top-level component (the VEVENTs,
  /// VTODOs and VTIMEZONEs of a VCALENDAR) to `visit` as soon as it is complete, with the index
  /// of its top-level component and that component as read so far; the child stays in the tree
  /// only if `visit` gives it back. A caller can so use each event and let it go.
  public static func read(
    _ bytes: [UInt8],
    visit: (_ child: consuming ICalComponent, _ rootIndex: Int, _ root: ICalComponent) ->
      ICalComponent?
  ) throws(ICalendarSyntaxError) -> [ICalComponent] {
    try refuseNUL(bytes)
    let (roots, tooDeepAt) = withoutActuallyEscaping(visit) { visit in
      var builder = TreeBuilder(bytes: bytes, lint: false, scope: .everything, visit: visit)
      builder.run()
      return (builder.roots, builder.tooDeepAt)
    }
    return try Self.roots(roots, tooDeepAt: tooDeepAt)
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

  /// The top-level components of `bytes` with only their own properties and their VTIMEZONE
  /// children (the times a calendar's events are read in), and how many children each has;
  /// nil when ``read(_:)`` would throw. Much cheaper than a full read: lines other than BEGIN
  /// and END are passed over unread outside what is kept.
  public static func calendarsAndZones(_ bytes: [UInt8]) -> CalendarOutline? {
    guard ByteSearch.firstOffset(of: 0, in: bytes, from: 0) == bytes.count else { return nil }
    var builder = TreeBuilder(
      bytes: bytes, lint: false, scope: .calendarsAndZones, visit: { child, _, _ in child })
    builder.run()
    guard builder.tooDeepAt == nil, !builder.roots.isEmpty else { return nil }
    return CalendarOutline(
      roots: builder.roots, childStarts: builder.childStarts)
  }

  /// `bytes` cut into segments whose children can be read at once, with no pass over the whole
  /// text first; nil unless the text is large, holds one top-level component that ends on its
  /// last line, and reads without a problem up to its first VEVENT or VTODO.
  public static func segments(_ bytes: [UInt8]) -> CalendarSegments? {
    guard ByteSearch.firstOffset(of: 0, in: bytes, from: 0) == bytes.count,
      let end = lastLineStart(bytes)
    else { return nil }
    let starts = segmentStarts(bytes, segmentBytes: defaultSegmentBytes).filter { $0 < end }
    guard starts.count > 1 else { return nil }
    var builder = TreeBuilder(
      bytes: bytes, lint: false, scope: .everything, visit: { child, _, _ in child })
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

  /// Reads children `range` of top-level component `root` of `outline` (read from `bytes`)
  /// whole, handing each to `visit` as it is complete, in file order: the same components a
  /// full read gives, so that a large calendar can be read in pieces at once
  /// (``ParallelWork``).
  public static func children(
    _ range: Range<Int>, of root: Int, in outline: CalendarOutline, bytes: [UInt8],
    visit: (_ child: consuming ICalComponent) -> Void
  ) {
    guard !range.isEmpty else { return }
    withoutActuallyEscaping(visit) { visit in
      var builder = TreeBuilder(
        bytes: bytes, inside: outline.roots[root],
        from: outline.childStarts[root][range.lowerBound],
        children: range.count,
        visit: { child, _, _ in
          visit(child)
          return nil
        })
      builder.run()
    }
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
      bytes: bytes, lint: true, scope: .everything, visit: { child, _, _ in child })
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

  /// Reads with `builder`, which has read nothing yet, the segments of a large file at once
  /// (``segmentStarts(_:segmentBytes:)``) and leaves it to read the rest: the last event and
  /// what follows it or, when a segment did not begin and end inside the one top-level
  /// component open, everything after the first.
  private static func readInSegments(_ builder: inout TreeBuilder, segmentBytes: Int) {
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
public struct CalendarSegments: Sendable {
  /// The top-level component as read up to its first VEVENT or VTODO.
  public let root: ICalComponent
  /// How many segments there are.
  public var count: Int { starts.count }
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
  public func read(
    _ index: Int, of bytes: [UInt8], visit: (_ child: consuming ICalComponent) -> Void
  ) -> Bool {
    let end = index + 1 < starts.count ? starts[index + 1] : self.end
    var holdsZone = false
    return withoutActuallyEscaping(visit) { visit in
      var builder = TreeBuilder(
        bytes: bytes, lint: false, inside: top, from: starts[index], line: lines[index],
        until: end,
        visit: { child, _, _ in
          if child.name == "VTIMEZONE" { holdsZone = true } else { visit(child) }
          return nil
        })
      builder.readLines()
      let read = builder.segmentRead
      return read.stayedInside && read.problems.isEmpty && read.top.unreadable.isEmpty
        && read.top.properties.isEmpty && !holdsZone
    }
  }
}

/// The top-level components of a file with their own properties and VTIMEZONEs only
/// (``ICalendarReader/calendarsAndZones(_:)``).
public struct CalendarOutline: Sendable {
  /// The top-level components.
  public let roots: [ICalComponent]
  /// Where each child of each top-level component begins.
  let childStarts: [[ChildStart]]
  /// How many children each top-level component has (kept or not).
  public var childCounts: [Int] { childStarts.map(\.count) }

  /// The children of the top-level components in runs to read at once
  /// (``ICalendarReader/children(_:of:in:bytes:visit:)``), in file order: each component's
  /// children in runs of about equal length, at least `minimum` long unless the component has
  /// fewer, and about four runs per processor in all, so that no processor waits long for
  /// another.
  public func pieces(minimum: Int = 1_000) -> [(root: Int, children: Range<Int>)] {
    let total = childCounts.reduce(0, +)
    let length = ParallelWork.runs(of: total, minimum: minimum).first?.count ?? 1
    var pieces: [(root: Int, children: Range<Int>)] = []
    for (root, count) in childCounts.enumerated() where count > 0 {
      let runs = max(1, count / length)
      for run in 0..<runs {
        pieces.append((root, (count * run / runs)..<(count * (run + 1) / runs)))
      }
    }
    return pieces
  }
}

/// Where a child of a top-level component begins: its BEGIN line.
struct ChildStart: Sendable {
  /// The offset of the line's first byte.
  let offset: Int
  /// The line's number (1-based).
  let line: Int
}

/// Why a text could not be read as iCalendar.
public struct ICalendarSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The physical line (1-based) where the problem was found.
  public let line: Int
  /// What is wrong.
  public let message: String

  /// Creates an error.
  public init(line: Int, message: String) {
    self.line = line
    self.message = message
  }

  /// `line N: message`.
  public var description: String { "line \(line): \(message)" }
}

/// A whole file as `validate` reads it.
public struct ICalendarDocument: Sendable {
  /// The top-level components (none when the nesting went too deep to be a calendar).
  public let components: [ICalComponent]
  /// The problems in content lines, in file order.
  public let findings: [LineFinding]
  /// The problems with BEGIN and END lines and with lines outside every component, in the
  /// order met.
  public let structure: [StructureProblem]
  /// Where the first content line that could be read starts; nil when none could.
  public let firstLine: SourcePosition?
  /// Where the file's bytes lie, to place the parts of a property.
  public let source: SourceMap
}

/// A problem with how components nest, where it was met.
public struct StructureProblem: Equatable, Sendable {
  /// What is wrong; names are as written in the file.
  public enum Kind: Equatable, Sendable {
    /// `END:name` closes nothing: no component is open.
    case endWithoutBegin(name: String)
    /// `END:name` names neither the open component `open` (BEGIN on `openLine`) nor any
    /// component around it; it closes `open` all the same.
    case mismatchedEnd(name: String, open: String, openLine: Int)
    /// `BEGIN:name` is never closed; `closedBy` is the END of an outer component that closed
    /// it (its name and line), nil when the data ended first.
    case neverClosed(name: String, closedBy: (name: String, line: Int)?)
    /// A BEGIN nested deeper than ``ComponentNesting/maximumDepth``; reading stopped there.
    case tooDeep
    /// A property outside every component (its name).
    case outsideComponent(name: String)

    /// Equal in kind and in every name and line they carry.
    public static func == (a: Kind, b: Kind) -> Bool {
      switch (a, b) {
      case (.endWithoutBegin(let x), .endWithoutBegin(let y)): x == y
      case (.mismatchedEnd(let x1, let x2, let x3), .mismatchedEnd(let y1, let y2, let y3)):
        x1 == y1 && x2 == y2 && x3 == y3
      case (.neverClosed(let x, let xc), .neverClosed(let y, let yc)):
        x == y && xc?.name == yc?.name && xc?.line == yc?.line
      case (.tooDeep, .tooDeep): true
      case (.outsideComponent(let x), .outsideComponent(let y)): x == y
      default: false
      }
    }
  }

  /// What is wrong.
  public let kind: Kind
  /// Where: the name of the BEGIN or END line, or the value of a mismatched END.
  public let position: SourcePosition
}

/// Builds the tree from the lexer's lines.
private struct TreeBuilder {
  /// Which components keep their properties.
  enum Scope {
    case everything
    /// Top-level components' own properties and VTIMEZONE subtrees only.
    case calendarsAndZones
  }

  let bytes: [UInt8]
  var lexer: ContentLineLexer
  let scope: Scope
  let visit: (consuming ICalComponent, Int, ICalComponent) -> ICalComponent?
  var roots: [ICalComponent] = []
  /// Where each child of each of `roots` begins (recorded for ``Scope/calendarsAndZones``).
  var childStarts: [[ChildStart]] = []
  private var openRootChildStarts: [ChildStart] = []
  /// For a builder reading some children of one top-level component: how many are left.
  private var childrenLeft = Int.max
  /// Whether this builder reads some children of one top-level component, not a whole file.
  private var readsChildren = false
  var problems: [StructureProblem] = []
  /// The line of a BEGIN nested deeper than ``ComponentNesting/maximumDepth``; reading stopped.
  var tooDeepAt: Int?
  /// Where the first content line that could be read starts.
  var firstLine: SourcePosition?
  /// The open components, with the BEGIN line as written and where it starts.
  private var stack: [ICalComponent] = []
  private var opened: [(written: String, line: Int, start: Int, keeps: Bool)] = []
  /// How many properties the last component closed at each depth had: the capacity to reserve
  /// for the next one (a calendar's events tend to look alike).
  private var propertiesAtDepth = [Int](repeating: 0, count: ComponentNesting.maximumDepth)

  init(
    bytes: [UInt8], lint: Bool, scope: Scope,
    visit: @escaping (consuming ICalComponent, Int, ICalComponent) -> ICalComponent?
  ) {
    self.bytes = bytes
    lexer = ContentLineLexer(bytes, lint: lint)
    self.scope = scope
    self.visit = visit
  }

  /// A builder that reads `children` children of the top-level component `root`, the first of
  /// them beginning at `start`, and stops after them (or where `root` ends).
  init(
    bytes: [UInt8], inside root: ICalComponent, from start: ChildStart, children: Int,
    visit: @escaping (consuming ICalComponent, Int, ICalComponent) -> ICalComponent?
  ) {
    self.bytes = bytes
    lexer = ContentLineLexer(bytes, from: start.offset, line: start.line)
    scope = .everything
    self.visit = visit
    // The shell of the top-level component, which keeps nothing of its own.
    stack = [ICalComponent(root.name, line: root.line)]
    opened = [(root.name, root.line ?? 1, 0, false)]
    childrenLeft = children
    readsChildren = true
  }

  /// The top-level component open where a builder paused, when it is the only one open.
  struct OpenTopLevel: Sendable {
    let name: String
    /// Its BEGIN line's value as written, its number and where it starts.
    let written: String
    let line: Int
    let start: Int
  }

  /// What a builder that read one segment inside a top-level component found.
  struct SegmentRead: Sendable {
    /// Whether it stayed inside the top-level component and ended at its level, as it began.
    let stayedInside: Bool
    /// The top-level component's properties, children and unreadable lines in the segment.
    let top: ICalComponent
    let problems: [StructureProblem]
    let lexer: ContentLineLexer
    let firstLine: SourcePosition?
  }

  /// A builder that reads the lines from `start` (on physical line `line`) to
  /// `end` inside the top-level component `top`, as a reading in one pass would read them
  /// there if `top` were the only component open.
  init(
    bytes: [UInt8], lint: Bool, inside top: OpenTopLevel, from start: Int, line: Int,
    until end: Int,
    visit: @escaping (consuming ICalComponent, Int, ICalComponent) -> ICalComponent? = {
      child, _, _ in child
    }
  ) {
    self.bytes = bytes
    lexer = ContentLineLexer(bytes, lint: lint, from: start, line: line, until: end)
    scope = .everything
    self.visit = visit
    var shell = ICalComponent("", line: top.line)
    shell.name = top.name
    stack = [shell]
    opened = [(top.written, top.line, top.start, true)]
    readsChildren = true
  }

  /// The top-level component open now, if it is the only component open and reading did not
  /// stop at a BEGIN nested too deep.
  var openTopLevel: OpenTopLevel? {
    guard tooDeepAt == nil, stack.count == 1, opened.count == 1, opened[0].keeps else {
      return nil
    }
    return OpenTopLevel(
      name: stack[0].name, written: opened[0].written, line: opened[0].line,
      start: opened[0].start)
  }

  /// What this builder, made with ``init(bytes:lint:inside:from:line:until:)``, read.
  var segmentRead: SegmentRead {
    SegmentRead(
      stayedInside: openTopLevel != nil, top: stack.first ?? ICalComponent(""),
      problems: problems, lexer: lexer, firstLine: firstLine)
  }

  /// Takes in a segment read just after where this builder paused, inside its one open
  /// top-level component: as if this builder had read its lines.
  mutating func adopt(_ segment: SegmentRead) {
    stack[0].properties += segment.top.properties
    stack[0].components += segment.top.components
    stack[0].unreadable += segment.top.unreadable
    problems += segment.problems
    lexer.adopt(segment.lexer)
    if firstLine == nil { firstLine = segment.firstLine }
  }

  mutating func run() {
    readLines()
    finish()
  }

  /// Reads lines until the lexer gives no more (at the end of the data or where it pauses), a
  /// BEGIN nests too deep, or the children to read are read.
  mutating func readLines() {
    while tooDeepAt == nil, childrenLeft > 0,
      let line = lexer.next(structureOnly: !(opened.last?.keeps ?? true))
    {
      if let nameEnd = Self.nameEndBeforeColon(line.bytes) {
        if firstLine == nil { firstLine = SourcePosition(line: line.number, column: 1) }
        add(line, nameEnd: nameEnd, valueStart: nameEnd + 1, parts: nil)
        continue
      }
      switch ContentLineParts.parse(line.bytes) {
      case .success(let parts):
        if firstLine == nil { firstLine = SourcePosition(line: line.number, column: 1) }
        for (kind, offset) in parts.recovered {
          lexer.noteRecovered(LineFinding(kind, at: lexer.position(in: line, offset)))
        }
        add(line, nameEnd: parts.nameEnd, valueStart: parts.valueStart, parts: parts)
      case .failure(let failure):
        for (kind, offset) in failure.kinds {
          lexer.noteLost(LineFinding(kind, at: lexer.position(in: line, offset)))
        }
        note("unreadable content line \(line.number): \(Self.printablePrefix(line.bytes))")
      }
    }
  }

  /// Closes what is still open at the end of the data.
  mutating func finish() {
    if tooDeepAt != nil {
      stack.removeAll()
      return
    }
    for open in opened.reversed() {
      problems.append(
        StructureProblem(
          kind: .neverClosed(name: open.written, closedBy: nil),
          position: SourcePosition(line: open.line, column: 1)))
    }
    while !stack.isEmpty { close(at: bytes.count) }
  }

  /// The start of a line, readable on one terminal line, for notes.
  static func printablePrefix(_ bytes: ArraySlice<UInt8>) -> String {
    String(
      decoding: bytes.prefix(40).map { $0 < 0x20 || $0 == 0x7F ? 0x3F : $0 }, as: UTF8.self)
  }

  /// The end of the name of a line with no parameters (`NAME:value`), whose parts need no
  /// further parsing; nil for any other line (``ContentLineParts/parse(_:)`` reads those).
  private static func nameEndBeforeColon(_ text: ArraySlice<UInt8>) -> Int? {
    var index = text.startIndex
    while index < text.endIndex, isNameByte(text[index]) { index += 1 }
    guard index > text.startIndex, index < text.endIndex, text[index] == UInt8(ascii: ":") else {
      return nil
    }
    return index - text.startIndex
  }

  /// Adds a line that could be read: its name ends at `nameEnd` and its value starts at
  /// `valueStart`; `parts` has its parameters (nil when it has none).
  private mutating func add(
    _ line: ContentLineLexer.Line, nameEnd: Int, valueStart: Int, parts: ContentLineParts?
  ) {
    let text = line.bytes
    let base = text.startIndex
    let name = text[base..<(base + nameEnd)]
    if Self.spells(name, "BEGIN") {
      begin(String(decoding: text[(base + valueStart)...], as: UTF8.self), line: line)
    } else if Self.spells(name, "END") {
      let value = text[(base + valueStart)...]
      if !stack.isEmpty, Self.closes(value, stack[stack.count - 1].name) {
        close(at: line.end)
      } else {
        end(String(decoding: value, as: UTF8.self), line: line, valueStart: valueStart)
      }
    } else if stack.isEmpty {
      problems.append(
        StructureProblem(
          kind: .outsideComponent(name: String(decoding: name, as: UTF8.self)),
          position: SourcePosition(line: line.number, column: 1)))
    } else if opened[opened.count - 1].keeps {
      stack[stack.count - 1].properties.append(
        Self.property(line, nameEnd: nameEnd, valueStart: valueStart, parts: parts))
    }
  }

  /// Whether `name` spells `word` (upper case), ignoring ASCII case.
  private static func spells(_ name: ArraySlice<UInt8>, _ word: StaticString) -> Bool {
    guard name.count == word.utf8CodeUnitCount else { return false }
    return word.withUTF8Buffer { wanted in
      var index = name.startIndex
      for byte in wanted {
        if name[index] & 0xDF != byte { return false }
        index += 1
      }
      return true
    }
  }

  /// Whether an END line's value, as written, is `name` (upper case, ASCII) in any case,
  /// trailing spaces and tabs ignored; false also when it holds other than ASCII (``end``
  /// then compares it the slow way).
  private static func closes(_ value: ArraySlice<UInt8>, _ name: String) -> Bool {
    var end = value.endIndex
    while end > value.startIndex, value[end - 1] == 0x20 || value[end - 1] == 0x09 { end -= 1 }
    let written = value[value.startIndex..<end]
    return name.utf8.withContiguousStorageIfAvailable { wanted in
      guard written.count == wanted.count else { return false }
      var index = written.startIndex
      for byte in wanted {
        let found = written[index]
        guard found < 0x80, (found >= 0x61 && found <= 0x7A ? found - 0x20 : found) == byte else {
          return false
        }
        index += 1
      }
      return true
    } ?? false
  }

  private mutating func begin(_ written: String, line: ContentLineLexer.Line) {
    guard stack.count < ComponentNesting.maximumDepth else {
      tooDeepAt = line.number
      problems.append(
        StructureProblem(kind: .tooDeep, position: SourcePosition(line: line.number, column: 1)))
      return
    }
    if stack.count == 1, scope == .calendarsAndZones {
      openRootChildStarts.append(ChildStart(offset: line.start, line: line.number))
    }
    var component = ICalComponent(written.trimmingSpaces(), line: line.number)
    component.sourceRange = line.start..<line.end
    let keeps =
      switch scope {
      case .everything: true
      case .calendarsAndZones: stack.isEmpty || isInZone(component.name)
      }
    if keeps { component.properties.reserveCapacity(propertiesAtDepth[stack.count]) }
    stack.append(component)
    opened.append((written, line.number, line.start, keeps))
  }

  /// Whether a component named `name` opened now lies in a VTIMEZONE (is one, or is inside
  /// one).
  private func isInZone(_ name: String) -> Bool {
    if stack.count == 1 { return name == "VTIMEZONE" }
    return stack.count >= 2 && stack[1].name == "VTIMEZONE"
  }

  private mutating func end(_ written: String, line: ContentLineLexer.Line, valueStart: Int) {
    let name = written.trimmingSpaces().asciiUppercased
    guard let top = stack.last else {
      problems.append(
        StructureProblem(
          kind: .endWithoutBegin(name: written),
          position: SourcePosition(line: line.number, column: 1)))
      return
    }
    if top.name != name {
      if stack.contains(where: { $0.name == name }) {
        // The END closes an outer component: what is open inside it was never closed.
        while let inner = stack.last, inner.name != name {
          let open = opened[opened.count - 1]
          problems.append(
            StructureProblem(
              kind: .neverClosed(name: open.written, closedBy: (written, line.number)),
              position: SourcePosition(line: open.line, column: 1)))
          close(at: line.end)
        }
      } else {
        let open = opened[opened.count - 1]
        problems.append(
          StructureProblem(
            kind: .mismatchedEnd(name: written, open: open.written, openLine: open.line),
            position: lexer.position(in: line, valueStart)))
      }
    }
    close(at: line.end)
  }

  /// Closes the innermost open component, which ends at `end`.
  private mutating func close(at end: Int) {
    guard var component = stack.popLast() else { return }
    let open = opened.removeLast()
    component.sourceRange = open.start..<end
    propertiesAtDepth[stack.count] = component.properties.count
    switch stack.count {
    case 0 where readsChildren:
      childrenLeft = 0
    case 0:
      roots.append(component)
      if scope == .calendarsAndZones {
        childStarts.append(openRootChildStarts)
        openRootChildStarts = []
      }
    case 1:
      childrenLeft -= 1
      // Outside the scope, a calendar's child is visited as an empty shell and not kept.
      let kept = visit(component, roots.count, stack[0])
      if open.keeps, let kept { stack[0].components.append(kept) }
    default:
      // A component no one keeps needs no children.
      if opened[opened.count - 1].keeps { stack[stack.count - 1].components.append(component) }
    }
  }

  private mutating func note(_ text: String) {
    guard !stack.isEmpty else { return }
    stack[stack.count - 1].unreadable.append(text)
  }

  /// A property from a parsed line: name and parameter names upper-cased, values as written.
  private static func property(
    _ line: ContentLineLexer.Line, nameEnd: Int, valueStart: Int, parts: ContentLineParts?
  ) -> ICalProperty {
    let text = line.bytes
    let base = text.startIndex
    var parameters: [ICalParameter] = []
    if let parts, !parts.parameters.isEmpty {
      parameters.reserveCapacity(parts.parameters.count)
      for parameter in parts.parameters {
        let name = uppercased(
          text[(base + parameter.name.lowerBound)..<(base + parameter.name.upperBound)])
        var value = ""
        for (index, range) in parameter.values.enumerated() {
          if index > 0 { value += "," }
          value += String(
            decoding: text[(base + range.lowerBound)..<(base + range.upperBound)], as: UTF8.self)
        }
        parameters.append(ICalParameter(uppercasedName: name, value))
      }
    }
    return ICalProperty(
      uppercasedName: uppercased(text[base..<(base + nameEnd)]),
      String(decoding: text[(base + valueStart)...], as: UTF8.self),
      parameters: parameters, sourceOffset: line.start)
  }

  /// An ASCII name upper-cased, without an intermediate array when it already is.
  private static func uppercased(_ name: ArraySlice<UInt8>) -> String {
    guard name.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) else {
      return String(decoding: name, as: UTF8.self)
    }
    return String(decoding: name.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
  }
}

extension String {
  func trimmingSpaces() -> String {
    guard let last = utf8.last, last == 0x20 || last == 0x09 else { return self }
    var scalars = Substring(self)
    while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
    return String(scalars)
  }
}
