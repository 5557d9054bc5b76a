import ICalendar

/// What a master component (or an instance read without its series) gives its series, read
/// once when it comes; its overrides are added when the calendar has been read
/// (``SeriesReader/series(_:overrides:)``).
struct MasterParts {
  let origin: FiringOrigin
  let line: Int?
  let componentName: String
  let placed: CalendarTimes.Placed
  var rule: RecurrenceIterator?
  /// The RECURRENCE-ID of an instance read without its series.
  let fixedRecurrenceID: RecurrenceID?
  /// The master's template (no alarms for a completed task).
  let template: InstanceTemplate
  let excludedInstants: Set<Instant>
  let excludedDates: Set<LocalDate>
  let rdates: [RDateInstance]
  /// The master's absolute triggers and Thunderbird snoozes.
  let singles: [Firing]
}

/// A master read: its parts (nil when it has no start or zone to ring at), whether it holds
/// anything that may ring (``SeriesReader/mayRing(_:)``), and the warnings reading it gave.
struct ReadMaster {
  var parts: MasterParts?
  let mayRing: Bool
  var warnings: [SchedulerWarning]
}

/// Reads VEVENTs and VTODOs into series parts, RFC 5545 §3.6.1-3.6.2, §3.8.5: the start and
/// its zone, the RRULE, EXDATEs and RDATEs, the alarms of each instance, and overrides
/// (RECURRENCE-ID, RANGE=THISANDFUTURE). Problems become warnings; nothing is fatal.
struct SeriesReader {
  let file: String
  let fileIndex: Int
  let times: CalendarTimes
  let workLimit: Int
  /// Warnings of the component being read.
  var warnings: [SchedulerWarning] = []
  /// Each RRULE text read: its place in `compiledRules`, or why it cannot be read. Large
  /// calendars repeat a few rules many times.
  private var rules: [String: Result<Int, RecurrenceRuleError>] = [:]
  /// The rules read, with their compiled plans.
  private var compiledRules: [RecurrencePlans] = []
  /// What ``probe(_:_:_:start:)`` asks of each rule in `compiledRules`, read once.
  private var ruleTraits: [RuleTraits] = []

  /// What the probe of a rule needs to know of it.
  private struct RuleTraits {
    /// No COUNT and no UNTIL.
    let endless: Bool
    /// A weekly pattern for ever (``RecurrenceRule/repeatsWeeklyForever``): an instance every
    /// week.
    let everyWeek: Bool

    init(_ rule: RecurrenceRule) {
      endless = rule.count == nil && rule.until == nil
      everyWeek = rule.repeatsWeeklyForever
    }
  }

  /// Whether an open task without a VALARM rings at its DUE (`upcoming --include-due`).
  private let includeDue: Bool

  init(file: String, fileIndex: Int, times: CalendarTimes, workLimit: Int, includeDue: Bool) {
    self.file = file
    self.fileIndex = fileIndex
    self.times = times
    self.workLimit = workLimit
    self.includeDue = includeDue
  }

  /// Whether `item` is a task without a VALARM whose deadline is listed: with
  /// ``includeDue``, it rings at its DUE (or DTSTART plus DURATION), action `DUE`.
  private func ringsAtDue(_ item: ICalComponent) -> Bool {
    includeDue && item.name == "VTODO" && !item.components.contains { $0.name == "VALARM" }
      && (item.hasProperty(uppercased: "DUE")
        || item.hasProperty(uppercased: "DTSTART") && item.hasProperty(uppercased: "DURATION"))
  }

  mutating func warn(_ item: ICalComponent, _ uid: String, _ message: String) {
    warnings.append(
      SchedulerWarning(
        file: file, line: item.line, component: item.name, uid: uid, message: message))
  }

  /// Whether `item` (a master or an override) holds anything that may ring: an alarm, a
  /// Thunderbird snooze, or a DUE that rings.
  func mayRing(_ item: ICalComponent) -> Bool {
    AlarmComponent.mayRing(item) || ringsAtDue(item)
  }

  /// Reads a master (no RECURRENCE-ID), or an instance without its series, into its parts.
  mutating func master(_ item: ICalComponent, uid: String, identity: String) -> ReadMaster {
    warnings = []
    let mayRing = self.mayRing(item)
    let parts = masterParts(item, uid: uid, identity: identity)
    return ReadMaster(parts: parts, mayRing: mayRing, warnings: warnings)
  }

  private mutating func masterParts(_ item: ICalComponent, uid: String, identity: String)
    -> MasterParts?
  {
    warnOfUnreadableLines(item, uid: uid)
    guard let placed = place(item, uid: uid) else { return nil }
    let isOverride = item.hasProperty(uppercased: "RECURRENCE-ID")
    // Read in this order, which is the order of their warnings.
    let rule = isOverride ? nil : recurrence(item, uid: uid, placed: placed)
    let (excludedInstants, excludedDates) = exclusions(item, uid: uid)
    let rdates = isOverride ? [] : extraDates(item, uid: uid, placed: placed)
    let lastAck = mozillaLastAck(of: item)
    let template = self.template(item, uid: uid, placed: placed, lastAck: lastAck)
    let origin = FiringOrigin(
      file: file, fileIndex: fileIndex, uid: uid, component: item.name, identity: identity)
    let fixedRecurrenceID = item.property(uppercased: "RECURRENCE-ID")
      .flatMap(DateTimeValue.init(property:))
      .flatMap { recurrenceID(of: $0) }
    // A cancelled event and a completed task do not ring; their overrides ring for their own.
    let singles =
      template.cancelled
      ? []
      : singleFirings(
        item, origin: origin, template: template, placed: placed,
        recurrenceID: fixedRecurrenceID, lastAck: lastAck)
    return MasterParts(
      origin: origin, line: item.line, componentName: item.name, placed: placed, rule: rule,
      fixedRecurrenceID: fixedRecurrenceID, template: template,
      excludedInstants: excludedInstants, excludedDates: excludedDates, rdates: rdates,
      singles: singles)
  }

  /// What the reader could not read (a line that is no content line), the component's own first.
  private mutating func warnOfUnreadableLines(_ item: ICalComponent, uid: String) {
    for note in item.unreadable + item.components.flatMap(\.unreadable) {
      warn(item, uid, "a line could not be read and is ignored (\(note))")
    }
  }

  /// The component's start (a task without one: its DUE) placed in its zone; nil, with a
  /// warning, when there is none or its zone is unknown.
  private mutating func place(_ item: ICalComponent, uid: String) -> CalendarTimes.Placed? {
    let isTask = item.name == "VTODO"
    guard
      let anchorProperty = item.property(uppercased: "DTSTART")
        ?? (isTask ? item.property(uppercased: "DUE") : nil),
      let anchorValue = DateTimeValue(property: anchorProperty)
    else {
      warn(
        item, uid,
        isTask
          ? "no DTSTART or DUE; its alarms cannot ring"
          : "no readable DTSTART; its alarms cannot ring")
      return nil
    }
    guard let placed = times.place(anchorValue) else {
      let tzid = anchorProperty.parameter("TZID") ?? ""
      warn(item, uid, "time zone \(quoted(tzid)) is unknown; its alarms cannot ring")
      return nil
    }
    return placed
  }

  /// The master's RRULE (the first, with a warning when there are more), iterated from its
  /// start; nil without one or when it cannot be read (only DTSTART then rings).
  private mutating func recurrence(_ item: ICalComponent, uid: String, placed: CalendarTimes.Placed)
    -> RecurrenceIterator?
  {
    guard let ruleProperty = item.property(uppercased: "RRULE") else { return nil }
    if item.properties.count(where: { $0.name == "RRULE" }) > 1 {
      warn(item, uid, "several RRULEs; only the first is used")
    }
    switch parsedRule(ruleProperty.value) {
    case .success(let index):
      let until = compiledRules[index].rule.until.flatMap { untilReading($0, placed: placed) }
      let rule = RecurrenceIterator(
        plans: &compiledRules[index], start: placed.local, isDate: placed.isDate,
        until: until, workLimit: workLimit)
      if let probeWarning = probe(ruleProperty.value, ruleTraits[index], rule, start: placed.local)
      {
        warn(item, uid, probeWarning)
      }
      return rule
    case .failure(let error):
      warn(item, uid, "RRULE cannot be read (\(error.message)); only DTSTART rings")
      return nil
    }
  }

  /// The EXDATEs: DATE-TIMEs as instants, DATEs as dates (RFC 5545 §3.8.5.1).
  private mutating func exclusions(_ item: ICalComponent, uid: String) -> (
    Set<Instant>, Set<LocalDate>
  ) {
    var instants = Set<Instant>()
    var dates = Set<LocalDate>()
    for exdate in item.properties where exdate.name == "EXDATE" {
      for value in values(of: exdate, in: item, uid: uid) {
        if case .date(let date) = value {
          dates.insert(date)
        } else if let instant = times.instant(value) {
          instants.insert(instant)
        }
      }
    }
    return (instants, dates)
  }

  /// The RDATEs on the series' wall clock, sorted, each with a PERIOD's own length
  /// (RFC 5545 §3.8.5.2).
  private mutating func extraDates(
    _ item: ICalComponent, uid: String, placed: CalendarTimes.Placed
  ) -> [RDateInstance] {
    var rdates: [RDateInstance] = []
    for rdate in item.properties where rdate.name == "RDATE" {
      for (value, end) in periods(of: rdate, in: item, uid: uid) {
        let local: LocalDateTime
        if case .date(let date) = value, placed.isDate {
          local = LocalDateTime(date, .midnight)
        } else if let instant = times.instant(value) {
          local = placed.zone.local(at: instant)
        } else {
          continue
        }
        rdates.append(RDateInstance(local: local, length: periodLength(end, rdate, local, placed)))
      }
    }
    rdates.sort { $0.local < $1.local }
    return rdates
  }

  /// The place in `compiledRules` of the rule `text` reads as, reading it the first time.
  private mutating func parsedRule(_ text: String) -> Result<Int, RecurrenceRuleError> {
    if let known = rules[text] { return known }
    let parsed = Result { () throws(RecurrenceRuleError) in
      let rule = try RecurrenceRule(parsing: text)
      compiledRules.append(RecurrencePlans(rule: rule))
      ruleTraits.append(RuleTraits(rule))
      return compiledRules.count - 1
    }
    rules[text] = parsed
    return parsed
  }

  /// UNTIL on the series' wall clock: a UTC UNTIL is compared as an instant (RFC 5545 §3.3.10).
  private func untilReading(_ until: DateTimeValue, placed: CalendarTimes.Placed) -> LocalDateTime?
  {
    switch until {
    case .utc(let utc): placed.zone.local(at: Instant(utc: utc))
    case .date(let date):
      // A DATE UNTIL includes its whole day.
      LocalDateTime(date, LocalTime(secondsSinceMidnight: 86_399))
    case .floating(let local), .zoned(let local, _): local
    }
  }

  /// A warning when the rule can never produce an instance after DTSTART.
  private func probe(
    _ text: String, _ rule: RuleTraits, _ iterator: RecurrenceIterator?, start: LocalDateTime
  ) -> String? {
    // A rule that repeats a weekly pattern for ever has an instance in every week (within a
    // few candidates), so the copy need not be run: most calendars' rules.
    if rule.everyWeek, start.date.year < 9999, workLimit >= 1_000 { return nil }
    guard var copy = iterator else { return nil }
    _ = copy.next()  // DTSTART
    if copy.next() != nil { return nil }
    if copy.stoppedByWorkLimit {
      return "RRULE \(text) found no instance within \(workLimit) candidates; only DTSTART rings"
    }
    if rule.endless {
      return "RRULE \(text) can never produce an instance; only DTSTART rings"
    }
    return nil
  }

  /// The values of a multi-valued DATE / DATE-TIME / PERIOD property (PERIOD: its start).
  private mutating func values(of property: ICalProperty, in item: ICalComponent, uid: String)
    -> [DateTimeValue]
  {
    periods(of: property, in: item, uid: uid).map(\.start)
  }

  /// Each value's start, and for a PERIOD the text after its `/` (an end or a duration); a
  /// value that cannot be read is reported and skipped.
  private mutating func periods(of property: ICalProperty, in item: ICalComponent, uid: String)
    -> [(start: DateTimeValue, end: String?)]
  {
    let tzid = property.parameter(uppercased: "TZID")
    let isDate = property.parameter(uppercased: "VALUE")?.asciiUppercased == "DATE"
    var result: [(start: DateTimeValue, end: String?)] = []
    for value in property.value.split(separator: ",", omittingEmptySubsequences: false) {
      let parts = value.split(separator: "/", maxSplits: 1).map(String.init)
      guard let first = parts.first,
        let start = DateTimeValue(text: first, tzid: tzid, isDate: isDate)
      else {
        if !property.value.isEmpty {
          warn(
            item, uid,
            "\(property.name) value \(quoted(String(value))) cannot be read; it is ignored")
        }
        continue
      }
      result.append((start, parts.count == 2 ? parts[1] : nil))
    }
    return result
  }

  /// A PERIOD's own length (RFC 5545 §3.3.9: an explicit end or a duration), else nil.
  private func periodLength(
    _ end: String?, _ property: ICalProperty, _ start: LocalDateTime, _ placed: CalendarTimes.Placed
  ) -> InstanceLength? {
    guard let end else { return nil }
    if let duration = ICalDuration(end) { return .duration(duration) }
    guard let value = DateTimeValue(text: end, tzid: property.parameter(uppercased: "TZID")),
      let endInstant = times.instant(value)
    else { return nil }
    let startInstant = placed.zone.instant(for: start)
    return .exact(seconds: endInstant.secondsSince1970 - startInstant.secondsSince1970)
  }

  /// The instance a RECURRENCE-ID `value` names: its date, or the instant of its date-time.
  func recurrenceID(of value: DateTimeValue) -> RecurrenceID? {
    if case .date(let date) = value { return .date(date) }
    return times.instant(value).map(RecurrenceID.instant)
  }

  /// Thunderbird's X-MOZ-LASTACK of `item`, on the clock.
  func mozillaLastAck(of item: ICalComponent) -> Instant? {
    AlarmComponent.mozillaLastAck(of: item).flatMap { times.instant($0) }
  }

  /// What each instance of `item` rings with; a completed task's rings with nothing, as a
  /// cancelled event's (its alarms are still read, for their warnings).
  mutating func template(
    _ item: ICalComponent, uid: String, placed: CalendarTimes.Placed, lastAck: Instant?
  ) -> InstanceTemplate {
    let cancelled = item.isCancelled
    let length = length(of: item, uid: uid, placed: placed)
    var alarms: [RingingAlarm] = []
    var positions = (alarms: 0, snoozes: 0)
    for valarm in item.components where valarm.name == "VALARM" {
      let snoozeOf = AlarmComponent.snoozeOf(valarm)
      let alarmUID = valarm.property(uppercased: "UID")?.text
      let key: String
      if snoozeOf == nil {
        key = "#\(positions.alarms)"
        positions.alarms += 1
      } else {
        key = alarmUID ?? "#snooze\(positions.snoozes)"
        positions.snoozes += 1
      }
      let identity = AlarmIdentity(
        key: key, uid: alarmUID, snoozeOf: snoozeOf, sourceOffset: valarm.sourceRange?.lowerBound,
        settings: AlarmSettings(snoozeOf.flatMap { snoozed($0, in: item) } ?? valarm))
      if let alarm = alarmDefinition(
        valarm, identity: identity, item: item, uid: uid, lastAck: lastAck)
      {
        alarms.append(alarm)
      }
    }
    if ringsAtDue(item) {
      // A deadline: the end of the task (its DUE), as a trigger related to the end would ring.
      alarms.append(
        RingingAlarm(
          action: "DUE", trigger: .relative(.zero, fromEnd: true), repeatCount: 0,
          repeatInterval: .zero, acknowledged: nil,
          identity: AlarmIdentity(
            key: "#due", uid: nil, snoozeOf: nil, sourceOffset: item.sourceRange?.lowerBound)))
    }
    let template = InstanceTemplate(
      summary: item.property(uppercased: "SUMMARY")?.text, alarms: alarms, cancelled: cancelled,
      length: length)
    return item.isCompletedTask ? template.silenced : template
  }

  /// The VALARM of `item` that is no snooze and whose UID is `uid`: a snooze offers what the
  /// alarm it snoozes offers.
  private func snoozed(_ uid: String, in item: ICalComponent) -> ICalComponent? {
    item.components.first {
      $0.name == "VALARM" && AlarmComponent.snoozeOf($0) == nil
        && $0.property(uppercased: "UID")?.text == uid
    }
  }

  /// How long each instance of `item` lasts, from DTEND (a task's DUE) or DURATION, or
  /// RFC 5545's default; an unreadable one is warned about and ignored.
  private mutating func length(
    of item: ICalComponent, uid: String, placed: CalendarTimes.Placed
  ) -> InstanceLength {
    var length = InstanceLength.exact(seconds: 0)
    let endName = item.name == "VTODO" ? "DUE" : "DTEND"
    // An all-day event lasts its day (RFC 5545 §3.6.1); a task placed at its DUE (it has no
    // DTSTART) ends there: for a VTODO the end is DUE itself (§3.8.6.3).
    if placed.isDate, item.hasProperty(uppercased: "DTSTART") { length = .days(1) }
    if item.hasProperty(uppercased: "DTSTART"),
      let endProperty = item.property(uppercased: endName)
    {
      if let end = DateTimeValue(property: endProperty) {
        if case .date(let endDate) = end, placed.isDate {
          length = .days(endDate.daysSince1970 - placed.local.date.daysSince1970)
        } else if let endInstant = times.instant(end) {
          length = .exact(seconds: endInstant.secondsSince1970 - placed.instant.secondsSince1970)
        }
      } else {
        warn(item, uid, "\(endName) \(quoted(endProperty.value)) cannot be read; it is ignored")
      }
    } else if let text = item.propertyValue(uppercased: "DURATION") {
      if let duration = ICalDuration(text) {
        length = .duration(duration)
      } else {
        warn(item, uid, "DURATION \(quoted(text)) cannot be read; it is ignored")
      }
    }
    return length
  }

  private mutating func alarmDefinition(
    _ valarm: ICalComponent, identity: AlarmIdentity, item: ICalComponent, uid: String,
    lastAck: Instant?
  ) -> RingingAlarm? {
    let alarm = AlarmComponent(valarm, in: item)
    if alarm.isSwitchedOff { return nil }
    if alarm.action.isEmpty {
      warn(item, uid, "a VALARM without ACTION is ignored")
      return nil
    }
    let trigger: RingingAlarm.Trigger
    switch alarm.trigger {
    case .failure(.missing):
      warn(item, uid, "a VALARM without TRIGGER is ignored")
      return nil
    case .failure(.notDateTime(let text)):
      warn(item, uid, "TRIGGER \(quoted(text)) is not a date-time; the alarm is ignored")
      return nil
    case .failure(.notDuration(let text)):
      warn(item, uid, "TRIGGER \(quoted(text)) is not a duration; the alarm is ignored")
      return nil
    case .success(.absolute(let value)):
      guard let instant = times.instant(value) else {
        let text = valarm.propertyValue(uppercased: "TRIGGER") ?? ""
        warn(item, uid, "TRIGGER \(quoted(text)) is not a date-time; the alarm is ignored")
        return nil
      }
      trigger = .absolute(instant)
    case .success(.relative(let duration, let fromEnd)):
      // An event without an end ends when it starts (RFC 5545 §3.6.1); a task has no such rule.
      if item.name == "VTODO", let missing = alarm.missingAnchor {
        let anchor =
          missing == .start
          ? "start of a task without DTSTART"
          : "end of a task without DUE (or DTSTART and DURATION)"
        warn(item, uid, "TRIGGER relative to the \(anchor); the alarm is ignored")
        return nil
      }
      trigger = .relative(duration, fromEnd: fromEnd)
    }
    switch alarm.repeatProblem {
    case .notInteger(let text):
      warn(item, uid, "REPEAT \(quoted(text)) is not an integer; the alarm rings once")
    case .noPositiveDuration:
      warn(item, uid, "REPEAT without a positive DURATION; the alarm rings once")
    case nil: break
    }
    let acknowledged = alarm.acknowledged.flatMap { times.instant($0) }
    return RingingAlarm(
      action: alarm.action, trigger: trigger, repeatCount: alarm.repeatCount,
      repeatInterval: alarm.repeatInterval,
      acknowledged: AlarmComponent.acknowledgement(own: acknowledged, itemLastAck: lastAck),
      identity: identity)
  }

  /// Absolute triggers (once per component) and Thunderbird's X-MOZ-SNOOZE-TIME snoozes.
  func singleFirings(
    _ item: ICalComponent, origin: FiringOrigin, template: InstanceTemplate,
    placed: CalendarTimes.Placed, recurrenceID: RecurrenceID?, lastAck: Instant?
  ) -> [Firing] {
    var result: [Firing] = []
    for alarm in template.alarms {
      guard case .absolute(let instant) = alarm.trigger else { continue }
      for k in 0...alarm.repeatCount {
        let trigger = FiringMath.repeatTrigger(instant, k, alarm.repeatInterval)
        result.append(
          FiringMath.firing(
            origin: origin, trigger: trigger, recurrenceID: recurrenceID,
            eventStart: placed.instant, summary: template.summary, alarm: alarm, repeatIndex: k))
      }
    }
    for snooze in AlarmComponent.mozillaSnoozes(of: item) {
      guard let instant = times.instant(snooze.time) else { continue }
      let property = snooze.property
      let ring = RingingAlarm(
        action: "DISPLAY", trigger: .absolute(instant), repeatCount: 0, repeatInterval: .zero,
        acknowledged: lastAck,
        identity: AlarmIdentity(
          key: property.name, uid: nil, snoozeOf: nil, sourceOffset: property.sourceOffset))
      // X-MOZ-SNOOZE-TIME-<microseconds> names the instance of a recurring event it snoozes.
      let snoozed = snooze.instance.map { RecurrenceID.instant($0) } ?? recurrenceID
      result.append(
        FiringMath.firing(
          origin: origin, trigger: instant, recurrenceID: snoozed,
          eventStart: placed.instant, summary: template.summary, alarm: ring, repeatIndex: 0))
    }
    return result
  }
}
