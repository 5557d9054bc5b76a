/// Serializes ``ICalComponent`` values as iCalendar text: CRLF line ends, lines folded at 75
/// octets as libical 3 folds them. Any tree can be printed; nothing is checked or refused.
///
/// The output is byte for byte what alarmcal printed through libical 3.0.16 for the trees it
/// writes. Names, parameters and values are written as they are held (values stay escaped as
/// written); a `VALUE` parameter comes first, in upper case, and is left out when it names the
/// property's default type (``PropertyValueType``; libical refused `VALUE=TEXT` on the TEXT
/// properties it held as enumerations, such as STATUS); a parameter value is quoted when it is
/// empty or holds `;`, `:` or `,`; libical's `X-LIC-ERROR` notes are not written. libical also
/// re-read each value by its type and wrote it back in its own form (`\N` as `\n`, RRULE parts
/// in its order, `P0D` as `PT0S`); the values alarmcal builds are already in that form.
///
/// Print a whole tree with ``print(_:)``, or write a calendar a piece at a time, so that no tree
/// of it is held: `begin` and `end` a component, `write` a whole component or a property, or a
/// value without making its property first (each such form prints what the property would).
public struct ICalendarPrinter: Sendable {
  private var writer = ContentLineWriter()

  /// Creates a printer with nothing written.
  public init() {}

  /// The iCalendar text of a component tree.
  public static func print(_ component: ICalComponent) -> String {
    var printer = ICalendarPrinter()
    printer.write(component)
    return String(decoding: printer.writer.bytes, as: UTF8.self)
  }

  /// Gives up the text written so far, as UTF-8, leaving the printer empty.
  public mutating func takeBytes() -> [UInt8] { writer.takeBytes() }

  /// Writes `BEGIN:` and the component name.
  public mutating func begin(_ name: String) {
    writer.append("BEGIN:")
    writer.append(name)
    writer.endUnfoldedLine()
  }

  /// Writes `END:` and the component name.
  public mutating func end(_ name: String) {
    writer.append("END:")
    writer.append(name)
    writer.endUnfoldedLine()
  }

  /// Writes a component with its properties and its components.
  public mutating func write(_ component: ICalComponent) {
    begin(component.name)
    for property in component.properties {
      write(property)
    }
    for child in component.components {
      write(child)
    }
    end(component.name)
  }

  /// Writes a property.
  public mutating func write(_ property: ICalProperty) {
    // X-LIC-ERROR is libical's note about what it dropped while parsing, not content.
    if property.name == "X-LIC-ERROR" { return }
    writer.append(property.name)
    if let type = property.parameter(uppercased: "VALUE"),
      case let type = type.asciiUppercased,
      type != PropertyValueType.byName[property.name]?.type.rawValue
    {
      writer.append(";VALUE=")
      writer.append(type)
    }
    for parameter in property.parameters where parameter.name != "VALUE" {
      writeParameter(parameter.name, parameter.value)
    }
    writer.append(ascii: UInt8(ascii: ":"))
    writer.append(property.value)
    writer.endLine()
  }

  /// Writes a property without parameters: `name` (in upper case, not `X-LIC-ERROR`) and its
  /// value text as it is (already escaped).
  public mutating func write(_ name: String, value: String) {
    writer.append(name)
    writer.append(ascii: UInt8(ascii: ":"))
    writer.append(value)
    writer.endLine()
  }

  /// Writes a TEXT property without parameters, escaping `text` (RFC 5545 §3.3.11).
  public mutating func write(_ name: String, text: String) {
    writer.append(name)
    writer.append(ascii: UInt8(ascii: ":"))
    writer.append(escaping: text)
    writer.endLine()
  }

  /// Writes a DURATION property without parameters.
  public mutating func write(_ name: String, duration: ICalDuration) {
    writer.append(name)
    writer.append(ascii: UInt8(ascii: ":"))
    writer.append(duration)
    writer.endLine()
  }

  /// Writes a date or date-time property, with `TZID` or `VALUE=DATE` as needed: what
  /// ``DateTimeValue/property(_:)`` would print.
  public mutating func write(_ name: String, dateTime value: DateTimeValue) {
    writer.append(name)
    switch value {
    case .date(let date):
      writer.append(";VALUE=DATE:")
      writer.append(date)
    case .floating(let local):
      writer.append(ascii: UInt8(ascii: ":"))
      writer.append(local)
    case .utc(let local):
      writer.append(ascii: UInt8(ascii: ":"))
      writer.append(local)
      writer.append(ascii: UInt8(ascii: "Z"))
    case .zoned(let local, let tzid):
      writeParameter("TZID", tzid)
      writer.append(ascii: UInt8(ascii: ":"))
      writer.append(local)
    }
    writer.endLine()
  }

  private mutating func writeParameter(_ name: String, _ value: String) {
    writer.append(ascii: UInt8(ascii: ";"))
    writer.append(name)
    writer.append(ascii: UInt8(ascii: "="))
    if Self.needsQuotes(value) {
      writer.append(ascii: UInt8(ascii: "\""))
      writer.append(value)
      writer.append(ascii: UInt8(ascii: "\""))
    } else {
      writer.append(value)
    }
  }

  /// Whether a parameter value is written in quotes: when it is empty or holds `;`, `:` or `,`
  /// (RFC 5545 §3.2 also allows quotes elsewhere; libical quotes only these).
  private static func needsQuotes(_ value: String) -> Bool {
    value.isEmpty
      || value.utf8.contains {
        $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ",")
      }
  }
}
