internal import CLibical

/// Why a component could not be turned into iCalendar text.
public struct ICalendarPrintError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The content line libical refused.
  public let contentLine: String
  /// libical's reason.
  public let reason: String

  /// `cannot write "…": reason`.
  public var description: String { "cannot write \"\(contentLine)\": \(reason)" }
}

/// Serializes ``ICalComponent`` values through libical: CRLF line ends, folded at 75 octets.
///
/// libical prints a component as its BEGIN line, its properties, its subcomponents and its END
/// line. So that libical never holds more than one component's own properties (a whole tree of
/// 100,000 events costs it 700 MB), each component is printed alone and its subcomponents'
/// text is spliced in before its END line: the same bytes as printing the tree at once.
public enum ICalendarPrinter {
  /// The iCalendar text of a component tree.
  public static func print(_ component: ICalComponent) throws(ICalendarPrintError) -> String {
    _ = Libical.configured
    var text = ""
    try append(component, to: &text)
    return text
  }

  private static func append(_ component: ICalComponent, to text: inout String)
    throws(ICalendarPrintError)
  {
    let raw = try build(component)
    let own = Libical.take(icalcomponent_as_ical_string_r(raw)) ?? ""
    icalcomponent_free(raw)
    guard !component.components.isEmpty else {
      text += own
      return
    }
    // `own` ends with this component's END line; the subcomponents go before it.
    var endLine = own.utf8.endIndex
    if let lastBreak = own.utf8.dropLast(2).lastIndex(of: UInt8(ascii: "\n")) {
      endLine = own.utf8.index(after: lastBreak)
    }
    text += own[..<endLine]
    let children = component.components
    if children.count >= 2_048 {
      // A calendar of thousands of events: the second half is printed on another thread while
      // this one prints the first (libical keeps its buffers and errors per thread).
      let half = children.count / 2
      let (first, second) = TwoThreads.run(
        {
          Result { () throws(ICalendarPrintError) -> String in
            var text = ""
            for child in children[..<half] { try append(child, to: &text) }
            return text
          }
        },
        alongside: {
          Result { () throws(ICalendarPrintError) -> String in
            var text = ""
            for child in children[half...] { try append(child, to: &text) }
            return text
          }
        })
      text += try first.get()
      text += try second.get()
    } else {
      for child in children { try append(child, to: &text) }
    }
    text += own[endLine...]
  }

  /// A libical component with `component`'s name and properties (not its subcomponents).
  private static func build(_ component: ICalComponent) throws(ICalendarPrintError)
    -> OpaquePointer
  {
    let kind = icalcomponent_string_to_kind(component.name)
    let raw: OpaquePointer?
    if kind == ICAL_NO_COMPONENT || kind == ICAL_X_COMPONENT {
      raw = icalcomponent_new_x(component.name)
    } else {
      raw = icalcomponent_new(kind)
    }
    guard let raw else {
      throw ICalendarPrintError(contentLine: "BEGIN:\(component.name)", reason: "unknown component")
    }
    do throws(ICalendarPrintError) {
      // X-LIC-ERROR is libical's note about what it dropped while parsing, not content.
      for property in component.properties where property.name != "X-LIC-ERROR" {
        let line = contentLine(property)
        clibical_clear_errno()
        guard let made = icalproperty_new_from_string(line) else {
          throw ICalendarPrintError(
            contentLine: line,
            reason: LibicalError(function: "icalproperty_new_from_string").message)
        }
        icalcomponent_add_property(raw, made)
      }
    } catch {
      icalcomponent_free(raw)
      throw error
    }
    return raw
  }

  /// `NAME;PARAM=value:value` with parameter values quoted where RFC 5545 §3.2 requires it.
  static func contentLine(_ property: ICalProperty) -> String {
    var line = property.name
    for parameter in property.parameters {
      line += ";\(parameter.name)="
      let needsQuotes = parameter.value.contains { $0 == ":" || $0 == ";" || $0 == "," }
      line += needsQuotes ? "\"\(parameter.value)\"" : parameter.value
    }
    return line + ":" + property.value
  }
}
