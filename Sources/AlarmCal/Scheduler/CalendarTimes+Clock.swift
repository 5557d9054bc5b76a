import ICalendar

extension CalendarTimes {
  /// ``CalendarTimes``'s rule for a clock alarm, which holds an IANA zone: each TZID the
  /// calendar defines gets the IANA zone it names where that zone agrees with the file's
  /// offsets (from a year before `now` to two years after it, or wherever a cut definition
  /// defines them), or else the first zone (`preferring` first) with the file's offsets there,
  /// with a note saying so; with none, the TZID's times cannot be kept.
  func clockZones(around now: Instant, preferring defaultZone: String) -> TimePlacer {
    var zones: [String: String] = [:]
    var disagreeing: [String: String] = [:]
    let year: Int64 = 366 * 86_400
    let (from, to) = (now.adding(seconds: -year), now.adding(seconds: 2 * year))
    for definition in defined {
      let (tzid, named) = (definition.tzid, definition.named)
      guard let rules = definition.rules else {
        if let named { zones[tzid] = named }
        continue
      }
      if let named, VTimezoneMatcher.agrees(rules, with: named, from: from, to: to) {
        zones[tzid] = named
        continue
      }
      // A custom definition ("Customized Time Zone"), or one that disagrees with the IANA
      // zone it names: the file governs the times it defines, so the IANA zone with its offsets.
      let matched = VTimezoneMatcher.ianaIdentifier(
        for: rules, preferring: [defaultZone], from: from, to: to)
      zones[tzid] = matched
      if let named {
        disagreeing[tzid] =
          "its VTIMEZONE \(quoted(tzid)) defines other offsets than the IANA zone \(named); "
          + (matched.map { "its times are read as the file defines them, in \($0)" }
            ?? "no IANA zone has the file's offsets")
      }
    }
    return TimePlacer(
      definedZones: zones, disagreeingZones: disagreeing, calendarZone: calendarZoneName,
      defaultZone: defaultZone)
  }
}

/// Places a calendar's DATE and DATE-TIME values on a clock alarm's IANA zone, as
/// ``CalendarTimes/clockZones(around:preferring:)`` chose them: a TZID in the IANA zone of its
/// VTIMEZONE (or its IANA or Windows name), UTC in Google's X-WR-TIMEZONE or UTC, and floating
/// times and dates in X-WR-TIMEZONE or the default zone (`--tz`).
struct TimePlacer {
  /// TZID → IANA id, for each VTIMEZONE the calendar defines.
  let definedZones: [String: String]
  /// TZID → why its VTIMEZONE is not read as the IANA zone it names (it defines other offsets).
  let disagreeingZones: [String: String]
  /// Google's calendar-wide zone, if the system knows it.
  let calendarZone: String?
  /// The zone for floating times when the calendar names none.
  let defaultZone: String

  /// The zone and wall-clock reading of `value`, or why it has none.
  func place(_ value: DateTimeValue) -> Result<
    (zone: TimeZoneRules, local: LocalDateTime), LossReason
  > {
    let zoneName: String
    var local = value.local
    switch value {
    case .zoned(_, let tzid):
      if definedZones[tzid] == nil, let note = disagreeingZones[tzid] {
        return .failure(LossReason(note))
      }
      guard let iana = definedZones[tzid] ?? TimeZoneNames.ianaIdentifier(forTZID: tzid) else {
        return .failure(
          LossReason("time zone \(quoted(tzid)) is neither an IANA nor a Windows zone"))
      }
      zoneName = iana
    case .utc(let utc):
      zoneName = calendarZone ?? "UTC"
      guard let rules = TimeZoneRules(identifier: zoneName) else { break }
      local = rules.local(at: Instant(utc: utc))
    case .floating, .date:
      zoneName = calendarZone ?? defaultZone
    }
    guard let rules = TimeZoneRules(identifier: zoneName) else {
      return .failure(LossReason("time zone \(quoted(zoneName)) is not known on this system"))
    }
    return .success((rules, local))
  }

  /// The instant of a DATE or DATE-TIME value, or nil when it cannot be placed.
  func instant(_ value: DateTimeValue) -> Instant? {
    guard case .success(let placed) = place(value) else { return nil }
    return placed.zone.instant(for: placed.local)
  }
}
