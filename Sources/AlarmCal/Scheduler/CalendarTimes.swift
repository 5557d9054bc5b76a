import ICalendar

/// How one VCALENDAR's times become instants: its own VTIMEZONEs first (the file's definition
/// wins; one cut short is continued by the IANA zone it names and agrees with, as import
/// does), then IANA and Windows names, UTC, and floating and DATE values in Google's
/// X-WR-TIMEZONE or else the default zone (`--tz`).
struct CalendarTimes {
  /// A value placed on a wall clock.
  struct Placed {
    /// The zone whose wall clock the value (and its series) follows.
    let zone: any ZoneOffsets
    /// The wall-clock reading in that zone.
    let local: LocalDateTime
    /// Whether the value is a DATE (all-day).
    let isDate: Bool

    /// The instant, per RFC 5545 §3.3.5.
    var instant: Instant { zone.instant(for: local) }
  }

  let defaultZone: any ZoneOffsets
  let calendarZone: (any ZoneOffsets)?
  /// Kept as existentials: a VTimezoneRules is too large to sit inside one, so each copy of a
  /// fresh existential would box it anew, once per series; copies of a stored one share its box.
  let definitions: [String: any ZoneOffsets]

  init(calendar: ICalComponent, defaultZone: any ZoneOffsets) {
    self.defaultZone = defaultZone
    var definitions: [String: any ZoneOffsets] = [:]
    for component in calendar.components(named: "VTIMEZONE") {
      guard let rules = VTimezoneRules(component) else { continue }
      let names = [rules.tzid, component.propertyValue(uppercased: "X-LIC-LOCATION")]
      definitions[rules.tzid] =
        ContinuedZone(rules, named: names.compactMap { $0 }) ?? rules
    }
    self.definitions = definitions
    calendarZone = calendar.calendarTimeZone.flatMap(TimeZoneRules.init(identifier:))
  }

  /// The zone a TZID names, or nil when neither the file nor the system knows it.
  func zone(tzid: String) -> (any ZoneOffsets)? {
    if let defined = definitions[tzid] { return defined }
    return TimeZoneNames.ianaIdentifier(forTZID: tzid).flatMap(TimeZoneRules.init(identifier:))
  }

  /// Places a value; nil when its TZID is unknown.
  func place(_ value: DateTimeValue) -> Placed? {
    switch value {
    case .zoned(let local, let tzid):
      guard let zone = zone(tzid: tzid) else { return nil }
      return Placed(zone: zone, local: local, isDate: false)
    case .utc(let utc):
      // Google reads UTC times in the calendar's zone, so series keep their wall-clock time.
      let zone: any ZoneOffsets = calendarZone ?? TimeZoneRules.utc
      return Placed(zone: zone, local: zone.local(at: Instant(utc: utc)), isDate: false)
    case .floating(let local):
      return Placed(zone: calendarZone ?? defaultZone, local: local, isDate: false)
    case .date(let date):
      return Placed(
        zone: calendarZone ?? defaultZone, local: LocalDateTime(date, .midnight), isDate: true)
    }
  }

  /// The instant of a value (EXDATE, RECURRENCE-ID, UNTIL, ACKNOWLEDGED...), or nil.
  func instant(_ value: DateTimeValue) -> Instant? {
    place(value)?.instant
  }
}
