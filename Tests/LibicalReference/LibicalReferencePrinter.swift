import CLibical
import ICalendar

/// What ``LibicalReferencePrinter`` could not print: the content line libical refused.
public struct LibicalRefusal: Error, Equatable, CustomStringConvertible {
  /// The content line.
  public let contentLine: String

  /// A refusal of `contentLine`.
  public init(contentLine: String) {
    self.contentLine = contentLine
  }
  /// `libical refused "…"`.
  public var description: String { "libical refused \"\(contentLine)\"" }
}

/// alarmcal's printer as it was before it was written in Swift, kept as the reference the Swift
/// printer must match byte for byte: each component is built in libical alone, one property at
/// a time from its content line (`icalproperty_new_from_string`), printed with
/// `icalcomponent_as_ical_string_r`, and its subcomponents' text is spliced in before its END
/// line; X-LIC-ERROR notes are left out.
public enum LibicalReferencePrinter {

  /// The text libical prints for `component`.
  public static func print(_ component: ICalComponent) throws(LibicalRefusal) -> String {
    _ = LibicalText.configured
    var text = ""
    try append(component, to: &text)
    return text
  }

  private static func append(_ component: ICalComponent, to text: inout String)
    throws(LibicalRefusal)
  {
    let raw = try build(component)
    defer { icalcomponent_free(raw) }
    guard let buffer = icalcomponent_as_ical_string_r(raw) else {
      throw LibicalRefusal(contentLine: "BEGIN:\(component.name)")
    }
    let own = String(cString: buffer)
    icalmemory_free_buffer(buffer)
    // `own` ends with this component's END line; the subcomponents go before it.
    var endLine = own.utf8.endIndex
    if let lastBreak = own.utf8.dropLast(2).lastIndex(of: UInt8(ascii: "\n")) {
      endLine = own.utf8.index(after: lastBreak)
    }
    text += own[..<endLine]
    text += try appendAll(component.components[...])
    text += own[endLine...]
  }

  private static func appendAll(_ components: ArraySlice<ICalComponent>) throws(LibicalRefusal)
    -> String
  {
    var text = ""
    for component in components { try append(component, to: &text) }
    return text
  }

  /// A libical component with `component`'s name and properties (not its subcomponents).
  private static func build(_ component: ICalComponent) throws(LibicalRefusal) -> OpaquePointer {
    let kind = icalcomponent_string_to_kind(component.name)
    let made =
      kind == ICAL_NO_COMPONENT || kind == ICAL_X_COMPONENT
      ? icalcomponent_new_x(component.name) : icalcomponent_new(kind)
    guard let raw = made else { throw LibicalRefusal(contentLine: "BEGIN:\(component.name)") }
    for property in component.properties where property.name != "X-LIC-ERROR" {
      let line = contentLine(property)
      guard let property = icalproperty_new_from_string(line) else {
        icalcomponent_free(raw)
        throw LibicalRefusal(contentLine: line)
      }
      icalcomponent_add_property(raw, property)
    }
    return raw
  }

  /// `NAME;PARAM=value:value`, quoting parameter values that hold `:`, `;` or `,`.
  static func contentLine(_ property: ICalProperty) -> String {
    var line = property.name
    for parameter in property.parameters {
      line += ";\(parameter.name)="
      let needsQuotes = parameter.value.utf8.contains {
        $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",")
      }
      line += needsQuotes ? "\"\(parameter.value)\"" : parameter.value
    }
    return line + ":" + property.value
  }
}
