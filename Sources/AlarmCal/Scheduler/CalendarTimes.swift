import ICalendar

/// Where one VCALENDAR's times are: the one home of that rule, for `upcoming`, `snooze`,
/// `dismiss` and `plan` (instants, through ``place(_:)``) and for import (a clock alarm's IANA
/// zone, through ``clockZones(around:preferring:)``).
///
/// A TZID the calendar defines is read as its VTIMEZONE defines it (RFC 5545 §3.6.5). One cut
/// short (no observance recurs without end) is continued past its last onset by the IANA zone
/// its TZID or X-LIC-LOCATION names, when that zone agrees with it where it defines offsets
/// (``ContinuedZone``); a VTIMEZONE that defines no offsets at all is that IANA zone. Other
/// TZIDs are IANA or Windows names; UTC times are read on Google's X-WR-TIMEZONE clock, and
/// floating and DATE values in X-WR-TIMEZONE or else the default zone (`--tz`).
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

  /// A VTIMEZONE as read: its offsets, if it defines any, and the IANA zone it names.
  struct Definition {
    let tzid: String
    let rules: VTimezoneRules?
    /// The IANA zone its TZID or X-LIC-LOCATION names (a Windows name mapped), if any.
    let named: String?
  }

  let defaultZone: any ZoneOffsets
  let calendarZone: (any ZoneOffsets)?
  /// X-WR-TIMEZONE's IANA zone, when the system knows it.
  let calendarZoneName: String?
  /// Kept as existentials: a VTimezoneRules is too large to sit inside one, so each copy of a
  /// fresh existential would box it anew, once per series; copies of a stored one share its box.
  let definitions: [String: any ZoneOffsets]
  /// The calendar's VTIMEZONEs in file order.
  let defined: [Definition]

  init(calendar: ICalComponent, defaultZone: any ZoneOffsets) {
    self.defaultZone = defaultZone
    var definitions: [String: any ZoneOffsets] = [:]
    var defined: [Definition] = []
    for component in calendar.components(named: "VTIMEZONE") {
      guard let tzid = component.propertyValue(uppercased: "TZID") else { continue }
      let names = [tzid, component.propertyValue(uppercased: "X-LIC-LOCATION")].compactMap { $0 }
      let named = names.lazy.compactMap(TimeZoneNames.ianaIdentifier(forTZID:)).first
      let rules = VTimezoneRules(component)
      defined.append(Definition(tzid: tzid, rules: rules, named: named))
      if let rules {
        definitions[tzid] = ContinuedZone(rules, named: names) ?? rules
      } else if let zone = named.flatMap(TimeZoneRules.init(identifier:)) {
        definitions[tzid] = zone
      }
    }
    self.definitions = definitions
    self.defined = defined
    let name = calendar.calendarTimeZone
    let zone = name.flatMap(TimeZoneRules.init(identifier:))
    calendarZone = zone
    calendarZoneName = zone == nil ? nil : name
  }

  /// Whether the calendar's definition of `tzid` is continued by an IANA zone past its last
  /// onset (``ContinuedZone``).
  func isContinued(tzid: String) -> Bool {
    definitions[tzid] is ContinuedZone
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
