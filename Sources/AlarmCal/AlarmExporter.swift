import ICalendar

/// Why alarms could not be written as iCalendar.
public enum AlarmExportError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The alarm's zone has no VTIMEZONE definition on this system.
  case unknownTimeZone(alarmID: String, zone: String)

  /// A sentence a person can act on.
  public var description: String {
    switch self {
    case .unknownTimeZone(let id, let zone):
      "alarm \(quoted(id)): time zone \(quoted(zone)) has no VTIMEZONE definition on this system"
    }
  }
}

/// Maps alarms to one VCALENDAR: a VEVENT with a VALARM per alarm, a VTIMEZONE per zone used.
public struct AlarmExporter: Sendable {
  /// The moment the export is for: each alarm starts at its first ring at or after it.
  public let now: Instant
  /// The DTSTAMP written on every event.
  public let timestamp: Instant

  /// Creates an exporter.
  public init(now: Instant, timestamp: Instant) {
    self.now = now
    self.timestamp = timestamp
  }

  /// The iCalendar text: CRLF line ends, folded at 75 octets.
  public func text(_ alarms: [Alarm]) throws(AlarmExportError) -> String {
    String(decoding: try bytes(alarms), as: UTF8.self)
  }

  /// The iCalendar text as UTF-8 bytes. Each event is printed as it is made, so no tree of the
  /// calendar is held.
  public func bytes(_ alarms: [Alarm]) throws(AlarmExportError) -> [UInt8] {
    // The zones' definitions come first and must cover the first ring of every alarm in them.
    let starts = try firstStarts(alarms)
    var zones: [ICalComponent] = []
    for (zone, start) in starts.earliest.sorted(by: { $0.key < $1.key }) {
      // A day of margin keeps the observance in force at the first ring in the definition.
      guard
        let definition = VTimezoneLibrary.vtimezone(
          for: zone, from: start.adding(seconds: -86_400).utc)
      else {
        let id = alarms.first { $0.timeZone == zone }?.id ?? ""
        throw .unknownTimeZone(alarmID: id, zone: zone)
      }
      zones.append(definition)
    }
    var printer = ICalendarPrinter()
    printer.begin("VCALENDAR")
    printer.write("VERSION", value: "2.0")
    printer.write("PRODID", text: AlarmVocabulary.productID)
    printer.write("CALSCALE", value: "GREGORIAN")
    printer.write("X-WR-CALNAME", text: "Alarms")
    for zone in zones {
      printer.write(zone)
    }
    var rules = WeeklyRules()
    let stamp = DateTimeValue.utc(timestamp.utc)
    for (alarm, start) in zip(alarms, starts.local) {
      write(alarm, start: start, stamp: stamp, rules: &rules, to: &printer)
    }
    printer.end("VCALENDAR")
    return printer.takeBytes()
  }

  /// Each alarm's first ring on its zone's wall clock, and the earliest ring in each zone.
  private func firstStarts(_ alarms: [Alarm]) throws(AlarmExportError) -> (
    local: [LocalDateTime], earliest: [String: Instant]
  ) {
    var starts: [LocalDateTime] = []
    starts.reserveCapacity(alarms.count)
    var earliest: [String: Instant] = [:]
    var rulesByZone: [String: TimeZoneRules] = [:]
    for alarm in alarms {
      let rules: TimeZoneRules
      if let known = rulesByZone[alarm.timeZone] {
        rules = known
      } else {
        guard let made = TimeZoneRules(identifier: alarm.timeZone) else {
          throw .unknownTimeZone(alarmID: alarm.id, zone: alarm.timeZone)
        }
        rulesByZone[alarm.timeZone] = made
        rules = made
      }
      let start = AlarmRings.firstStart(of: alarm.schedule, atOrAfter: now, in: rules)
      let instant = rules.instant(for: start)
      earliest[alarm.timeZone] = min(earliest[alarm.timeZone] ?? instant, instant)
      starts.append(start)
    }
    return (starts, earliest)
  }

  /// Prints an alarm's VEVENT and its VALARM.
  private func write(
    _ alarm: Alarm, start: LocalDateTime, stamp: DateTimeValue, rules: inout WeeklyRules,
    to printer: inout ICalendarPrinter
  ) {
    printer.begin("VEVENT")
    printer.write("UID", text: alarm.id)
    printer.write("DTSTAMP", dateTime: stamp)
    printer.write("DTSTART", dateTime: .zoned(start, tzid: alarm.timeZone))
    if case .time(_, let days) = alarm.schedule {
      if days.isEmpty {
        printer.write(AlarmVocabulary.rings, value: AlarmVocabulary.ringsOnce)
      } else {
        printer.write("RRULE", value: rules.text(for: days))
      }
    }
    if !alarm.label.isEmpty { printer.write("SUMMARY", text: alarm.label) }
    // An alarm does not make its owner busy (RFC 5545 §3.8.2.7).
    printer.write("TRANSP", value: "TRANSPARENT")
    printer.begin("VALARM")
    printer.write(
      "ACTION",
      value: alarm.enabled ? AlarmVocabulary.enabledAction : AlarmVocabulary.disabledAction)
    printer.write("TRIGGER", duration: .zero)
    // A URI, the type ATTACH has unless told otherwise: written as it is, without VALUE=URI.
    if let sound = alarm.sound { printer.write("ATTACH", value: sound) }
    printer.write(AlarmVocabulary.snooze, value: alarm.snooze ? "TRUE" : "FALSE")
    printer.write(
      AlarmVocabulary.snoozeInterval, duration: ICalDuration(seconds: alarm.snoozeMinutes * 60))
    printer.end("VALARM")
    printer.end("VEVENT")
  }

  /// The RRULE text of each set of weekdays, made once per set: a list holds many alarms and at
  /// most 127 sets.
  private struct WeeklyRules {
    private var texts = [String?](repeating: nil, count: 128)

    /// `FREQ=WEEKLY;BYDAY=` and the days' codes, Monday first.
    mutating func text(for days: Set<Weekday>) -> String {
      let mask = days.reduce(0) { $0 | 1 << ($1.rawValue - 1) }
      if let known = texts[mask] { return known }
      let codes = Weekday.allCases.filter { days.contains($0) }.map(\.icalCode)
      let text = "FREQ=WEEKLY;BYDAY=\(codes.joined(separator: ","))"
      texts[mask] = text
      return text
    }
  }
}

/// Ring-time arithmetic on alarm schedules.
public enum AlarmRings {
  /// The wall-clock start of the first ring at or after `now`: for a time-of-day alarm the
  /// next matching day whose ring instant (RFC 5545 §3.3.5) is not before `now`; for a
  /// one-shot reminder its own date-time.
  public static func firstStart(
    of schedule: Alarm.Schedule, atOrAfter now: Instant, in rules: TimeZoneRules
  ) -> LocalDateTime {
    switch schedule {
    case .at(let local):
      return local
    case .time(let time, let days):
      let today = rules.local(at: now).date
      for offset in 0...7 {
        let date = today.adding(days: offset)
        guard days.isEmpty || days.contains(date.weekday) else { continue }
        let candidate = LocalDateTime(date, time)
        if rules.instant(for: candidate) >= now { return candidate }
      }
      return LocalDateTime(today.adding(days: 7), time)
    }
  }
}
