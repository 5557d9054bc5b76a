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
public enum ICalendarPrinter {
  /// The iCalendar text of a component tree.
  public static func print(_ component: ICalComponent) throws(ICalendarPrintError) -> String {
    _ = Libical.configured
    let root = try build(component)
    defer { icalcomponent_free(root) }
    return Libical.take(icalcomponent_as_ical_string_r(root)) ?? ""
  }

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
      for child in component.components {
        icalcomponent_add_component(raw, try build(child))
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
