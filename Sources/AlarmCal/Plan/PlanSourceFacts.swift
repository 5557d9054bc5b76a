import ICalendar

/// What the plan needs from a calendar's text that the firings do not say: whether a series
/// provably rings the same weekly pattern forever. (An alarm's sound and snooze are on its
/// firings: ``Firing/settings``.)
struct PlanSourceFacts {
  /// One UID of one file.
  struct SeriesFacts {
    /// Whether the series' firings are, by its text alone, a weekly pattern with no end and
    /// no exception, on the plan zone's wall clock (see ``PlanCompiler``).
    var forever = false
    /// Whether the series has a VALARM that can ring: not switched off (ACTION:NONE), not of
    /// a completed task.
    var hasAlarms = false
    /// Whether the series' times are on the plan zone's wall clock (its TZID, or floating).
    var zoneMatches = false
  }

  /// The facts of each (file index, UID).
  private(set) var series: [String: SeriesFacts] = [:]

  static func key(fileIndex: Int, uid: String) -> String { "\(fileIndex)\u{0}\(uid)" }

  /// Reads the VEVENTs and VTODOs of `roots` (file `fileIndex`) for a plan in `zone`.
  mutating func read(_ roots: [ICalComponent], fileIndex: Int, zone: TimeZoneRules) {
    var counts: [String: Int] = [:]
    for root in roots where root.name == "VCALENDAR" {
      for child in root.components where child.name == "VEVENT" || child.name == "VTODO" {
        // The UID as the scheduler reads it (its TEXT unescaped), so the facts meet its firings.
        let uid = child.property(uppercased: "UID")?.text ?? ""
        let key = Self.key(fileIndex: fileIndex, uid: uid)
        counts[key, default: 0] += 1
        var facts = series[key] ?? SeriesFacts()
        let valarms = child.components.filter { $0.name == "VALARM" }
        let ringing = valarms.contains {
          AlarmComponent.action(of: $0) != AlarmVocabulary.disabledAction
        }
        facts.hasAlarms = facts.hasAlarms || (ringing && !child.isCompletedTask)
        if child.property(uppercased: "RECURRENCE-ID") == nil {
          facts.zoneMatches = Self.zoneMatches(child, zone: zone)
          facts.forever =
            facts.zoneMatches && Self.ringsWeeklyForever(child, valarms: valarms)
        }
        series[key] = facts
      }
    }
    // Overrides, or several components with one UID, are exceptions to the pattern.
    for (key, count) in counts where count > 1 { series[key]?.forever = false }
  }

  /// Whether a VALARM is or holds a snooze: an RFC 9074 snooze alarm, or Thunderbird's.
  private static func isSnooze(_ alarm: ICalComponent) -> Bool {
    AlarmComponent.snoozeOf(alarm) != nil
      || alarm.properties.contains { $0.name.hasPrefix(AlarmComponent.mozillaSnoozeTime) }
  }

  /// Whether the times of `item` (its DTSTART, else its DUE) are on `zone`'s wall clock.
  private static func zoneMatches(_ item: ICalComponent, zone: TimeZoneRules) -> Bool {
    guard let start = item.property(uppercased: "DTSTART") ?? item.property(uppercased: "DUE")
    else { return false }
    if let tzid = start.parameter(uppercased: "TZID") { return tzid == zone.identifier }
    if start.value.hasSuffix("Z") {
      return zone.identifier == "UTC" || zone.identifier == "Etc/UTC"
    }
    return true
  }

  /// Whether `event` rings, by its text, on a fixed weekly pattern for ever: a VEVENT whose
  /// rule is DAILY or WEEKLY (interval 1, BYDAY at most, no COUNT or UNTIL), with no EXDATE,
  /// RDATE or cancellation, a DTSTART on the wall clock of `zone` (its TZID, or floating),
  /// and alarms with relative triggers and no acknowledgement or snooze.
  private static func ringsWeeklyForever(_ event: ICalComponent, valarms: [ICalComponent])
    -> Bool
  {
    guard event.name == "VEVENT", !event.isCancelled,
      event.property(uppercased: "EXDATE") == nil, event.property(uppercased: "RDATE") == nil,
      let start = event.property(uppercased: "DTSTART"),
      start.parameter(uppercased: "VALUE")?.uppercased() != "DATE", start.value.count >= 15,
      event.properties.filter({ $0.name == "RRULE" }).count == 1,
      let text = event.propertyValue(uppercased: "RRULE"),
      let rule = try? RecurrenceRule(parsing: text),
      rule.frequency == .daily || rule.frequency == .weekly, rule.interval == 1,
      rule.count == nil, rule.until == nil, !rule.hasByPartsBesidesDay,
      rule.byDay.allSatisfy({ $0.ordinal == nil })
    else { return false }
    for alarm in valarms {
      if isSnooze(alarm) { return false }
      for property in alarm.properties {
        let name = property.name.uppercased()
        if name == "ACKNOWLEDGED" { return false }
        if name == "TRIGGER", property.parameter(uppercased: "VALUE")?.uppercased() == "DATE-TIME" {
          return false
        }
      }
    }
    return !event.properties.contains { $0.name.hasPrefix(AlarmComponent.mozillaSnoozeTime) }
  }
}
