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

/// Maps alarms to one VCALENDAR: a VEVENT with a VALARM per alarm, a VTODO per task, a
/// VTIMEZONE per zone used.
public struct AlarmExporter: Sendable {
  /// The moment the export is for: a one-shot alarm of a time of day starts at its first ring
  /// at or after it (a repeating one at its first ring on or after ``AlarmRings/seriesEpoch``).
  public let now: Instant
  /// The DTSTAMP written on every event.
  public let timestamp: Instant

  /// Creates an exporter.
  public init(now: Instant, timestamp: Instant) {
    self.now = now
    self.timestamp = timestamp
  }

  /// The iCalendar text: CRLF line ends, folded at 75 octets.
  public func text(_ alarms: [Alarm], tasks: [ToDo] = []) throws(AlarmExportError) -> String {
    String(decoding: try bytes(alarms, tasks: tasks), as: UTF8.self)
  }

  /// The iCalendar text as UTF-8 bytes. Each event is printed as it is made, so no tree of the
  /// calendar is held.
  public func bytes(_ alarms: [Alarm], tasks: [ToDo] = []) throws(AlarmExportError) -> [UInt8] {
    // The zones' definitions come first and must cover the first ring of every alarm in them.
    let starts = try firstStarts(alarms)
    var earliest = starts.earliest
    for task in tasks {
      guard let rules = TimeZoneRules(identifier: task.timeZone) else {
        throw .unknownTimeZone(alarmID: task.id, zone: task.timeZone)
      }
      guard case .at(let local) = task.deadline else { continue }
      let ring = rules.instant(for: local).adding(
        seconds: -Int64(task.remindMinutesBefore ?? 0) * 60)
      earliest[task.timeZone] = min(earliest[task.timeZone] ?? ring, ring)
    }
    var zones: [ICalComponent] = []
    for (zone, start) in earliest.sorted(by: { $0.key < $1.key }) {
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
    printer.write("PRODID", text: ProductIdentifier.alarmcal)
    printer.write("CALSCALE", value: "GREGORIAN")
    printer.write("X-WR-CALNAME", text: "Alarms")
    for zone in zones {
      printer.write(zone)
    }
    // Every event has the same DTSTAMP: its text is made once.
    let stamp = DateTimeValue.utc(timestamp.utc).icalString
    var rules = WeeklyRules()
    for (alarm, start) in zip(alarms, starts.local) {
      write(alarm, start: start, stamp: stamp, rules: &rules, to: &printer)
    }
    for task in tasks {
      write(task, stamp: stamp, to: &printer)
    }
    printer.end("VCALENDAR")
    return printer.takeBytes()
  }

  /// Each alarm's first ring on its zone's wall clock, and the earliest ring in each zone.
  private func firstStarts(_ alarms: [Alarm]) throws(AlarmExportError) -> (
    local: [LocalDateTime], earliest: [String: Instant]
  ) {
    /// What every alarm in one zone shares.
    struct Zone {
      let name: String
      let rules: TimeZoneRules
      /// The zone's date at `now`.
      let today: LocalDate
      var earliest: Instant?
    }
    var starts: [LocalDateTime] = []
    starts.reserveCapacity(alarms.count)
    var zones: [Zone] = []
    var zoneIndex: [String: Int] = [:]
    var current = -1
    for alarm in alarms {
      // Alarms in a row often share a zone: comparing its name beats hashing it.
      if current < 0 || zones[current].name != alarm.timeZone {
        if let known = zoneIndex[alarm.timeZone] {
          current = known
        } else {
          guard let rules = TimeZoneRules(identifier: alarm.timeZone) else {
            throw .unknownTimeZone(alarmID: alarm.id, zone: alarm.timeZone)
          }
          zones.append(
            Zone(name: alarm.timeZone, rules: rules, today: rules.local(at: now).date))
          current = zones.count - 1
          zoneIndex[alarm.timeZone] = current
        }
      }
      let ring = AlarmRings.firstExportedRing(
        of: alarm.schedule, now: now, in: zones[current].rules, today: zones[current].today,
        acknowledgedAt: alarm.acknowledgedAt)
      zones[current].earliest = min(zones[current].earliest ?? ring.instant, ring.instant)
      starts.append(ring.start)
    }
    var earliest: [String: Instant] = [:]
    for zone in zones {
      earliest[zone.name] = zone.earliest
    }
    return (starts, earliest)
  }

  /// Prints an alarm's VEVENT and its VALARM.
  private func write(
    _ alarm: Alarm, start: LocalDateTime, stamp: String, rules: inout WeeklyRules,
    to printer: inout ICalendarPrinter
  ) {
    printer.begin("VEVENT")
    printer.write("UID", text: alarm.id)
    printer.write("DTSTAMP", value: stamp)
    printer.write("DTSTART", dateTime: .zoned(start, tzid: alarm.timeZone))
    printer.write("DURATION", value: AlarmVocabulary.eventLength)
    if case .time(_, let days) = alarm.schedule {
      if days.isEmpty {
        printer.write(AlarmVocabulary.rings, value: AlarmVocabulary.ringsOnce)
      } else {
        printer.write("RRULE", value: rules.text(for: days))
      }
    }
    if !alarm.label.isEmpty { printer.write("SUMMARY", text: alarm.label) }
    AlarmExporter.writeExtraFields(alarm.extraFields, to: &printer)
    // An alarm does not make its owner busy (RFC 5545 §3.8.2.7).
    printer.write("TRANSP", value: "TRANSPARENT")
    let alarmUID = alarm.exportedAlarmUID
    let description = alarm.label.isEmpty ? Alarm.defaultLabel : alarm.label
    writeRinging(alarm, uid: alarmUID, description: description, to: &printer)
    if let until = alarm.snoozedUntil, let snoozeUID = alarm.exportedSnoozeUID {
      writeSnooze(
        of: alarm, alarmUID: alarmUID, until: until, uid: snoozeUID, description: description,
        to: &printer)
    }
    printer.end("VEVENT")
  }

  /// Prints the VALARM that rings an alarm: ACTION says whether it is switched on; its sound
  /// and snooze settings, and RFC 9074's ACKNOWLEDGED.
  private func writeRinging(
    _ alarm: Alarm, uid: String, description: String, to printer: inout ICalendarPrinter
  ) {
    printer.begin("VALARM")
    // A derived UID is hex digits and dashes: nothing to escape.
    if alarm.alarmUID == nil {
      printer.write("UID", value: uid)
    } else {
      printer.write("UID", text: uid)
    }
    if alarm.enabled {
      printer.write("ACTION", value: AlarmVocabulary.enabledAction)
      printer.write("DESCRIPTION", text: description)
    } else {
      printer.write("ACTION", value: AlarmVocabulary.disabledAction)
    }
    printer.write("TRIGGER", duration: .zero)
    if let sound = alarm.sound { printer.write(AlarmVocabulary.sound, text: sound) }
    printer.write(AlarmVocabulary.snooze, value: alarm.snooze ? "TRUE" : "FALSE")
    printer.write(
      AlarmVocabulary.snoozeInterval, duration: ICalDuration(seconds: alarm.snoozeMinutes * 60))
    if let acknowledged = alarm.acknowledgedAt {
      printer.write("ACKNOWLEDGED", dateTime: .utc(acknowledged.utc))
    }
    printer.end("VALARM")
  }

  /// Prints a pending snooze, RFC 9074 §7: a sibling alarm with its own UID, an absolute UTC
  /// trigger and a RELATED-TO;RELTYPE=SNOOZE naming the alarm.
  private func writeSnooze(
    of alarm: Alarm, alarmUID: String, until: Instant, uid: String, description: String,
    to printer: inout ICalendarPrinter
  ) {
    printer.begin("VALARM")
    printer.write("UID", text: uid)
    printer.write("ACTION", value: AlarmVocabulary.enabledAction)
    printer.write("DESCRIPTION", text: description)
    printer.write(
      ICalProperty(
        "TRIGGER", DateTimeValue.utc(until.utc).icalString,
        parameters: [ICalParameter("VALUE", "DATE-TIME")]))
    if let sound = alarm.sound { printer.write(AlarmVocabulary.sound, text: sound) }
    printer.write(
      .text("RELATED-TO", alarmUID, parameters: [ICalParameter("RELTYPE", "SNOOZE")]))
    printer.end("VALARM")
  }

  /// Prints a task's VTODO (RFC 5545 §3.6.2): its deadline as DUE, done as STATUS:COMPLETED
  /// with COMPLETED, and its reminder as a VALARM relative to the end, which for a VTODO is its
  /// DUE (§3.8.6.3), with its RFC 9074 ACKNOWLEDGED and a pending snooze as a sibling VALARM.
  private func write(_ task: ToDo, stamp: String, to printer: inout ICalendarPrinter) {
    printer.begin("VTODO")
    printer.write("UID", text: task.id)
    printer.write("DTSTAMP", value: stamp)
    printer.write("SUMMARY", text: task.title)
    printer.write(task.dueProperty)
    if let notes = task.notes { printer.write("DESCRIPTION", text: notes) }
    task.writeRecordCarriers(to: &printer)
    if task.completed {
      printer.write("STATUS", value: "COMPLETED")
      printer.write("COMPLETED", value: stamp)
    } else {
      printer.write("STATUS", value: "NEEDS-ACTION")
    }
    if let minutes = task.remindMinutesBefore {
      printer.begin("VALARM")
      printer.write("UID", text: task.reminderUID)
      printer.write("ACTION", value: "DISPLAY")
      printer.write("DESCRIPTION", text: task.title)
      printer.write(
        ICalProperty(
          "TRIGGER", ICalDuration(negative: minutes > 0, seconds: abs(minutes) * 60).description,
          parameters: [ICalParameter("RELATED", "END")]))
      if let acknowledged = task.acknowledgedAt {
        printer.write("ACKNOWLEDGED", dateTime: .utc(acknowledged.utc))
      }
      printer.end("VALARM")
      if let until = task.snoozedUntil, let snoozeUID = task.exportedSnoozeUID {
        // RFC 9074 §7, as for an alarm's snooze.
        printer.begin("VALARM")
        printer.write("UID", text: snoozeUID)
        printer.write("ACTION", value: "DISPLAY")
        printer.write("DESCRIPTION", text: task.title)
        printer.write(
          ICalProperty(
            "TRIGGER", DateTimeValue.utc(until.utc).icalString,
            parameters: [ICalParameter("VALUE", "DATE-TIME")]))
        printer.write(
          .text("RELATED-TO", task.reminderUID, parameters: [ICalParameter("RELTYPE", "SNOOZE")]))
        printer.end("VALARM")
      }
    }
    printer.end("VTODO")
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

  /// Writes the app record's members alarmcal does not know, one
  /// ``AlarmVocabulary/extraField`` each (alarms and tasks carry theirs alike).
  static func writeExtraFields(_ members: [JSONMember], to printer: inout ICalendarPrinter) {
    let writer = JSONWriter(style: .compact)
    for member in members {
      printer.write(AlarmVocabulary.extraField, text: writer.string(from: .object([member])))
    }
  }
}

/// Ring-time arithmetic on alarm schedules.
public enum AlarmRings {
  /// The day from which repeating alarms are exported: their DTSTART is their first ring on or
  /// after it (or after an earlier `now`), so an unchanged alarm exports the same event
  /// whatever the export's moment, and a sync sends it once.
  public static let seriesEpoch = LocalDate(daysSince1970: 20_454)  // 2026-01-01

  /// The wall-clock start of the ring an export begins an alarm with: a repeating alarm's
  /// first ring on or after ``seriesEpoch`` (or `now`, when earlier); a one-shot's first ring
  /// at or after `now` (a time of day) or its own date-time. A one-shot of a time of day
  /// acknowledged by `now` (dismissed or snoozed, RFC 9074 §6.1) has rung: it starts at its
  /// last ring at or before `acknowledgedAt`, which the acknowledgement covers, so it does not
  /// ring again at the next occurrence of its time.
  static func firstExportedRing(
    of schedule: Alarm.Schedule, now: Instant, in rules: TimeZoneRules, today: LocalDate,
    acknowledgedAt: Instant?
  ) -> (start: LocalDateTime, instant: Instant) {
    if case .time(_, let days) = schedule, days.isEmpty, let acknowledgedAt, acknowledgedAt <= now {
      let dayBefore = acknowledgedAt.adding(seconds: -86_399)
      let rang = firstRing(
        of: schedule, atOrAfter: dayBefore, in: rules, today: rules.local(at: dayBefore).date)
      if rang.instant <= acknowledgedAt { return rang }
    }
    if case .time(_, let days) = schedule, !days.isEmpty {
      let epoch = rules.instant(for: LocalDateTime(seriesEpoch, .midnight))
      if epoch < now {
        return firstRing(of: schedule, atOrAfter: epoch, in: rules, today: seriesEpoch)
      }
    }
    return firstRing(of: schedule, atOrAfter: now, in: rules, today: today)
  }

  /// The wall-clock start of the first ring at or after `now`: for a time-of-day alarm the
  /// next matching day whose ring instant (RFC 5545 §3.3.5) is not before `now`; for a
  /// one-shot reminder its own date-time.
  public static func firstStart(
    of schedule: Alarm.Schedule, atOrAfter now: Instant, in rules: TimeZoneRules
  ) -> LocalDateTime {
    firstRing(of: schedule, atOrAfter: now, in: rules, today: rules.local(at: now).date).start
  }

  /// ``firstStart(of:atOrAfter:in:)`` and the instant it is, given the zone's date at `now`.
  static func firstRing(
    of schedule: Alarm.Schedule, atOrAfter now: Instant, in rules: TimeZoneRules,
    today: LocalDate
  ) -> (start: LocalDateTime, instant: Instant) {
    switch schedule {
    case .at(let local):
      return (local, rules.instant(for: local))
    case .time(let time, let days):
      let ringDays = days.reduce(0) { $0 | 1 << $1.rawValue }
      let weekday = today.weekday
      for offset in 0...7 {
        guard days.isEmpty || ringDays & 1 << weekday.advanced(by: offset).rawValue != 0 else {
          continue
        }
        let candidate = LocalDateTime(today.adding(days: offset), time)
        let instant = rules.instant(for: candidate)
        if instant >= now { return (candidate, instant) }
      }
      let last = LocalDateTime(today.adding(days: 7), time)
      return (last, rules.instant(for: last))
    }
  }
}
