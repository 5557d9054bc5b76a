/// Whether calendars of one file must stay apart: each VTIMEZONE governs the times of its own
/// calendar (RFC 5545 §3.6.5), and `X-WR-TIMEZONE` places a calendar's floating times, so
/// calendars that define one TZID differently, or name different `X-WR-TIMEZONE`s, cannot be
/// one without moving times.
public enum CalendarsApart {
  /// A VTIMEZONE's text as it defines offsets: without `LAST-MODIFIED` and `TZURL`, which
  /// differ between copies of one definition.
  public static func definition(of zone: ICalComponent) -> [UInt8] {
    var definition = zone
    definition.properties.removeAll { $0.name == "LAST-MODIFIED" || $0.name == "TZURL" }
    var printer = ICalendarPrinter()
    printer.write(definition)
    return printer.takeBytes()
  }

  /// The definitions of a calendar's VTIMEZONEs by TZID (the first of each TZID).
  public static func definitions(in calendar: ICalComponent) -> [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    for child in calendar.components where child.name == "VTIMEZONE" {
      let id = child.propertyValue(uppercased: "TZID") ?? ""
      if result[id] == nil { result[id] = definition(of: child) }
    }
    return result
  }

  /// Whether a calendar with `zone` (its `X-WR-TIMEZONE`, or empty) and VTIMEZONE
  /// `definitions` can join one with `otherZone` and `otherDefinitions`.
  public static func canJoin(
    _ zone: String, _ definitions: [String: [UInt8]], with otherZone: String,
    _ otherDefinitions: [String: [UInt8]]
  ) -> Bool {
    zone == otherZone
      && definitions.allSatisfy { id, text in otherDefinitions[id].map { $0 == text } ?? true }
  }
}
