import ICalendar

extension ValidationRun {
  /// RFC 5545 §3.2.19 and §3.6.5: every TZID needs a VTIMEZONE in the same calendar, and each
  /// VTIMEZONE needs a TZID and observances with DTSTART, TZOFFSETFROM and TZOFFSETTO.
  mutating func checkTimeZones(_ calendar: ICalComponent) {
    var defined = Set<String>()
    for zone in calendar.components where zone.name == "VTIMEZONE" {
      guard let tzid = zone.property(uppercased: "TZID") else {
        report(.malformedZone, at: begin(zone), "VTIMEZONE without TZID")
        continue
      }
      defined.insert(tzid.value)
      let observances = zone.components.filter { $0.name == "STANDARD" || $0.name == "DAYLIGHT" }
      if observances.isEmpty {
        report(
          .malformedZone, at: begin(zone),
          "VTIMEZONE \"\(tzid.value)\" has no STANDARD or DAYLIGHT observance")
      }
      for observance in observances {
        for name in ["DTSTART", "TZOFFSETFROM", "TZOFFSETTO"] where observance.property(name) == nil
        {
          report(
            .malformedZone, at: begin(observance),
            "\(observance.name) of VTIMEZONE \"\(tzid.value)\" lacks \(name)")
        }
      }
    }
    checkZonesCoverSeries(calendar)
    var pending = calendar.components.filter { $0.name != "VTIMEZONE" }
    while let component = pending.popLast() {
      pending += component.components
      for line in component.properties {
        for parameter in line.parameters where parameter.name == "TZID" {
          checkZoneReference(parameter.value, of: line, defined: defined)
        }
      }
    }
  }

  private mutating func checkZoneReference(
    _ tzid: String, of line: ICalProperty, defined: Set<String>
  ) {
    guard !defined.contains(tzid) else { return }
    // "UTC" is both an IANA id and a Windows name: IANA-looking ids are read as IANA first.
    let looksIANA = tzid.contains("/") || tzid == "UTC" || tzid == "GMT"
    if !looksIANA, let iana = WindowsZoneNames.ianaIdentifier(forWindowsName: tzid) {
      report(
        .windowsZone, at: position(line, parameter: "TZID"),
        "TZID \"\(tzid)\" is a Windows zone name with no VTIMEZONE; readers that know it use \(iana)"
      )
    } else if TimeZoneNames.ianaIdentifier(forTZID: tzid) != nil {
      report(
        .zoneNotDefined, at: position(line, parameter: "TZID"),
        "TZID \"\(tzid)\" has no VTIMEZONE in this calendar; readers that know the IANA zone use it"
      )
    } else {
      report(
        .unknownZone, at: position(line, parameter: "TZID"),
        "TZID \"\(tzid)\" is defined by no VTIMEZONE and names no known zone")
    }
  }

  /// RFC 5545 §3.6.5: a VTIMEZONE governs the times it defines. One cut short (no observance
  /// recurs without end) does not cover a series that goes on past its last onset: an RRULE
  /// without COUNT or UNTIL, or one whose UNTIL is later, on a start in that zone.
  private mutating func checkZonesCoverSeries(_ calendar: ICalComponent) {
    // Whether the IANA zone continues a definition is `CalendarTimes`'s rule, as `upcoming`
    // and import apply it.
    let times = CalendarTimes(calendar: calendar, defaultZone: TimeZoneRules.utc)
    var cut: [String: (rules: VTimezoneRules, until: Instant, isContinued: Bool)] = [:]
    for definition in times.defined {
      if let rules = definition.rules, let until = rules.definedUntil {
        cut[definition.tzid] = (rules, until, times.isContinued(tzid: definition.tzid))
      }
    }
    guard !cut.isEmpty else { return }
    for item in calendar.components where item.name == "VEVENT" || item.name == "VTODO" {
      guard let start = item.property(uppercased: "DTSTART"),
        case .zoned(_, let tzid)? = DateTimeValue(property: start), let zone = cut[tzid],
        let text = item.property(uppercased: "RRULE")?.value,
        let rule = try? RecurrenceRule(parsing: text), rule.count == nil
      else { continue }
      if let until = rule.until {
        let end: Instant
        switch until {
        case .utc(let local): end = Instant(utc: local)
        default: end = zone.rules.instant(for: until.local)
        }
        guard end > zone.until else { continue }
      }
      let last = zone.rules.local(at: zone.until).date
      if zone.isContinued {
        report(
          .zoneContinuedByIANA, at: position(start, parameter: "TZID"),
          "VTIMEZONE \"\(tzid)\" ends at its onset of \(last) and the series goes on; alarmcal continues it with the IANA zone of that name, which agrees with it; other readers may keep its last offset"
        )
      } else {
        report(
          .zoneEndsBeforeSeries, at: position(start, parameter: "TZID"),
          "VTIMEZONE \"\(tzid)\" ends at its onset of \(last) and the series goes on; its later times take its last offset"
        )
      }
    }
  }
}
