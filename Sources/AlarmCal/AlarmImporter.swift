import ICalendar

/// What import produced: the alarms, and every item it could not keep.
public struct ImportResult: Equatable, Sendable {
  /// The alarms, in file order.
  public var alarms: [Alarm]
  /// One entry per item that was not kept, in file order.
  public var losses: [ImportLoss]
}

/// Why a calendar file could not be imported at all.
public struct AlarmImportError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file name as the user gave it.
  public let file: String
  /// The physical line, if known.
  public let line: Int?
  /// What is wrong.
  public let message: String

  /// `file.ics:LINE: message`.
  public var description: String {
    (line.map { "\(file):\($0)" } ?? file) + ": " + message
  }
}

/// Maps VEVENTs and VTODOs with VALARMs to alarms.
///
/// Kept exactly: weekly rules with plain BYDAY, daily rules (optionally with BYDAY), single
/// instances, triggers relative to the start or end (the ring time and weekdays shift with the
/// offset), several alarms per event (one alarm each). Skipped with a loss line: rules a clock
/// cannot repeat (other frequencies, INTERVAL>1, COUNT, UNTIL, other BY parts, RDATE), EXDATEs
/// and moved instances (the alarm is kept, the exception is not), absolute triggers on series,
/// non-ringing actions (EMAIL, ...), REPEAT/DURATION re-rings, and whatever libical dropped.
public struct AlarmImporter: Sendable {
  /// The file name used in messages.
  public let fileName: String
  /// The zone for floating and all-day times when the calendar names none (`--tz`).
  public let defaultTimeZone: String
  /// The moment of the import: a series that starts after it loses its start date.
  public let now: Instant

  /// Creates an importer.
  public init(fileName: String, defaultTimeZone: String, now: Instant) {
    self.fileName = fileName
    self.defaultTimeZone = defaultTimeZone
    self.now = now
  }

  /// Reads iCalendar text with ``ICalendarReader`` and imports it. libical's parser is not used:
  /// it costs about 7 KB per event and drops properties it does not know (RFC 9074's PROXIMITY),
  /// while the reader keeps every line for the mapping to use or report.
  public func importAlarms(fromText text: String) throws(AlarmImportError) -> ImportResult {
    let components: [ICalComponent]
    do {
      components = try ICalendarReader.read(Array(text.utf8))
    } catch {
      throw AlarmImportError(file: fileName, line: error.line, message: error.message)
    }
    return try importAlarms(from: components)
  }

  /// Imports parsed top-level components (each should be a VCALENDAR).
  public func importAlarms(from components: [ICalComponent]) throws(AlarmImportError)
    -> ImportResult
  {
    let calendars = components.filter { $0.name == "VCALENDAR" }
    guard !calendars.isEmpty else {
      throw AlarmImportError(
        file: fileName, line: components.first?.line,
        message: "no VCALENDAR component: this is not an iCalendar file")
    }
    var result = ImportResult(alarms: [], losses: [])
    for stray in components where stray.name == "VEVENT" || stray.name == "VTODO" {
      result.losses.append(
        ImportLoss(
          file: fileName, line: stray.line, kind: stray.name == "VTODO" ? "task" : "event",
          uid: stray.property("UID")?.text ?? "", summary: stray.property("SUMMARY")?.text,
          reason: "stands outside any VCALENDAR"))
    }
    for calendar in calendars {
      var mapper = CalendarMapper(importer: self, calendar: calendar)
      mapper.run()
      result.alarms += mapper.alarms
      result.losses += mapper.losses
    }
    // One report in file order; items of one line keep the order they were found in.
    result.losses = result.losses.enumerated().sorted {
      ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset)
    }.map(\.element)
    return result
  }
}

/// Imports one VCALENDAR.
private struct CalendarMapper {
  let importer: AlarmImporter
  let calendar: ICalComponent
  var alarms: [Alarm] = []
  var losses: [ImportLoss] = []
  /// Google's calendar-wide zone: floating and UTC times are read in it.
  let calendarZone: String?
  /// TZID → IANA id, from each VTIMEZONE's TZID or X-LIC-LOCATION.
  let definedZones: [String: String]

  init(importer: AlarmImporter, calendar: ICalComponent) {
    self.importer = importer
    self.calendar = calendar
    calendarZone = calendar.calendarTimeZone
    var zones: [String: String] = [:]
    for vtimezone in calendar.components(named: "VTIMEZONE") {
      guard let tzid = vtimezone.property("TZID")?.value else { continue }
      let candidates = [tzid, vtimezone.property("X-LIC-LOCATION")?.value].compactMap { $0 }
      if let iana = candidates.lazy.compactMap(TimeZoneNames.ianaIdentifier(forTZID:)).first {
        zones[tzid] = iana
      } else if let rules = VTimezoneRules(vtimezone) {
        // A custom definition ("Customized Time Zone"): the IANA zone with the same offsets
        // from a year before the import to two years after it.
        let year: Int64 = 366 * 86_400
        zones[tzid] = VTimezoneMatcher.ianaIdentifier(
          for: rules, preferring: [importer.defaultTimeZone],
          from: importer.now.adding(seconds: -year), to: importer.now.adding(seconds: 2 * year))
      }
    }
    definedZones = zones
  }

  mutating func run() {
    let items = calendar.components.filter { $0.name == "VEVENT" || $0.name == "VTODO" }
    for item in items where item.property("RECURRENCE-ID") != nil {
      let uid = item.property("UID")?.text ?? ""
      let hasMaster = items.contains {
        $0.property("RECURRENCE-ID") == nil && $0.property("UID")?.text == uid
          && !$0.components(named: "VALARM").isEmpty
      }
      guard hasMaster else {
        if !item.components(named: "VALARM").isEmpty {
          lose(item, "a moved instance whose series has no alarm cannot be a clock alarm")
        }
        continue
      }
      let original = item.property("RECURRENCE-ID").map { describe($0) } ?? ""
      lose(
        item,
        "moved instance of \(original) cannot be kept (the alarm rings at the series time that day)"
      )
    }
    var seen = Set<String>()
    for item in items where item.property("RECURRENCE-ID") == nil {
      let valarms = item.components(named: "VALARM")
      guard !valarms.isEmpty else { continue }
      if let uid = item.property("UID")?.text, !uid.isEmpty, !seen.insert(uid).inserted {
        lose(item, "another component already has this UID, and alarm ids must be unique")
        continue
      }
      mapItem(item, valarms: valarms)
    }
  }

  private mutating func lose(_ item: ICalComponent, _ reason: String) {
    losses.append(
      ImportLoss(
        file: importer.fileName, line: item.line, kind: item.name == "VTODO" ? "task" : "event",
        uid: item.property("UID")?.text ?? "", summary: item.property("SUMMARY")?.text,
        reason: reason))
  }

  private func describe(_ property: ICalProperty) -> String {
    guard let value = DateTimeValue(property: property) else { return property.value }
    switch value {
    case .date(let date): return "\(date)"
    case .utc(let local): return "\(local)Z"
    case .floating(let local), .zoned(let local, _): return "\(local)"
    }
  }

  /// The IANA zone and wall-clock reading of a DATE/DATE-TIME, or the reason it has none.
  private func resolve(_ value: DateTimeValue) -> Result<
    (zone: TimeZoneRules, local: LocalDateTime), LossReason
  > {
    let zoneName: String
    var local = value.local
    switch value {
    case .zoned(_, let tzid):
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
      zoneName = calendarZone ?? importer.defaultTimeZone
    }
    guard let rules = TimeZoneRules(identifier: zoneName) else {
      return .failure(LossReason("time zone \(quoted(zoneName)) is not known on this system"))
    }
    return .success((rules, local))
  }

  private mutating func mapItem(_ item: ICalComponent, valarms: [ICalComponent]) {
    let uid = item.property("UID")?.text ?? ""
    if uid.isEmpty {
      lose(item, "has no UID, so the alarm would have no stable id")
      return
    }
    if item.property("STATUS")?.value.uppercased() == "CANCELLED" {
      lose(item, "is cancelled (STATUS:CANCELLED), so it never rings")
      return
    }
    for note in ([item] + valarms).flatMap(\.libicalLosses) {
      lose(item, "a line could not be read (\(note))")
    }
    let isTask = item.name == "VTODO"
    let startProperty = item.property("DTSTART")
    let dueProperty = isTask ? item.property("DUE") : nil
    guard let anchorProperty = startProperty ?? dueProperty,
      let anchorValue = DateTimeValue(property: anchorProperty)
    else {
      lose(item, isTask ? "has neither DTSTART nor DUE" : "has no readable DTSTART")
      return
    }
    let anchor: (zone: TimeZoneRules, local: LocalDateTime)
    switch resolve(anchorValue) {
    case .success(let resolved): anchor = resolved
    case .failure(let reason):
      lose(item, reason.text)
      return
    }
    guard let repeatDays = repeatDays(item, start: anchor.local, hasStart: startProperty != nil)
    else {
      return
    }
    for exdate in item.properties(named: "EXDATE") {
      lose(item, "EXDATE \(describe(exdate)) cannot be kept (the alarm also rings on that day)")
    }
    // Thunderbird keeps a pending snooze on the event; a clock alarm has no snoozed ring to carry.
    for snooze in item.properties where snooze.name.hasPrefix("X-MOZ-SNOOZE-TIME") {
      if case .utc(let utc)? = DateTimeValue(property: snooze), Instant(utc: utc) >= importer.now {
        lose(item, "the snoozed ring at \(describe(snooze)) (\(snooze.name)) cannot be kept")
      }
    }
    let summary = item.property("SUMMARY")?.text ?? ""
    let ringsOnce =
      item.property(AlarmVocabulary.rings)?.value.uppercased() == AlarmVocabulary.ringsOnce
    var keptCount = 0
    for valarm in valarms {
      guard
        let alarm = mapAlarm(
          valarm, in: item, anchor: anchor, repeatDays: repeatDays, ringsOnce: ringsOnce,
          summary: summary, number: keptCount + 1, uid: uid)
      else { continue }
      keptCount += 1
      alarms.append(alarm)
    }
  }

  /// The weekdays of a repeating item (empty for a single instance), or nil after a loss.
  private mutating func repeatDays(_ item: ICalComponent, start: LocalDateTime, hasStart: Bool)
    -> Set<Weekday>?
  {
    if !item.properties(named: "RDATE").isEmpty {
      lose(item, "RDATE adds extra dates that a clock alarm cannot repeat")
      return nil
    }
    let rules = item.properties(named: "RRULE")
    guard let ruleProperty = rules.first else { return [] }
    guard rules.count == 1 else {
      lose(item, "has \(rules.count) RRULEs; a clock alarm follows one weekly pattern")
      return nil
    }
    guard hasStart else {
      lose(item, "repeats without a DTSTART")
      return nil
    }
    let rule: RecurrenceRule
    do {
      rule = try RecurrenceRule(parsing: ruleProperty.value)
    } catch {
      lose(item, "RRULE cannot be read: \(error.message)")
      return nil
    }
    let why: String? =
      switch rule.frequency {
      case .daily, .weekly:
        if rule.interval != 1 {
          "RRULE \(rule.text) repeats every \(rule.interval) \(rule.frequency == .daily ? "days" : "weeks"); a clock alarm repeats every week"
        } else if rule.count != nil || rule.until != nil {
          "RRULE \(rule.text) ends (COUNT/UNTIL); a clock alarm repeats without end"
        } else if rule.hasByPartsBesidesDay || rule.byDay.contains(where: { $0.ordinal != nil }) {
          "RRULE \(rule.text) selects days a clock alarm cannot express"
        } else {
          nil
        }
      default:
        "RRULE \(rule.text) repeats \(rule.frequency.rawValue.lowercased()); a clock alarm repeats on weekdays"
      }
    if let why {
      lose(item, why)
      return nil
    }
    if !rule.byDay.isEmpty { return Set(rule.byDay.map(\.weekday)) }
    return rule.frequency == .daily ? Set(Weekday.allCases) : [start.date.weekday]
  }

  private mutating func mapAlarm(
    _ valarm: ICalComponent, in item: ICalComponent,
    anchor: (zone: TimeZoneRules, local: LocalDateTime), repeatDays: Set<Weekday>, ringsOnce: Bool,
    summary: String, number: Int, uid: String
  ) -> Alarm? {
    let action = valarm.property("ACTION")?.value.uppercased() ?? ""
    let enabled: Bool
    switch action {
    case "AUDIO", "DISPLAY": enabled = true
    case AlarmVocabulary.disabledAction:
      if valarm.property("TRIGGER")?.parameter("VALUE")?.uppercased() == "DATE-TIME" {
        lose(item, "ACTION:NONE alarm with an absolute trigger is a \"no alert\" placeholder")
        return nil
      }
      enabled = false
    case "":
      lose(item, "a VALARM without ACTION")
      return nil
    default:
      lose(item, "ACTION:\(action) alarm does not ring")
      return nil
    }
    if let proximity = valarm.property("PROXIMITY") {
      lose(
        item,
        "PROXIMITY:\(proximity.value) (RFC 9074) rings on arriving at or leaving a place; only the alarm's time is kept"
      )
    }
    if let repeatCount = valarm.property("REPEAT")?.value, repeatCount != "0" {
      let interval = valarm.property("DURATION")?.value ?? "?"
      lose(
        item,
        "REPEAT:\(repeatCount) re-rings every \(interval) cannot be kept (the alarm rings once)")
    }
    guard let ring = ringTime(valarm, item: item, anchor: anchor, repeating: !repeatDays.isEmpty)
    else { return nil }
    let schedule: Alarm.Schedule
    if repeatDays.isEmpty {
      schedule = ringsOnce ? .time(ring.time, repeat: []) : .at(ring)
    } else {
      let shift = ring.date.daysSince1970 - anchor.local.date.daysSince1970
      schedule = .time(ring.time, repeat: Set(repeatDays.map { $0.advanced(by: shift) }))
      let clockFirst = AlarmRings.firstStart(of: schedule, atOrAfter: importer.now, in: anchor.zone)
      if anchor.zone.instant(for: ring) > anchor.zone.instant(for: clockFirst) {
        lose(
          item,
          "start date \(ring.date) cannot be kept (a clock alarm rings from now on)"
        )
      }
    }
    var sound: String?
    if action == "AUDIO" || action == AlarmVocabulary.disabledAction,
      let attach = valarm.property("ATTACH")
    {
      if attach.parameter("VALUE")?.uppercased() == "BINARY" || attach.parameter("ENCODING") != nil
      {
        lose(item, "an embedded (binary) alarm sound cannot be kept; the default sound is used")
      } else {
        sound = attach.value
      }
    }
    let snooze = valarm.property(AlarmVocabulary.snooze)?.value.uppercased() != "FALSE"
    var snoozeMinutes = Alarm.defaultSnoozeMinutes
    if let text = valarm.property(AlarmVocabulary.snoozeInterval)?.value,
      let duration = ICalDuration(text), duration.days == 0, duration.seconds % 60 == 0,
      Alarm.snoozeMinutesRange.contains(duration.seconds / 60)
    {
      snoozeMinutes = duration.seconds / 60
    }
    return Alarm(
      id: number == 1 ? uid : "\(uid)#\(number)", schedule: schedule, label: summary,
      sound: sound, snooze: snooze, snoozeMinutes: snoozeMinutes, enabled: enabled,
      timeZone: anchor.zone.identifier)
  }

  /// The wall-clock ring of the first instance, in the anchor's zone; nil after a loss.
  private mutating func ringTime(
    _ valarm: ICalComponent, item: ICalComponent,
    anchor: (zone: TimeZoneRules, local: LocalDateTime), repeating: Bool
  ) -> LocalDateTime? {
    guard let trigger = valarm.property("TRIGGER") else {
      lose(item, "a VALARM without TRIGGER")
      return nil
    }
    if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" {
      guard !repeating else {
        lose(item, "an absolute TRIGGER rings once, not with every repetition")
        return nil
      }
      guard case .utc(let utc)? = DateTimeValue(text: trigger.value) else {
        lose(item, "absolute TRIGGER \(quoted(trigger.value)) is not a UTC date-time")
        return nil
      }
      return anchor.zone.local(at: Instant(utc: utc))
    }
    guard let offset = ICalDuration(trigger.value) else {
      lose(item, "TRIGGER \(quoted(trigger.value)) is not a duration")
      return nil
    }
    let base: LocalDateTime
    if trigger.parameter("RELATED")?.uppercased() == "END" {
      guard let end = endOfFirstInstance(item, anchor: anchor) else { return nil }
      base = end
    } else {
      guard item.name != "VTODO" || item.property("DTSTART") != nil else {
        lose(item, "TRIGGER relative to the start of a task without DTSTART")
        return nil
      }
      base = anchor.local
    }
    let ring = AlarmTriggers.apply(offset, to: base, in: anchor.zone)
    guard (1...9999).contains(ring.date.year) else {
      lose(item, "TRIGGER \(trigger.value) rings outside the years 1 to 9999")
      return nil
    }
    return ring
  }

  /// DTEND, DTSTART+DURATION, DUE for a task, or the RFC 5545 default end; nil after a loss.
  private mutating func endOfFirstInstance(
    _ item: ICalComponent, anchor: (zone: TimeZoneRules, local: LocalDateTime)
  ) -> LocalDateTime? {
    let endName = item.name == "VTODO" ? "DUE" : "DTEND"
    if let endProperty = item.property(endName) {
      guard let value = DateTimeValue(property: endProperty) else {
        lose(item, "\(endName) cannot be read")
        return nil
      }
      switch resolve(value) {
      case .success(let end):
        return anchor.zone.local(at: end.zone.instant(for: end.local))
      case .failure(let reason):
        lose(item, reason.text)
        return nil
      }
    }
    if let text = item.property("DURATION")?.value {
      guard let duration = ICalDuration(text) else {
        lose(item, "DURATION \(quoted(text)) is not a duration")
        return nil
      }
      return AlarmTriggers.apply(duration, to: anchor.local, in: anchor.zone)
    }
    if item.name == "VTODO" {
      lose(item, "TRIGGER relative to the end of a task without DUE")
      return nil
    }
    // RFC 5545 §3.6.1: a DATE start lasts one day; a DATE-TIME start ends when it starts.
    let isDate = item.property("DTSTART")?.parameter("VALUE")?.uppercased() == "DATE"
    return isDate ? LocalDateTime(anchor.local.date.adding(days: 1), .midnight) : anchor.local
  }
}

/// A reason for a loss line.
private struct LossReason: Error {
  let text: String
  init(_ text: String) { self.text = text }
}
