import Foundation

/// Builds the tree from the lexer's lines.
struct TreeBuilder {
  /// Which components keep their properties.
  enum Scope {
    case everything
    /// Top-level components' own properties and VTIMEZONE subtrees only.
    case calendarsAndZones
  }

  let bytes: [UInt8]
  var lexer: ContentLineLexer
  let scope: Scope
  /// Takes each child of a top-level component as it is complete, instead of the tree keeping
  /// it; nil: the tree keeps it.
  let visit: ((consuming ICalComponent) -> Void)?
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
    visit: ((consuming ICalComponent) -> Void)? = nil
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
    visit: ((consuming ICalComponent) -> Void)? = nil
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
    until end: Int
  ) {
    self.bytes = bytes
    lexer = ContentLineLexer(bytes, lint: lint, from: start, line: line, until: end)
    scope = .everything
    visit = nil
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
      // Outside the scope, a calendar's child is an empty shell and not kept.
      if let visit {
        visit(component)
      } else if open.keeps {
        stack[0].components.append(component)
      }
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
