/// Reads iCalendar text into ``ICalComponent`` values in Swift, in one pass over the bytes.
///
/// The fast path for reading many or large calendars (`alarmcal upcoming`): libical's parser
/// spends about 33 µs and 7 KB per event building a tree that is then copied out, while this
/// reader builds the Swift values directly. It reads content lines per RFC 5545 §3.1 (CRLF or
/// bare LF line ends, unfolding of a line end followed by one space or tab, a UTF-8 byte order
/// mark) and keeps every value exactly as written, for the value types' own parsers to read.
/// A line it cannot read becomes an `X-LIC-ERROR` property of its component, as libical marks
/// what it drops, so ``ICalComponent/libicalLosses`` reports both readers' losses alike.
public enum ICalendarReader {
  /// The top-level components of `bytes` (UTF-8), each with the physical line of its BEGIN.
  ///
  /// An END naming an open ancestor closes the components inside it; an END naming no open
  /// component is noted as lost; components still open at the end of the data are closed there.
  public static func read(_ bytes: [UInt8]) throws(ICalendarSyntaxError) -> [ICalComponent] {
    try read(bytes) { child, _, _ in child }
  }

  /// Reads like ``read(_:)``, but hands each child of a top-level component (the VEVENTs,
  /// VTODOs and VTIMEZONEs of a VCALENDAR) to `visit` as soon as it is complete, with its
  /// parent as read so far; the child stays in the returned tree only if `visit` gives it back.
  /// A caller can so use each event and let it go, and the whole tree of a large calendar never
  /// sits in memory.
  ///
  /// ``ChildSource`` says where the child came from, so ``readChild(_:from:)`` can read it again.
  public static func read(
    _ bytes: [UInt8],
    visit: (_ child: consuming ICalComponent, ChildSource, _ parent: ICalComponent) ->
      ICalComponent?
  ) throws(ICalendarSyntaxError) -> [ICalComponent] {
    if let nul = bytes.firstIndex(of: 0) {
      throw ICalendarSyntaxError(
        line: bytes[..<nul].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) },
        message: "contains a NUL byte: this is not iCalendar text")
    }
    let roots = withoutActuallyEscaping(visit) { visit in
      bytes.withUnsafeBufferPointer { buffer in
        var tree = TreeBuilder(visit: visit)
        var lines = UnfoldedLines(buffer)
        while tree.tooDeepAt == nil, let line = lines.next() { tree.add(line, buffer: buffer) }
        return (tree.finish(at: buffer.count), tree.tooDeepAt)
      }
    }
    if let line = roots.1 { throw ComponentNesting.tooDeep(line: line) }
    guard !roots.0.isEmpty else {
      throw ICalendarSyntaxError(line: 1, message: "no BEGIN line: this is not iCalendar data")
    }
    return roots.0
  }

  /// Reads one child again, from the bytes ``read(_:visit:)`` read it from: the same component,
  /// with the same line numbers and the same notes of what could not be read.
  public static func readChild(_ bytes: [UInt8], from source: ChildSource) -> ICalComponent? {
    guard source.range.lowerBound >= 0, source.range.upperBound <= bytes.count else { return nil }
    return bytes.withUnsafeBufferPointer { whole in
      let buffer = UnsafeBufferPointer(rebasing: whole[..<source.range.upperBound])
      // The child's parent is open around it, as it was, so an END naming the parent closes
      // both, exactly as in the first reading.
      var tree = TreeBuilder(visit: { child, _, _ in child })
      tree.open(ICalComponent(source.rootName, line: nil), at: 0)
      var lines = UnfoldedLines(buffer, from: source.range.lowerBound, line: source.line)
      while tree.tooDeepAt == nil, let line = lines.next() { tree.add(line, buffer: buffer) }
      return tree.finish(at: buffer.count).first?.components.first
    }
  }
}

/// Where a child of a top-level component lies in the text it was read from.
public struct ChildSource: Sendable {
  /// The bytes from the start of its BEGIN line to the end of the line that closed it.
  public let range: Range<Int>
  /// The physical line of its BEGIN.
  public let line: Int
  /// The name of the top-level component it belongs to, such as `VCALENDAR`.
  public let rootName: String
  /// That top-level component's position among the top-level components.
  public let rootIndex: Int

  /// Describes where a child lies.
  public init(range: Range<Int>, line: Int, rootName: String, rootIndex: Int) {
    self.range = range
    self.line = line
    self.rootName = rootName
    self.rootIndex = rootIndex
  }
}

/// One logical line: its bytes (unfolded) and the physical line it starts on.
private struct UnfoldedLine {
  /// Where the line lies in the input when it was not folded.
  var range: Range<Int>
  /// The unfolded bytes when it was folded (then `range` is unused).
  var unfolded: [UInt8]?
  let number: Int
}

/// Splits bytes into unfolded content lines (RFC 5545 §3.1).
private struct UnfoldedLines {
  let bytes: UnsafeBufferPointer<UInt8>
  var index: Int
  var number = 1

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    index = bytes.starts(with: bom) ? 3 : 0
  }

  /// Lines from `index`, which starts physical line `line`.
  init(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int, line: Int) {
    self.bytes = bytes
    self.index = index
    number = line
  }

  /// The end of the physical line starting at `start` (its CR LF or LF excluded) and where the
  /// next physical line starts.
  private func physicalLine(from start: Int) -> (end: Int, next: Int) {
    var end = start
    let count = bytes.count
    while end < count && bytes[end] != 0x0A { end += 1 }
    let next = end < count ? end + 1 : end
    if end > start && bytes[end - 1] == 0x0D { end -= 1 }
    return (end, next)
  }

  private func continues(at index: Int) -> Bool {
    index < bytes.count && (bytes[index] == 0x20 || bytes[index] == 0x09)
  }

  mutating func next() -> UnfoldedLine? {
    while index < bytes.count {
      let startNumber = number
      let start = index
      var (end, next) = physicalLine(from: start)
      number += 1
      var unfolded: [UInt8]?
      while continues(at: next) {
        if unfolded == nil { unfolded = Array(bytes[start..<end]) }
        let piece = physicalLine(from: next + 1)
        unfolded?.append(contentsOf: bytes[(next + 1)..<piece.end])
        end = piece.end
        next = piece.next
        number += 1
      }
      index = next
      if unfolded == nil && end == start { continue }  // an empty line holds nothing
      return UnfoldedLine(range: start..<end, unfolded: unfolded, number: startNumber)
    }
    return nil
  }
}

/// Splits one content line into name, parameters and value, and nests components.
private struct TreeBuilder {
  var stack: [ICalComponent] = []
  /// Where each open component's BEGIN line starts.
  var starts: [Int] = []
  var roots: [ICalComponent] = []
  /// The line of a BEGIN nested deeper than ``ComponentNesting/maximumDepth``; reading stops.
  var tooDeepAt: Int?
  /// Given each completed child of a top-level component; what it returns is kept.
  let visit: (consuming ICalComponent, ChildSource, ICalComponent) -> ICalComponent?

  init(visit: @escaping (consuming ICalComponent, ChildSource, ICalComponent) -> ICalComponent?) {
    self.visit = visit
  }

  mutating func open(_ component: ICalComponent, at start: Int) {
    stack.append(component)
    starts.append(start)
  }

  mutating func add(_ line: UnfoldedLine, buffer: UnsafeBufferPointer<UInt8>) {
    if let unfolded = line.unfolded {
      unfolded.withUnsafeBufferPointer {
        add(ContentLineBytes($0, 0..<$0.count), line.number, line.range)
      }
    } else {
      add(ContentLineBytes(buffer, line.range), line.number, line.range)
    }
  }

  private mutating func add(_ bytes: ContentLineBytes, _ number: Int, _ source: Range<Int>) {
    guard let property = bytes.property() else {
      lose("unreadable content line \(number): \(bytes.printablePrefix)")
      return
    }
    switch property.name {
    case "BEGIN":
      guard stack.count < ComponentNesting.maximumDepth else {
        tooDeepAt = number
        return
      }
      var component = ICalComponent(property.value.trimmingSpaces(), line: number)
      // Room for a typical event's properties at once, rather than growing 1, 2, 4, 8.
      component.properties.reserveCapacity(8)
      open(component, at: source.lowerBound)
    case "END":
      end(property.value.trimmingSpaces().asciiUppercased, number, at: source.upperBound)
    default:
      guard !stack.isEmpty else { return }  // a property outside every component belongs nowhere
      stack[stack.count - 1].properties.append(property)
    }
  }

  private mutating func end(_ name: String, _ number: Int, at end: Int) {
    guard stack.contains(where: { $0.name == name }) else {
      lose("END:\(name) on line \(number) closes no open component")
      return
    }
    while let last = stack.popLast() {
      attach(last, from: starts.removeLast(), to: end)
      if last.name == name { return }
    }
  }

  private mutating func attach(_ component: consuming ICalComponent, from start: Int, to end: Int) {
    switch stack.count {
    case 0:
      roots.append(component)
    case 1:
      let source = ChildSource(
        range: start..<end, line: component.line ?? 1, rootName: stack[0].name,
        rootIndex: roots.count)
      if let kept = visit(component, source, stack[0]) { stack[0].components.append(kept) }
    default:
      stack[stack.count - 1].components.append(component)
    }
  }

  private mutating func lose(_ note: String) {
    guard !stack.isEmpty else { return }
    stack[stack.count - 1].properties.append(ICalProperty("X-LIC-ERROR", note))
  }

  /// Closes what is still open at `end`, the end of the data, and returns the roots.
  mutating func finish(at end: Int) -> [ICalComponent] {
    while let last = stack.popLast() { attach(last, from: starts.removeLast(), to: end) }
    return roots
  }
}

/// The bytes of one unfolded content line.
private struct ContentLineBytes {
  let bytes: UnsafeBufferPointer<UInt8>
  let range: Range<Int>

  init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
    self.bytes = bytes
    self.range = range
  }

  /// The start of the line, readable on one terminal line, for loss notes.
  var printablePrefix: String {
    let prefix = bytes[range.lowerBound..<min(range.upperBound, range.lowerBound + 40)]
    return String(decoding: prefix.map { $0 < 0x20 || $0 == 0x7F ? 0x3F : $0 }, as: UTF8.self)
  }

  /// `name *(";" param) ":" value`, RFC 5545 §3.1; nil when there is no name or no colon.
  func property() -> ICalProperty? {
    var index = range.lowerBound
    let end = range.upperBound
    guard let name = token(&index) else { return nil }
    var parameters: [ICalParameter] = []
    while index < end && bytes[index] == UInt8(ascii: ";") {
      index += 1
      guard let parameterName = token(&index), index < end, bytes[index] == UInt8(ascii: "=")
      else { return nil }
      index += 1
      let valueStart = index
      var quoted = false
      while index < end {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          quoted.toggle()
        } else if !quoted && (byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":")) {
          break
        }
        index += 1
      }
      var valueRange = valueStart..<index
      if valueRange.count >= 2, bytes[valueStart] == UInt8(ascii: "\""),
        bytes[index - 1] == UInt8(ascii: "\"")
      {
        valueRange = (valueStart + 1)..<(index - 1)
      }
      parameters.append(ICalParameter(uppercasedName: parameterName, text(valueRange)))
    }
    guard index < end, bytes[index] == UInt8(ascii: ":") else { return nil }
    return ICalProperty(
      uppercasedName: name, text((index + 1)..<end), parameters: parameters)
  }

  /// An iana-token or x-name (letters, digits, hyphens), upper-cased; nil when empty.
  private func token(_ index: inout Int) -> String? {
    let start = index
    var hasLowercase = false
    while index < range.upperBound {
      let byte = bytes[index]
      if byte >= 0x61 && byte <= 0x7A {
        hasLowercase = true
      } else if !(byte >= 0x41 && byte <= 0x5A || byte >= 0x30 && byte <= 0x39 || byte == 0x2D) {
        break
      }
      index += 1
    }
    guard index > start else { return nil }
    guard hasLowercase else { return text(start..<index) }
    return String(
      decoding: bytes[start..<index].map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 },
      as: UTF8.self)
  }

  private func text(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }
}
