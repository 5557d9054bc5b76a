import CLibical
import ICalendar

/// Parses iCalendar text with libical and copies the tree out as ``ICalComponent`` values: the
/// reference alarmcal's own reader (``ICalendarReader``) is compared with.
public enum LibicalReader {
  /// The top-level components of `text` (normally one or more VCALENDARs), each with the line of
  /// its BEGIN, the lines of nested components, and libical's X-LIC-ERROR notes kept as properties.
  public static func parse(_ text: String) throws(ICalendarSyntaxError) -> [ICalComponent] {
    _ = LibicalText.configured
    // A UTF-8 byte order mark is not part of the first line (RFC 5545 §3.1.4 allows UTF-8 only).
    let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    let begins = BeginLine.scan(text)
    guard let first = begins.first else {
      throw ICalendarSyntaxError(line: 1, message: "no BEGIN line: this is not iCalendar data")
    }
    if text.utf8.contains(0) {
      throw ICalendarSyntaxError(
        line: lineOfFirstNUL(text), message: "contains a NUL byte: this is not iCalendar text")
    }
    if let line = BeginLine.firstTooDeep(text) { throw ComponentNesting.tooDeep(line: line) }
    clibical_clear_errno()
    guard let root = parseWithLibical(text) else {
      throw ICalendarSyntaxError(
        line: first.line, message: "libical could not read any component from this data")
    }
    defer { icalcomponent_free(root) }
    var lines = LineCursor(iterator: begins.makeIterator())
    if icalcomponent_isa(root) == ICAL_XROOT_COMPONENT {
      var children: [ICalComponent] = []
      var it = icalcomponent_begin_component(root, ICAL_ANY_COMPONENT)
      while let child = icalcompiter_deref(&it) {
        children.append(snapshot(child, lines: &lines))
        _ = icalcompiter_next(&it)
      }
      return children
    }
    return [snapshot(root, lines: &lines)]
  }

  /// libical's tree of `text`; nil when libical reads no component.
  private static func parseWithLibical(_ text: String) -> OpaquePointer? {
    icalparser_parse_string(text)
  }

  private static func lineOfFirstNUL(_ text: String) -> Int {
    var line = 1
    for byte in text.utf8 {
      if byte == 0 { break }
      if byte == UInt8(ascii: "\n") { line += 1 }
    }
    return line
  }

  /// Hands out BEGIN lines in document order, matching them to components by name.
  struct LineCursor {
    var iterator: IndexingIterator<[BeginLine]>

    mutating func next(named name: String) -> BeginLine? {
      // libical keeps components in document order, so the next BEGIN is this component's,
      // unless libical dropped something; then skip ahead to the next BEGIN of this name.
      // When no BEGIN has that name (libical misnames some kinds), take the next one.
      var probe = iterator
      while let candidate = probe.next() {
        if candidate.name == name {
          iterator = probe
          return candidate
        }
      }
      return iterator.next()
    }
  }

  private static func snapshot(_ raw: OpaquePointer, lines: inout LineCursor) -> ICalComponent {
    let kind = icalcomponent_isa(raw)
    // libical has no name for kinds it does not know (VLOCATION, PARTICIPANT, ...): NULL.
    var name = icalcomponent_kind_to_string(kind).map { String(cString: $0) } ?? ""
    let begin: BeginLine?
    if kind == ICAL_X_COMPONENT || name.isEmpty {
      begin = lines.iterator.next()
      name = begin?.name ?? "X-UNKNOWN"
    } else {
      begin = lines.next(named: name)
    }
    var component = ICalComponent(name, line: begin?.line)
    var property = icalcomponent_get_first_property(raw, ICAL_ANY_PROPERTY)
    while let current = property {
      component.properties.append(snapshotProperty(current))
      property = icalcomponent_get_next_property(raw, ICAL_ANY_PROPERTY)
    }
    var it = icalcomponent_begin_component(raw, ICAL_ANY_COMPONENT)
    while let child = icalcompiter_deref(&it) {
      component.components.append(snapshot(child, lines: &lines))
      _ = icalcompiter_next(&it)
    }
    return component
  }

  private static func snapshotProperty(_ raw: OpaquePointer) -> ICalProperty {
    let name = LibicalText.take(icalproperty_get_property_name_r(raw)) ?? "X-UNKNOWN"
    let value = LibicalText.take(icalproperty_get_value_as_string_r(raw)) ?? ""
    var parameters: [ICalParameter] = []
    var parameter = icalproperty_get_first_parameter(raw, ICAL_ANY_PARAMETER)
    while let current = parameter {
      if let text = LibicalText.take(icalparameter_as_ical_string_r(current)),
        let equals = text.firstIndex(of: "=")
      {
        var value = String(text[text.index(after: equals)...])
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
          value = String(value.dropFirst().dropLast())
        }
        parameters.append(ICalParameter(String(text[..<equals]), value))
      }
      parameter = icalproperty_get_next_parameter(raw, ICAL_ANY_PARAMETER)
    }
    return ICalProperty(name, value, parameters: parameters)
  }
}

/// A `BEGIN:NAME` content line and its physical line number.
struct BeginLine: Equatable, Sendable {
  let name: String
  let line: Int

  /// Every BEGIN line of the text in order (physical lines, so folded lines count).
  static func scan(_ text: String) -> [BeginLine] {
    var result: [BeginLine] = []
    var line = 1
    var lineStart = true
    var bytes = Array(text.utf8)[...]
    let begin = Array("BEGIN:".utf8)
    while !bytes.isEmpty {
      if lineStart, bytes.count >= begin.count,
        zip(bytes.prefix(begin.count), begin).allSatisfy({ ($0 | 0x20) == ($1 | 0x20) })
      {
        let rest = bytes.dropFirst(begin.count)
        let end = rest.firstIndex { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
        let nameBytes = rest[..<(end ?? rest.endIndex)]
        let name = String(decoding: nameBytes, as: UTF8.self)
          .trimmingSpaces().uppercased()
        result.append(BeginLine(name: name, line: line))
      }
      let byte = bytes.removeFirst()
      lineStart = byte == UInt8(ascii: "\n")
      if lineStart { line += 1 }
    }
    return result
  }
}

extension BeginLine {
  /// The physical line of the first BEGIN nested deeper than ``ComponentNesting/maximumDepth``
  /// (each BEGIN line opens a level, each END line closes one, as libical nests them), or nil.
  static func firstTooDeep(_ text: String) -> Int? {
    var text = text
    return text.withUTF8 { bytes -> Int? in
      var depth = 0
      var line = 1
      var start = 0
      while start < bytes.count {
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        if startsWith("BEGIN:", bytes, at: start) {
          depth += 1
          if depth > ComponentNesting.maximumDepth { return line }
        } else if depth > 0, startsWith("END:", bytes, at: start) {
          depth -= 1
        }
        line += 1
        start = end + 1
      }
      return nil
    }
  }

  /// Whether the bytes at `index` spell `prefix`, ignoring ASCII case.
  private static func startsWith(
    _ prefix: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, at index: Int
  ) -> Bool {
    guard bytes.count - index >= prefix.utf8CodeUnitCount else { return false }
    let wanted = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
    for offset in 0..<wanted.count where bytes[index + offset] | 0x20 != wanted[offset] | 0x20 {
      return false
    }
    return true
  }
}

/// Process-wide set-up and string hand-over for the references.
enum LibicalText {
  /// Makes libical report errors instead of aborting.
  static let configured: Void = { icalerror_set_errors_are_fatal(0) }()

  /// Copies a libical `_r` string into Swift and frees the buffer.
  static func take(_ buffer: UnsafeMutablePointer<CChar>?) -> String? {
    guard let buffer else { return nil }
    defer { icalmemory_free_buffer(buffer) }
    return String(cString: buffer)
  }
}

extension String {
  fileprivate func trimmingSpaces() -> String {
    var scalars = Substring(self)
    while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
    return String(scalars)
  }
}
