import AlarmCal
import ICalendar
import Testing

/// Ring instants of every VALARM in a calendar, computed instance by instance straight from the
/// iCalendar (libical's wall-clock RRULE expansion, zones per RFC 5545 §3.3.5), independently of
/// the alarm mapping, so round trips can be compared ring by ring.
enum RingTimes {
  static func byUID(
    _ calendar: ICalComponent, defaultZone: String, from: Instant, to: Instant
  ) throws -> [String: Set<Instant>] {
    let calendarZone = calendar.property("X-WR-TIMEZONE").flatMap {
      TimeZoneNames.ianaIdentifier(forTZID: $0.text)
    }
    var locations: [String: String] = [:]
    for zone in calendar.components(named: "VTIMEZONE") {
      if let tzid = zone.property("TZID")?.value,
        let iana = [tzid, zone.property("X-LIC-LOCATION")?.value].compactMap({ $0 })
          .lazy.compactMap(TimeZoneNames.ianaIdentifier(forTZID:)).first
      {
        locations[tzid] = iana
      }
    }
    func zoned(_ value: DateTimeValue) throws -> (TimeZoneRules, LocalDateTime)? {
      switch value {
      case .zoned(let local, let tzid):
        // A zone nobody knows gives no rings (import reports it as a loss).
        guard let iana = locations[tzid] ?? TimeZoneNames.ianaIdentifier(forTZID: tzid) else {
          return nil
        }
        return (try #require(TimeZoneRules(identifier: iana)), local)
      case .utc(let utc):
        let rules = try #require(TimeZoneRules(identifier: calendarZone ?? "UTC"))
        return (rules, rules.local(at: Instant(utc: utc)))
      case .floating(let local):
        return (try #require(TimeZoneRules(identifier: calendarZone ?? defaultZone)), local)
      case .date(let date):
        return (
          try #require(TimeZoneRules(identifier: calendarZone ?? defaultZone)),
          LocalDateTime(date, .midnight)
        )
      }
    }
    var result: [String: Set<Instant>] = [:]
    for item in calendar.components where item.name == "VEVENT" || item.name == "VTODO" {
      guard item.property("RECURRENCE-ID") == nil, let uid = item.property("UID")?.text,
        let startProperty = item.property("DTSTART") ?? item.property("DUE"),
        let startValue = DateTimeValue(property: startProperty)
      else { continue }
      guard let (zone, startLocal) = try zoned(startValue) else { continue }
      var starts = [startLocal]
      if let rule = item.property("RRULE")?.value {
        starts = try LibicalRecurrence.starts(
          rule: rule, from: startLocal, isDate: startValue.isDate,
          through: zone.local(at: to).adding(seconds: 3 * 86_400), limit: 10_000)
      }
      // The exact length of an instance, for triggers related to the end.
      var length: Int64 = startValue.isDate ? 86_400 : 0
      if let endProperty = item.property(item.name == "VTODO" ? "DUE" : "DTEND"),
        item.property("DTSTART") != nil, let endValue = DateTimeValue(property: endProperty)
      {
        let (endZone, endLocal) = try #require(try zoned(endValue))
        length =
          endZone.instant(for: endLocal).secondsSince1970
          - zone.instant(for: startLocal).secondsSince1970
      }
      for valarm in item.components(named: "VALARM") {
        let action = valarm.property("ACTION")?.value.uppercased() ?? ""
        guard ["AUDIO", "DISPLAY", "NONE"].contains(action),
          let trigger = valarm.property("TRIGGER")
        else { continue }
        var rings: [Instant] = []
        if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" {
          guard action != "NONE", case .utc(let utc)? = DateTimeValue(text: trigger.value) else {
            continue
          }
          rings = [Instant(utc: utc)]
        } else {
          let offset = try #require(ICalDuration(trigger.value))
          let fromEnd = trigger.parameter("RELATED")?.uppercased() == "END"
          for start in starts {
            var anchor = start
            if fromEnd {
              anchor =
                startValue.isDate
                ? LocalDateTime(start.date.adding(days: Int(length / 86_400)), start.time)
                : zone.local(at: zone.instant(for: start).adding(seconds: length))
            }
            rings.append(zone.instant(for: AlarmTriggers.apply(offset, to: anchor, in: zone)))
          }
        }
        result[uid, default: []].formUnion(rings.filter { $0 >= from && $0 < to })
      }
    }
    return result
  }
}
