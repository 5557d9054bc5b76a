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
  func ringsAtDue(_ item: ICalComponent) -> Bool {
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
}
