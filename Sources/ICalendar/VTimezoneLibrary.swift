internal import CLibical
import Foundation

/// VTIMEZONE definitions for IANA zones, from libical's zone data, with plain IANA TZIDs.
public enum VTimezoneLibrary {
  /// libical's built-in zone table is loaded lazily and is not safe to load from two threads.
  private static let lock = NSLock()

  /// A VTIMEZONE for `identifier` whose TZID is the plain IANA id, holding only the observances
  /// in force from `start` (UTC) on; nil when libical does not know the zone.
  public static func vtimezone(for identifier: String, from start: LocalDateTime) -> ICalComponent?
  {
    _ = Libical.configured
    let text: String? = lock.withLock {
      guard let zone = icaltimezone_get_builtin_timezone(identifier),
        let source = icaltimezone_get_component(zone),
        let copy = icalcomponent_new_clone(source)
      else { return nil }
      defer { icalcomponent_free(copy) }
      let from = icaltime_from_string(start.icalString + "Z")
      icaltimezone_truncate_vtimezone(copy, from, icaltime_null_time(), 1)
      return Libical.take(icalcomponent_as_ical_string_r(copy))
    }
    guard let text, let component = try? ICalendarReader.read(Array(text.utf8)).first else {
      return fixedOffsetVTimezone(for: identifier)
    }
    return detached(component, tzid: identifier)
  }

  /// The component as if made in memory (no lines, no offsets), with `tzid` as its TZID.
  private static func detached(_ component: ICalComponent, tzid: String) -> ICalComponent {
    ICalComponent(
      component.name,
      properties: component.properties.map { property in
        property.name == "TZID"
          ? ICalProperty("TZID", tzid)
          : ICalProperty(property.name, property.value, parameters: property.parameters)
      },
      components: component.components.map { detached($0, tzid: tzid) })
  }

  /// A one-observance VTIMEZONE for a zone without daylight saving time (UTC, GMT, ...), which
  /// libical knows but has no VTIMEZONE for.
  private static func fixedOffsetVTimezone(for identifier: String) -> ICalComponent? {
    guard let zone = Foundation.TimeZone(identifier: identifier),
      zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: 0)) == nil
    else { return nil }
    let seconds = zone.secondsFromGMT(for: Date(timeIntervalSince1970: 0))
    let offset = UTCOffsetText.format(seconds)
    let name = zone.abbreviation(for: Date(timeIntervalSince1970: 0)) ?? identifier
    let standard = ICalComponent(
      "STANDARD",
      properties: [
        ICalProperty("DTSTART", "19700101T000000"),
        ICalProperty("TZOFFSETFROM", offset),
        ICalProperty("TZOFFSETTO", offset),
        ICalProperty.text("TZNAME", name),
      ])
    return ICalComponent(
      "VTIMEZONE", properties: [ICalProperty("TZID", identifier)], components: [standard])
  }
}
