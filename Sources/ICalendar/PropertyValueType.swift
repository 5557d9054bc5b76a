/// What the standard says of one property's value: its default type, whether `,` separates
/// values of a list, whether `;` separates parts, and the section that defines it.
public struct PropertyValueType: Equatable, Sendable {
  /// The type a value has without a `VALUE` parameter.
  public let type: ICalValueType
  /// Whether the value may be a list of values separated by `,` (CATEGORIES, EXDATE).
  public let isList: Bool
  /// Whether `;` separates parts of the value (GEO, REQUEST-STATUS, VERSION's min;max).
  public let isStructured: Bool
  /// The section that defines the property, such as `RFC 5545 §3.8.1.12`.
  public let section: String

  init(_ type: ICalValueType, _ section: String, list: Bool = false, structured: Bool = false) {
    self.type = type
    self.section = section
    isList = list
    isStructured = structured
  }

  /// The property value types of RFC 5545 §3.7–3.8, RFC 7986 §5 (those whose `VALUE` parameter
  /// may be left out) and RFC 9074, by upper-case property name. The printer leaves out a
  /// `VALUE` parameter naming the default type; the validator checks values by it. X- and
  /// other unknown names have no entry.
  public static let byName: [String: PropertyValueType] = {
    let rfc5545: [(String, ICalValueType, String, Bool, Bool)] = [
      // Calendar properties, §3.7.
      ("CALSCALE", .text, "3.7.1", false, false), ("METHOD", .text, "3.7.2", false, false),
      ("PRODID", .text, "3.7.3", false, false), ("VERSION", .text, "3.7.4", false, true),
      // Descriptive, §3.8.1.
      ("ATTACH", .uri, "3.8.1.1", false, false), ("CATEGORIES", .text, "3.8.1.2", true, false),
      ("CLASS", .text, "3.8.1.3", false, false), ("COMMENT", .text, "3.8.1.4", false, false),
      ("DESCRIPTION", .text, "3.8.1.5", false, false), ("GEO", .float, "3.8.1.6", false, true),
      ("LOCATION", .text, "3.8.1.7", false, false),
      ("PERCENT-COMPLETE", .integer, "3.8.1.8", false, false),
      ("PRIORITY", .integer, "3.8.1.9", false, false),
      ("RESOURCES", .text, "3.8.1.10", true, false), ("STATUS", .text, "3.8.1.11", false, false),
      ("SUMMARY", .text, "3.8.1.12", false, false),
      // Date and time, §3.8.2.
      ("COMPLETED", .dateTime, "3.8.2.1", false, false),
      ("DTEND", .dateTime, "3.8.2.2", false, false), ("DUE", .dateTime, "3.8.2.3", false, false),
      ("DTSTART", .dateTime, "3.8.2.4", false, false),
      ("DURATION", .duration, "3.8.2.5", false, false),
      ("FREEBUSY", .period, "3.8.2.6", true, false), ("TRANSP", .text, "3.8.2.7", false, false),
      // Time zone, §3.8.3.
      ("TZID", .text, "3.8.3.1", false, false), ("TZNAME", .text, "3.8.3.2", false, false),
      ("TZOFFSETFROM", .utcOffset, "3.8.3.3", false, false),
      ("TZOFFSETTO", .utcOffset, "3.8.3.4", false, false), ("TZURL", .uri, "3.8.3.5", false, false),
      // Relationship, §3.8.4.
      ("ATTENDEE", .calAddress, "3.8.4.1", false, false),
      ("CONTACT", .text, "3.8.4.2", false, false),
      ("ORGANIZER", .calAddress, "3.8.4.3", false, false),
      ("RECURRENCE-ID", .dateTime, "3.8.4.4", false, false),
      ("RELATED-TO", .text, "3.8.4.5", false, false), ("URL", .uri, "3.8.4.6", false, false),
      ("UID", .text, "3.8.4.7", false, false),
      // Recurrence, §3.8.5.
      ("EXDATE", .dateTime, "3.8.5.1", true, false), ("RDATE", .dateTime, "3.8.5.2", true, false),
      ("RRULE", .recur, "3.8.5.3", false, false),
      // Alarm, §3.8.6.
      ("ACTION", .text, "3.8.6.1", false, false), ("REPEAT", .integer, "3.8.6.2", false, false),
      ("TRIGGER", .duration, "3.8.6.3", false, false),
      // Change management, §3.8.7.
      ("CREATED", .dateTime, "3.8.7.1", false, false),
      ("DTSTAMP", .dateTime, "3.8.7.2", false, false),
      ("LAST-MODIFIED", .dateTime, "3.8.7.3", false, false),
      ("SEQUENCE", .integer, "3.8.7.4", false, false),
      // Miscellaneous, §3.8.8: statcode;statdesc[;extdata].
      ("REQUEST-STATUS", .text, "3.8.8.3", false, true),
    ]
    var table: [String: PropertyValueType] = [:]
    for (name, type, section, list, structured) in rfc5545 {
      table[name] = PropertyValueType(
        type, "RFC 5545 §" + section, list: list, structured: structured)
    }
    // RFC 7986 §5; REFRESH-INTERVAL, IMAGE and CONFERENCE are left out: their VALUE is required.
    table["NAME"] = PropertyValueType(.text, "RFC 7986 §5.1")
    table["SOURCE"] = PropertyValueType(.uri, "RFC 7986 §5.8")
    table["COLOR"] = PropertyValueType(.text, "RFC 7986 §5.9")
    // RFC 9074.
    table["ACKNOWLEDGED"] = PropertyValueType(.dateTime, "RFC 9074 §6")
    table["PROXIMITY"] = PropertyValueType(.text, "RFC 9074 §8.1")
    return table
  }()
}
