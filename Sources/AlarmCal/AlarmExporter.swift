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
    ICalendarPrinter.print(try calendar(alarms))
  }

  /// The VCALENDAR component.
  public func calendar(_ alarms: [Alarm]) throws(AlarmExportError) -> ICalComponent {
    var events: [ICalComponent] = []
    events.reserveCapacity(alarms.count)
    var earliestStart: [String: Instant] = [:]
    var rulesByZone: [String: TimeZoneRules] = [:]
    let stamp = DateTimeValue.utc(timestamp.utc).property("DTSTAMP")
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
      earliestStart[alarm.timeZone] = min(earliestStart[alarm.timeZone] ?? instant, instant)
      events.append(event(for: alarm, start: start, stamp: stamp))
    }
    var zones: [ICalComponent] = []
    for (zone, start) in earliestStart.sorted(by: { $0.key < $1.key }) {
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
    return ICalComponent(
      "VCALENDAR",
      properties: [
        ICalProperty("VERSION", "2.0"),
        ICalProperty.text("PRODID", AlarmVocabulary.productID),
        ICalProperty("CALSCALE", "GREGORIAN"),
        ICalProperty.text("X-WR-CALNAME", "Alarms"),
      ],
      components: zones + events)
  }

  private func event(for alarm: Alarm, start: LocalDateTime, stamp: ICalProperty) -> ICalComponent {
    var event = ICalComponent("VEVENT")
    event.properties.reserveCapacity(7)
    event.add(Self.textProperty("UID", alarm.id))
    event.add(stamp)
    event.add(DateTimeValue.zoned(start, tzid: alarm.timeZone).property("DTSTART"))
    if case .time(_, let days) = alarm.schedule {
      if days.isEmpty {
        event.add(Shared.ringsOnce)
      } else {
        let codes = days.sorted().map(\.icalCode).joined(separator: ",")
        event.add(ICalProperty("RRULE", "FREQ=WEEKLY;BYDAY=\(codes)"))
      }
    }
    if !alarm.label.isEmpty { event.add(Self.textProperty("SUMMARY", alarm.label)) }
    event.add(Shared.transparent)
    var valarm = ICalComponent("VALARM")
    valarm.properties.reserveCapacity(5)
    valarm.add(alarm.enabled ? Shared.enabledAction : Shared.disabledAction)
    valarm.add(Shared.triggerAtStart)
    if let sound = alarm.sound {
      valarm.add(ICalProperty("ATTACH", sound, parameters: [ICalParameter("VALUE", "URI")]))
    }
    valarm.add(alarm.snooze ? Shared.snoozeOn : Shared.snoozeOff)
    valarm.add(
      ICalProperty(
        AlarmVocabulary.snoozeInterval,
        ICalDuration(seconds: alarm.snoozeMinutes * 60).description))
    event.components.append(valarm)
    return event
  }

  /// A TEXT property; text with nothing to escape (most ids and labels) is used as it is.
  private static func textProperty(_ name: String, _ text: String) -> ICalProperty {
    let needsEscape = text.utf8.contains {
      $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",")
        || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n")
    }
    return needsEscape ? ICalProperty.text(name, text) : ICalProperty(name, text)
  }

  /// The properties that many events write alike, made once.
  private enum Shared {
    static let ringsOnce = ICalProperty(AlarmVocabulary.rings, AlarmVocabulary.ringsOnce)
    /// An alarm does not make its owner busy (RFC 5545 §3.8.2.7).
    static let transparent = ICalProperty("TRANSP", "TRANSPARENT")
    static let enabledAction = ICalProperty("ACTION", AlarmVocabulary.enabledAction)
    static let disabledAction = ICalProperty("ACTION", AlarmVocabulary.disabledAction)
    static let triggerAtStart = ICalProperty("TRIGGER", ICalDuration.zero.description)
    static let snoozeOn = ICalProperty(AlarmVocabulary.snooze, "TRUE")
    static let snoozeOff = ICalProperty(AlarmVocabulary.snooze, "FALSE")
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
