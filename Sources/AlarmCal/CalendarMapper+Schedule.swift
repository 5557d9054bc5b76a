import ICalendar

/// When an imported alarm rings: the weekdays its RRULE gives a clock alarm, its trigger
/// against the start or end of the item's first instance on the anchor's wall clock, and the
/// loss lines where the calendar and a clock alarm part.
extension CalendarMapper {
  /// The weekdays of a repeating item (empty for a single instance), or nil after a loss.
  mutating func repeatDays(_ item: ICalComponent, start: LocalDateTime, hasStart: Bool)
    -> Set<Weekday>?
  {
    if item.hasProperty(uppercased: "RDATE") {
      lose(item, "RDATE adds extra dates that a clock alarm cannot repeat", .skipped)
      return nil
    }
    guard let ruleText = item.propertyValue(uppercased: "RRULE") else { return [] }
    let ruleCount = item.properties(named: "RRULE").count
    guard ruleCount == 1 else {
      lose(item, "has \(ruleCount) RRULEs; a clock alarm follows one weekly pattern", .skipped)
      return nil
    }
    guard hasStart else {
      lose(item, "repeats without a DTSTART", .skipped)
      return nil
    }
    let read: ReadRule
    switch readRule(ruleText) {
    case .success(let readRule): read = readRule
    case .failure(let error):
      lose(item, "RRULE cannot be read: \(error.message)", .skipped)
      return nil
    }
    let rule = read.rule
    guard rule.repeatsWeeklyForever else {
      lose(item, Self.whyNotWeekly(rule), .skipped)
      return nil
    }
    if !rule.byDay.isEmpty { return read.byDayWeekdays }
    return rule.frequency == .daily ? Set(Weekday.allCases) : [start.date.weekday]
  }

  /// Why `rule`, which does not repeat a weekly pattern for ever, is no clock alarm's.
  private static func whyNotWeekly(_ rule: RecurrenceRule) -> String {
    switch rule.frequency {
    case .daily, .weekly:
      if rule.interval != 1 {
        "RRULE \(rule.text) repeats every \(rule.interval) \(rule.frequency == .daily ? "days" : "weeks"); a clock alarm repeats every week"
      } else if rule.count != nil || rule.until != nil {
        "RRULE \(rule.text) ends (COUNT/UNTIL); a clock alarm repeats without end"
      } else {
        "RRULE \(rule.text) selects days a clock alarm cannot express"
      }
    default:
      "RRULE \(rule.text) repeats \(rule.frequency.rawValue.lowercased()); a clock alarm repeats on weekdays"
    }
  }

  /// The RRULE value `text` read as a rule, read once per distinct text.
  mutating func readRule(_ text: String) -> Result<ReadRule, RecurrenceRuleError> {
    if let known = rulesByText[text] { return known }
    let read = Result { () throws(RecurrenceRuleError) in
      let rule = try RecurrenceRule(parsing: text)
      return ReadRule(rule: rule, byDayWeekdays: Set(rule.byDay.map(\.weekday)))
    }
    rulesByText[text] = read
    return read
  }

  /// The wall-clock ring of the first instance, in the anchor's zone; nil after a loss.
  mutating func ringTime(
    _ alarm: AlarmComponent, item: ICalComponent,
    anchor: (zone: TimeZoneRules, local: LocalDateTime), repeatDays: Set<Weekday>
  ) -> LocalDateTime? {
    let repeating = !repeatDays.isEmpty
    let offset: ICalDuration
    let fromEnd: Bool
    switch alarm.trigger {
    case .failure(.missing):
      lose(item, "a VALARM without TRIGGER", .alarmSkipped)
      return nil
    case .failure(.notDuration(let text)):
      lose(item, "TRIGGER \(quoted(text)) is not a duration", .alarmSkipped)
      return nil
    case .failure(.notDateTime), .success(.absolute):
      return absoluteRing(alarm, item: item, zone: anchor.zone, repeating: repeating)
    case .success(.relative(let duration, let relatedToEnd)):
      (offset, fromEnd) = (duration, relatedToEnd)
    }
    let base: LocalDateTime
    if fromEnd {
      guard let end = endOfFirstInstance(item, anchor: anchor) else { return nil }
      base = end
    } else {
      guard item.name != "VTODO" || alarm.missingAnchor == nil else {
        lose(item, "TRIGGER relative to the start of a task without DTSTART", .alarmSkipped)
        return nil
      }
      base = anchor.local
    }
    let ring = AlarmTriggers.apply(offset, to: base, in: anchor.zone)
    guard (1...9999).contains(ring.date.year) else {
      let text = alarm.component.propertyValue(uppercased: "TRIGGER") ?? ""
      lose(item, "TRIGGER \(text) rings outside the years 1 to 9999", .alarmSkipped)
      return nil
    }
    if offset.seconds != 0 {
      reportExactTrigger(
        alarm, item: item, offset: offset, base: base, ring: ring, anchor: anchor,
        repeatDays: repeatDays)
    }
    return ring
  }

  /// A loss line when a trigger's exact part (hours, minutes, seconds: elapsed time, RFC 5545
  /// §3.3.6) makes the calendar ring off the clock alarm's wall-clock time: where a DST change
  /// falls between the ring and the start (or end) it counts from, and where the ring's
  /// reading occurs twice (a clock alarm rings at the first). A repeating alarm's nights are
  /// looked for over two years from the import's moment.
  private mutating func reportExactTrigger(
    _ alarm: AlarmComponent, item: ICalComponent, offset: ICalDuration, base: LocalDateTime,
    ring: LocalDateTime, anchor: (zone: TimeZoneRules, local: LocalDateTime),
    repeatDays: Set<Weekday>
  ) {
    let zone = anchor.zone
    let baseShift = base.date.daysSince1970 - anchor.local.date.daysSince1970
    let ringShift = ring.date.daysSince1970 - anchor.local.date.daysSince1970
    /// Whether the instance starting on `date` rings off its clock alarm's time.
    func isOff(_ date: LocalDate) -> Bool {
      let from = AlarmTriggers.Moment(
        LocalDateTime(date.adding(days: baseShift), base.time), in: zone)
      let calendar = AlarmTriggers.instant(offset, after: from, in: zone)
      return calendar != zone.instant(for: LocalDateTime(date.adding(days: ringShift), ring.time))
    }
    var nights: [LocalDate] = []
    if repeatDays.isEmpty {
      if isOff(anchor.local.date) { nights.append(anchor.local.date) }
    } else {
      let today = zone.local(at: importer.now).date
      var previous = zone.offset(at: zone.instant(for: LocalDateTime(today, .midnight)))
      for day in 1...731 {
        let date = today.adding(days: day)
        let current = zone.offset(at: zone.instant(for: LocalDateTime(date, .midnight)))
        defer { previous = current }
        guard current != previous else { continue }
        // The change fell on the day before `date`: instances a day either side may straddle it.
        for candidate in [date.adding(days: -2), date.adding(days: -1), date]
        where repeatDays.contains(candidate.weekday) && !nights.contains(candidate)
          && isOff(candidate)
        {
          nights.append(candidate)
        }
      }
    }
    guard !nights.isEmpty else { return }
    let text = alarm.component.propertyValue(uppercased: "TRIGGER") ?? ""
    let shown = nights.prefix(4).map(\.description).joined(separator: ", ")
    let more = nights.count > 4 ? " and \(nights.count - 4) more" : ""
    lose(
      item,
      "TRIGGER \(text) counts exact time across a DST change, so the calendar rings an hour off \(AlarmTextFormats.clockString(ring.time)) for the instance of \(shown)\(more)",
      .alarmKept("it rings at \(AlarmTextFormats.clockString(ring.time)) on its wall clock"))
  }

  /// An absolute trigger's wall-clock reading in `zone`; nil after a loss.
  private mutating func absoluteRing(
    _ alarm: AlarmComponent, item: ICalComponent, zone: TimeZoneRules, repeating: Bool
  ) -> LocalDateTime? {
    guard !repeating else {
      lose(item, "an absolute TRIGGER rings once, not with every repetition", .alarmSkipped)
      return nil
    }
    guard case .success(.absolute(.utc(let utc))) = alarm.trigger else {
      let text = alarm.component.propertyValue(uppercased: "TRIGGER") ?? ""
      lose(item, "absolute TRIGGER \(quoted(text)) is not a UTC date-time", .alarmSkipped)
      return nil
    }
    return zone.local(at: Instant(utc: utc))
  }

  /// DTEND, DTSTART+DURATION, DUE for a task, or the RFC 5545 default end; nil after a loss.
  private mutating func endOfFirstInstance(
    _ item: ICalComponent, anchor: (zone: TimeZoneRules, local: LocalDateTime)
  ) -> LocalDateTime? {
    let endName = item.name == "VTODO" ? "DUE" : "DTEND"
    if let endProperty = item.property(endName) {
      guard let value = DateTimeValue(property: endProperty) else {
        lose(item, "\(endName) cannot be read", .alarmSkipped)
        return nil
      }
      switch resolve(value) {
      case .success(let end):
        return anchor.zone.local(at: end.zone.instant(for: end.local))
      case .failure(let reason):
        lose(item, reason.text, .alarmSkipped)
        return nil
      }
    }
    if let text = item.propertyValue(uppercased: "DURATION") {
      guard let duration = ICalDuration(text) else {
        lose(item, "DURATION \(quoted(text)) is not a duration", .alarmSkipped)
        return nil
      }
      return AlarmTriggers.apply(duration, to: anchor.local, in: anchor.zone)
    }
    if item.name == "VTODO" {
      lose(
        item, "TRIGGER relative to the end of a task without DUE (or DTSTART and DURATION)",
        .alarmSkipped)
      return nil
    }
    // RFC 5545 §3.6.1: a DATE start lasts one day; a DATE-TIME start ends when it starts.
    let isDate = item.property(uppercased: "DTSTART")?.parameter("VALUE")?.uppercased() == "DATE"
    return isDate ? LocalDateTime(anchor.local.date.adding(days: 1), .midnight) : anchor.local
  }
}
