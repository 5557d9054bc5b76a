/// Serializes ``ICalComponent`` values as iCalendar text: CRLF line ends, lines folded at 75
/// octets as libical 3 folds them. Any tree can be printed; nothing is checked or refused.
///
/// The output is byte for byte what alarmcal printed through libical 3.0.16 for the trees it
/// writes. Names, parameters and values are written as they are held (values stay escaped as
/// written); a `VALUE` parameter comes first, in upper case, and is left out when it names the
/// property's default type; a parameter value is quoted when it is empty or holds `;`, `:` or
/// `,`; libical's `X-LIC-ERROR` notes are not written. libical also re-read each value by its
/// type and wrote it back in its own form (`\N` as `\n`, RRULE parts in its order, `P0D` as
/// `PT0S`); the values alarmcal builds are already in that form.
public enum ICalendarPrinter {
  /// The iCalendar text of a component tree.
  public static func print(_ component: ICalComponent) -> String {
    var writer = ContentLineWriter()
    write(component, to: &writer)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  private static func write(_ component: ICalComponent, to writer: inout ContentLineWriter) {
    writer.append("BEGIN:")
    writer.append(component.name)
    writer.endUnfoldedLine()
    for property in component.properties {
      write(property, to: &writer)
    }
    for child in component.components {
      write(child, to: &writer)
    }
    writer.append("END:")
    writer.append(component.name)
    writer.endUnfoldedLine()
  }

  private static func write(_ property: ICalProperty, to writer: inout ContentLineWriter) {
    // X-LIC-ERROR is libical's note about what it dropped while parsing, not content.
    if property.name == "X-LIC-ERROR" { return }
    writer.append(property.name)
    if let type = property.parameter(uppercased: "VALUE"),
      case let type = type.asciiUppercased, type != defaultValueTypes[property.name]
    {
      writer.append(";VALUE=")
      writer.append(type)
    }
    for parameter in property.parameters where parameter.name != "VALUE" {
      writer.append(ascii: UInt8(ascii: ";"))
      writer.append(parameter.name)
      writer.append(ascii: UInt8(ascii: "="))
      if needsQuotes(parameter.value) {
        writer.append(ascii: UInt8(ascii: "\""))
        writer.append(parameter.value)
        writer.append(ascii: UInt8(ascii: "\""))
      } else {
        writer.append(parameter.value)
      }
    }
    writer.append(ascii: UInt8(ascii: ":"))
    writer.append(property.value)
    writer.endLine()
  }

  /// Whether a parameter value is written in quotes: when it is empty or holds `;`, `:` or `,`
  /// (RFC 5545 §3.2 also allows quotes elsewhere; libical quotes only these).
  private static func needsQuotes(_ value: String) -> Bool {
    value.isEmpty
      || value.utf8.contains {
        $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ",")
      }
  }

  /// The value type of each RFC 5545 property whose `VALUE` parameter libical leaves out when it
  /// names this type (`ATTACH;VALUE=URI` is written `ATTACH`).
  private static let defaultValueTypes: [String: String] = [
    "ATTACH": "URI", "ATTENDEE": "CAL-ADDRESS", "CALSCALE": "TEXT", "CATEGORIES": "TEXT",
    "COMMENT": "TEXT", "COMPLETED": "DATE-TIME", "CONTACT": "TEXT", "CREATED": "DATE-TIME",
    "DESCRIPTION": "TEXT", "DTEND": "DATE-TIME", "DTSTAMP": "DATE-TIME", "DTSTART": "DATE-TIME",
    "DUE": "DATE-TIME", "DURATION": "DURATION", "EXDATE": "DATE-TIME",
    "LAST-MODIFIED": "DATE-TIME", "LOCATION": "TEXT", "ORGANIZER": "CAL-ADDRESS",
    "PRIORITY": "INTEGER", "PRODID": "TEXT", "RDATE": "DATE-TIME",
    "RECURRENCE-ID": "DATE-TIME", "RELATED-TO": "TEXT", "REPEAT": "INTEGER",
    "RESOURCES": "TEXT", "RRULE": "RECUR", "SEQUENCE": "INTEGER", "SUMMARY": "TEXT",
    "TRIGGER": "DURATION", "TZID": "TEXT", "TZNAME": "TEXT", "TZOFFSETFROM": "UTC-OFFSET",
    "TZOFFSETTO": "UTC-OFFSET", "TZURL": "URI", "UID": "TEXT", "URL": "URI", "VERSION": "TEXT",
  ]
}
