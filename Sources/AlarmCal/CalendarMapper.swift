import ICalendar

/// Imports one VCALENDAR.
struct CalendarMapper {
  let importer: AlarmImporter
  let calendar: ICalComponent
  /// Where this calendar's components start among all the file's calendars' components.
  var firstOrder = 0
  /// The current master of each UID that several calendars of the file hold: a master in this
  /// calendar (number ``calendarNumber`` of the file's) that is older is passed over.
  var currentElsewhere = CurrentAcrossCalendars()
  var calendarNumber = 0
  var alarms: [Alarm] = []
  var tasks: [ToDo] = []
  var losses: [ImportLoss] = []
  var warnings: [ImportWarning] = []
  /// Where the calendar's times are on the clock (its VTIMEZONEs, Google's calendar-wide zone,
  /// `--tz`).
  let placer: TimePlacer
  /// Each RRULE value read so far, as it read: a calendar of many alarms repeats a few rules.
  var rulesByText: [String: Result<ReadRule, RecurrenceRuleError>] = [:]
  /// The TZID resolved last and its zone: the items of a calendar share a few TZIDs.
  var lastZone: (tzid: String, rules: TimeZoneRules)?

  /// A rule as read, with the set of its BYDAY weekdays made once.
  struct ReadRule {
    let rule: RecurrenceRule
    let byDayWeekdays: Set<Weekday>
  }

  init(importer: AlarmImporter, calendar: ICalComponent) {
    self.importer = importer
    self.calendar = calendar
    var zones: [String: String] = [:]
    var disagreeing: [String: String] = [:]
    // Offsets are compared from a year before the import to two years after it.
    let year: Int64 = 366 * 86_400
    let (from, to) = (importer.now.adding(seconds: -year), importer.now.adding(seconds: 2 * year))
    for vtimezone in calendar.components(named: "VTIMEZONE") {
      guard let tzid = vtimezone.propertyValue(uppercased: "TZID") else { continue }
      let candidates = [tzid, vtimezone.propertyValue(uppercased: "X-LIC-LOCATION")].compactMap {
        $0
      }
      let named = candidates.lazy.compactMap(TimeZoneNames.ianaIdentifier(forTZID:)).first
      let rules = VTimezoneRules(vtimezone)
      if let named,
        rules.map({ VTimezoneMatcher.agrees($0, with: named, from: from, to: to) })
          ?? true
      {
        zones[tzid] = named
      } else if let rules {
        // A custom definition ("Customized Time Zone"), or one that disagrees with the IANA
        // zone it names: the file governs the times it defines (RFC 5545 §3.6.5), so the
        // IANA zone with the file's offsets.
        let matched = VTimezoneMatcher.ianaIdentifier(
          for: rules, preferring: [importer.defaultTimeZone], from: from, to: to)
        zones[tzid] = matched
        if let named {
          disagreeing[tzid] =
            "its VTIMEZONE \(quoted(tzid)) defines other offsets than the IANA zone \(named); "
            + (matched.map { "its times are read as the file defines them, in \($0)" }
              ?? "no IANA zone has the file's offsets")
        }
      }
    }
    placer = TimePlacer(
      definedZones: zones, disagreeingZones: disagreeing, calendarZone: calendar.calendarTimeZone,
      defaultZone: importer.defaultTimeZone)
  }

  mutating func run() {
    // Every child, read in place: only VEVENTs and VTODOs are mapped.
    let items = calendar.components
    // What the grouping asks of each item.
    var facts: [GroupingFacts] = []
    facts.reserveCapacity(items.count)
    var ruleTexts = Set<String>()
    for item in items {
      let fact = GroupingFacts(item)
      facts.append(fact)
      guard fact.isItem else { continue }
      for rule in item.properties where rule.name == "RRULE" { ruleTexts.insert(rule.value) }
    }
    // Each item's identity: its UID, or for one without, an id derived from its content.
    var identities = ContentIdentity()
    let keys = items.indices.map { index -> String in
      guard facts[index].isItem else { return "" }
      return facts[index].uid ?? identities.identity(of: items[index])
    }
    // The current revision of each master and of each override (RFC 5546 §2.1.5).
    var masters: [String: Int] = [:]
    masters.reserveCapacity(items.count)
    var overrides: [String: Int] = [:]
    for index in items.indices where facts[index].isItem {
      let isOverride = facts[index].isOverride
      let key = isOverride ? keys[index] + "\u{0}" + instanceKey(items[index]) : keys[index]
      let current = isOverride ? overrides[key] : masters[key]
      guard let current else {
        if isOverride { overrides[key] = index } else { masters[key] = index }
        continue
      }
      let (older, newer) =
        revision(items, index) < revision(items, current) ? (index, current) : (current, index)
      warn(
        items[older],
        revision(items, older).supersededReason(by: revision(items, newer), line: items[newer].line)
      )
      if isOverride { overrides[key] = newer } else { masters[key] = newer }
    }
    // A newer revision in another calendar of the file: this one and its overrides are passed
    // over, as within one calendar.
    for (key, index) in masters {
      guard let newer = currentElsewhere.newer(for: key, in: calendarNumber) else { continue }
      warn(
        items[index], revision(items, index).supersededReason(by: newer.revision, line: newer.line))
      masters[key] = nil
      overrides = overrides.filter { !$0.key.hasPrefix(key + "\u{0}") }
    }
    let currentOnes = Set(masters.values).union(overrides.values)
    let current = items.indices.filter { currentOnes.contains($0) }
    // The current items are mapped in runs at once, each run by a copy of this mapper; what
    // they give is added in item order, as if mapped in turn.
    // Each distinct RRULE is read once here, not once in every run (superseded revisions'
    // too: reading only fills the cache the current items read).
    for text in ruleTexts { _ = readRule(text) }
    var copy = self
    (copy.alarms, copy.tasks, copy.losses, copy.warnings) = ([], [], [], [])
    let (piece, currentMasters) = (copy, masters)
    ParallelWork.map(ParallelWork.runs(of: current.count)) { run in
      var mapper = piece
      for position in run {
        mapper.mapCurrent(current[position], of: items, keys: keys, masters: currentMasters)
      }
      return mapper
    } each: { done in
      var mapper = done
      take(&mapper)
    }
  }

  /// Adds what `other` mapped after what this mapper has, leaving `other` empty.
  private mutating func take(_ other: inout CalendarMapper) {
    alarms.append(taking: &other.alarms)
    tasks.append(taking: &other.tasks)
    losses.append(taking: &other.losses)
    warnings.append(taking: &other.warnings)
  }

  /// What the grouping of a calendar's items asks of one of its children.
  private struct GroupingFacts {
    /// A VEVENT or VTODO: what import maps.
    let isItem: Bool
    /// Its UID, unescaped; nil when it has none (or an empty one).
    let uid: String?
    /// It has a RECURRENCE-ID.
    let isOverride: Bool

    init(_ component: ICalComponent) {
      isItem = CalendarMapper.isItem(component)
      let uid = isItem ? component.propertyValue(uppercased: "UID").map(TextEscaping.unescape) : nil
      self.uid = uid?.isEmpty == false ? uid : nil
      isOverride = isItem && component.hasProperty(uppercased: "RECURRENCE-ID")
    }
  }

  /// Whether `component` is an event or a task: what import maps.
  private static func isItem(_ component: ICalComponent) -> Bool {
    component.name == "VEVENT" || component.name == "VTODO"
  }

  /// Maps `items[index]`, the current revision of its master or override.
  private mutating func mapCurrent(
    _ index: Int, of items: [ICalComponent], keys: [String], masters: [String: Int]
  ) {
    let item = items[index]
    let valarms = item.components(named: "VALARM")
    guard item.hasProperty(uppercased: "RECURRENCE-ID") else {
      if item.name == "VTODO", mapTask(item, valarms: valarms, id: keys[index]) { return }
      guard !valarms.isEmpty else { return }
      warnIfNoUID(item, id: keys[index])
      mapItem(item, valarms: valarms, id: keys[index])
      return
    }
    // A cancelled series is skipped: its instances then ring on their own.
    let master = masters[keys[index]].map { items[$0] }.flatMap { $0.isCancelled ? nil : $0 }
    if let master, Self.becomesTask(master) || !master.components(named: "VALARM").isEmpty {
      let original = describe(item.property(uppercased: "RECURRENCE-ID"))
      let start = describe(
        item.property(uppercased: "DTSTART") ?? item.property(uppercased: "DUE"))
      let change = start.isEmpty || start == original ? "is changed" : "is moved to \(start)"
      if Self.becomesTask(master) {
        // The series is a task, kept once (see CalendarMapper+Tasks); its instances are not.
        lose(
          item,
          "the instance of \(original) \(change) (RECURRENCE-ID), and a task has one deadline",
          .taskKept("once, at the series' first deadline"))
      } else {
        lose(
          item,
          "the instance of \(original) \(change) (RECURRENCE-ID), and a clock alarm has no exceptions",
          .alarmKept("it rings at the series' time that day"))
      }
      return
    }
    // An instance whose series is not here (a CalDAV server's expanded answer) or has no
    // alarm rings on its own: a one-shot alarm, its id naming the instance.
    guard !valarms.isEmpty else { return }
    mapItem(item, valarms: valarms, id: "\(keys[index])#\(instanceKey(item))")
  }

  private func revision(_ items: [ICalComponent], _ index: Int) -> ComponentRevision {
    ComponentRevision(of: items[index], order: firstOrder + index)
  }

  /// The instance an override replaces, as `upcoming` writes a recurrence id: its UTC instant
  /// (`2026-12-07T20:00:00Z`) or its date (`2026-12-07`).
  private mutating func instanceKey(_ item: ICalComponent) -> String {
    guard let property = item.property(uppercased: "RECURRENCE-ID") else { return "" }
    guard let value = DateTimeValue(property: property) else { return property.value }
    if case .date(let date) = value { return date.description }
    guard case .success(let placed) = resolve(value) else { return property.value }
    return placed.zone.instant(for: placed.local).description
  }

  mutating func lose(
    _ item: ICalComponent, _ reason: String, _ outcome: ImportLoss.Outcome
  ) {
    losses.append(
      ImportLoss(
        file: importer.fileName, line: item.line, kind: ComponentKind.noun(item.name),
        uid: item.propertyValue(uppercased: "UID").map(TextEscaping.unescape) ?? "",
        summary: item.propertyValue(uppercased: "SUMMARY").map(TextEscaping.unescape),
        reason: reason, outcome: outcome))
  }

  mutating func warn(_ item: ICalComponent, _ message: String) {
    warnings.append(
      ImportWarning(
        file: importer.fileName, line: item.line, kind: ComponentKind.noun(item.name),
        uid: item.propertyValue(uppercased: "UID").map(TextEscaping.unescape) ?? "",
        summary: item.propertyValue(uppercased: "SUMMARY").map(TextEscaping.unescape),
        message: message))
  }

  func describe(_ property: ICalProperty?) -> String {
    guard let property else { return "" }
    guard let value = DateTimeValue(property: property) else { return property.value }
    switch value {
    case .date(let date): return "\(date)"
    case .utc(let local): return "\(local)Z"
    case .floating(let local), .zoned(let local, _): return "\(local)"
    }
  }

  /// The IANA zone and wall-clock reading of a DATE/DATE-TIME, or the reason it has none.
  mutating func resolve(_ value: DateTimeValue) -> Result<
    (zone: TimeZoneRules, local: LocalDateTime), LossReason
  > {
    if case .zoned(let local, let tzid) = value, let last = lastZone, last.tzid == tzid {
      return .success((last.rules, local))
    }
    let placed = placer.place(value)
    if case .zoned(_, let tzid) = value, case .success(let found) = placed {
      lastZone = (tzid, found.zone)
    }
    return placed
  }

  /// Imports the alarms of one item; `id` is the first alarm's id (the UID, or one derived).
  private mutating func mapItem(_ item: ICalComponent, valarms: [ICalComponent], id: String) {
    if item.isCancelled {
      lose(item, "is cancelled (STATUS:CANCELLED), so it never rings", .skipped)
      return
    }
    reportUnreadable(item, valarms: valarms, .alarmKept("without that line"))
    let isTask = item.name == "VTODO"
    let startProperty = item.property(uppercased: "DTSTART")
    let dueProperty = isTask ? item.property(uppercased: "DUE") : nil
    guard let anchorProperty = startProperty ?? dueProperty,
      let anchorValue = DateTimeValue(property: anchorProperty)
    else {
      lose(item, isTask ? "has neither DTSTART nor DUE" : "has no readable DTSTART", .skipped)
      return
    }
    let anchor: (zone: TimeZoneRules, local: LocalDateTime)
    switch resolve(anchorValue) {
    case .success(let resolved): anchor = resolved
    case .failure(let reason):
      lose(item, reason.text, .skipped)
      return
    }
    if case .zoned(_, let tzid) = anchorValue, let note = placer.disagreeingZones[tzid] {
      warn(item, note)
    }
    guard let repeatDays = repeatDays(item, start: anchor.local, hasStart: startProperty != nil)
    else {
      return
    }
    for exdate in item.properties(named: "EXDATE") {
      lose(
        item, "EXDATE \(describe(exdate)) removes an instance, and a clock alarm has no exceptions",
        .alarmKept("it also rings on that day"))
    }
    // A task that is done no longer reminds anyone.
    if item.isCompletedTask {
      lose(
        item, "is a completed task (STATUS:COMPLETED or COMPLETED), and an alarm has no such state",
        .alarmKept("switched off (enabled: false), so it never rings"))
    }
    let summary = item.propertyValue(uppercased: "SUMMARY").map(TextEscaping.unescape) ?? ""
    let extraFields = extraFields(of: item)
    let ringsOnce =
      item.propertyValue(uppercased: AlarmVocabulary.rings)?.asciiUppercased
      == AlarmVocabulary.ringsOnce
    var keptCount = 0
    let state = AlarmState(item, placer: placer)
    for valarm in valarms where AlarmComponent.snoozeOf(valarm) == nil {
      guard
        let mapped = mapAlarm(
          valarm, in: item, anchor: anchor, repeatDays: repeatDays, ringsOnce: ringsOnce,
          summary: summary, number: keptCount + 1, uid: id)
      else { continue }
      var alarm = mapped.alarm
      alarm.extraFields = extraFields
      keptCount += 1
      if item.isCompletedTask { alarm.enabled = false }
      state.apply(to: &alarm, from: valarm, isFirst: keptCount == 1)
      if let ring = mapped.onlyRing {
        switchOffIfRang(&alarm, ring: ring, item: item, zone: anchor.zone)
      }
      alarms.append(alarm)
    }
    reportSnoozesOfNoAlarm(item, state: state, valarms: valarms)
  }

  /// A loss line for each snooze alarm (RELATED-TO;RELTYPE=SNOOZE) whose alarm is not there.
  mutating func reportSnoozesOfNoAlarm(
    _ item: ICalComponent, state: AlarmState, valarms: [ICalComponent]
  ) {
    for orphan in state.snoozesOfNoAlarm(valarms) {
      lose(
        item, "a snooze (RELATED-TO;RELTYPE=SNOOZE) of \(quoted(orphan)), which is no alarm here",
        .alarmSkipped)
    }
  }

  /// Warns that `item` has no UID, so its id (`id`) is derived from its content.
  mutating func warnIfNoUID(_ item: ICalComponent, id: String) {
    guard item.propertyValue(uppercased: "UID").map(TextEscaping.unescape)?.isEmpty ?? true else {
      return
    }
    warn(item, "has no UID; its id \(id) is derived from its content")
  }

  /// A loss line for each line of `item` and its alarms that could not be read.
  mutating func reportUnreadable(
    _ item: ICalComponent, valarms: [ICalComponent], _ outcome: ImportLoss.Outcome
  ) {
    guard !item.unreadable.isEmpty || valarms.contains(where: { !$0.unreadable.isEmpty }) else {
      return
    }
    for note in ([item] + valarms).flatMap(\.unreadable) {
      lose(item, "a line could not be read (\(note))", outcome)
    }
  }

  /// The app record's members that an export carried in ``AlarmVocabulary/extraField``
  /// properties; a loss line for one that is not a one-member JSON object.
  mutating func extraFields(
    of item: ICalComponent, _ outcome: ImportLoss.Outcome = .alarmKept("without it")
  ) -> [JSONMember] {
    var members: [JSONMember] = []
    for property in item.properties(named: AlarmVocabulary.extraField) {
      let text = TextEscaping.unescape(property.value)
      guard let parsed = try? JSONParser().parse(text), let object = parsed.objectValue,
        object.count == 1
      else {
        lose(
          item, "\(AlarmVocabulary.extraField) \(quoted(text)) is not a JSON object of one member",
          outcome)
        continue
      }
      members += object
    }
    return members
  }

  /// Switches off, with a warning, a one-shot alarm whose only ring (`ring`, on the wall clock
  /// of `zone`) has rung or will not ring: it is before the import's present moment, or an
  /// acknowledgement covers it (RFC 9074 §6). Left on, a clock alarm without a date would ring
  /// again at the next occurrence of its time. As in a clock app, one whose snooze is still
  /// pending stays on, with its date kept so that only the snooze rings.
  private mutating func switchOffIfRang(
    _ alarm: inout Alarm, ring: LocalDateTime, item: ICalComponent, zone: TimeZoneRules
  ) {
    let instant = zone.instant(for: ring)
    let acknowledged = AlarmComponent.covers(alarm.acknowledgedAt, ringAt: instant)
    guard alarm.enabled, instant < importer.now || acknowledged else { return }
    if let until = alarm.snoozedUntil, until >= importer.now {
      alarm.schedule = .at(ring)
      return
    }
    alarm.enabled = false
    let when = "\(AlarmTextFormats.localDateTimeString(ring)) \(zone.identifier)"
    let why =
      instant < importer.now
      ? "is before now (\(importer.now))"
      : "was dismissed (ACKNOWLEDGED)"
    warn(item, "its one ring, \(when), \(why), so it is imported switched off (enabled: false)")
  }

  /// The weekdays of a repeating item (empty for a single instance), or nil after a loss.
  private mutating func repeatDays(_ item: ICalComponent, start: LocalDateTime, hasStart: Bool)
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
      lose(item, why, .skipped)
      return nil
    }
    if !rule.byDay.isEmpty { return read.byDayWeekdays }
    return rule.frequency == .daily ? Set(Weekday.allCases) : [start.date.weekday]
  }

  /// The RRULE value `text` read as a rule, read once per distinct text.
  private mutating func readRule(_ text: String) -> Result<ReadRule, RecurrenceRuleError> {
    if let known = rulesByText[text] { return known }
    let read = Result { () throws(RecurrenceRuleError) in
      let rule = try RecurrenceRule(parsing: text)
      return ReadRule(rule: rule, byDayWeekdays: Set(rule.byDay.map(\.weekday)))
    }
    rulesByText[text] = read
    return read
  }

  /// The clock alarm a VALARM of `item` becomes and, for one that rings once, that ring on the
  /// anchor's wall clock; nil after a loss.
  mutating func mapAlarm(
    _ valarm: ICalComponent, in item: ICalComponent,
    anchor: (zone: TimeZoneRules, local: LocalDateTime), repeatDays: Set<Weekday>, ringsOnce: Bool,
    summary: String, number: Int, uid: String
  ) -> (alarm: Alarm, onlyRing: LocalDateTime?)? {
    let alarm = AlarmComponent(valarm, in: item)
    let action = alarm.action
    guard let enabled = clockAlarmEnabled(alarm, in: item) else { return nil }
    if let proximity = valarm.propertyValue(uppercased: "PROXIMITY") {
      lose(
        item,
        "PROXIMITY:\(proximity) (RFC 9074) rings on arriving at or leaving a place",
        .alarmKept("it rings at its time alone"))
    }
    if alarm.repeatCount > 0 || alarm.repeatProblem != nil {
      let count = valarm.propertyValue(uppercased: "REPEAT") ?? ""
      let interval = valarm.propertyValue(uppercased: "DURATION") ?? "?"
      lose(item, "REPEAT:\(count) re-rings every \(interval)", .alarmKept("it rings once"))
    }
    guard let ring = ringTime(alarm, item: item, anchor: anchor, repeatDays: repeatDays)
    else { return nil }
    let schedule: Alarm.Schedule
    if repeatDays.isEmpty {
      schedule = ringsOnce ? .time(ring.time, repeat: []) : .at(ring)
    } else {
      let shift = ring.date.daysSince1970 - anchor.local.date.daysSince1970
      let days = shift == 0 ? repeatDays : Set(repeatDays.map { $0.advanced(by: shift) })
      schedule = .time(ring.time, repeat: days)
      let clockFirst = AlarmRings.firstRing(
        of: schedule, atOrAfter: importer.now, in: anchor.zone,
        today: anchor.zone.local(at: importer.now).date)
      if anchor.zone.instant(for: ring) > clockFirst.instant {
        lose(
          item, "the series starts on \(ring.date), and a clock alarm has no start date",
          .alarmKept("it rings from now on"))
      }
    }
    let sound =
      valarm.propertyValue(uppercased: AlarmVocabulary.sound).map(TextEscaping.unescape)
      ?? (action == "AUDIO" || action == AlarmVocabulary.disabledAction
        ? soundName(valarm, in: item) : nil)
    let snooze =
      valarm.propertyValue(uppercased: AlarmVocabulary.snooze)?.asciiUppercased != "FALSE"
    var snoozeMinutes = Alarm.defaultSnoozeMinutes
    if let text = valarm.propertyValue(uppercased: AlarmVocabulary.snoozeInterval),
      let duration = ICalDuration(text), duration.days == 0, duration.seconds % 60 == 0,
      Alarm.snoozeMinutesRange.contains(duration.seconds / 60)
    {
      snoozeMinutes = duration.seconds / 60
    }
    let mapped = Alarm(
      id: number == 1 ? uid : "\(uid)#\(number)", schedule: schedule, label: summary,
      sound: sound, snooze: snooze, snoozeMinutes: snoozeMinutes, enabled: enabled,
      timeZone: anchor.zone.identifier)
    return (mapped, repeatDays.isEmpty ? ring : nil)
  }

  /// Whether a VALARM becomes a clock alarm that is on (AUDIO, DISPLAY) or off (NONE); nil,
  /// after a loss, when it becomes none.
  private mutating func clockAlarmEnabled(_ alarm: AlarmComponent, in item: ICalComponent)
    -> Bool?
  {
    switch alarm.action {
    case "AUDIO", "DISPLAY": return true
    case AlarmVocabulary.disabledAction:
      guard !alarm.isAbsolute else {
        lose(
          item, "ACTION:NONE alarm with an absolute trigger is a \"no alert\" placeholder",
          .alarmSkipped)
        return nil
      }
      return false
    case "":
      lose(item, "a VALARM without ACTION", .alarmSkipped)
      return nil
    default:
      lose(item, "ACTION:\(alarm.action) alarm does not ring", .alarmSkipped)
      return nil
    }
  }

  /// The sound an alarm's ATTACH names; nil, after a loss, for an embedded one.
  private mutating func soundName(_ valarm: ICalComponent, in item: ICalComponent) -> String? {
    guard let attach = valarm.property(uppercased: "ATTACH") else { return nil }
    if attach.parameter("VALUE")?.uppercased() == "BINARY" || attach.parameter("ENCODING") != nil {
      lose(
        item, "an embedded (binary) alarm sound cannot be kept",
        .alarmKept("with the default sound"))
      return nil
    }
    return attach.value
  }

  /// The wall-clock ring of the first instance, in the anchor's zone; nil after a loss.
  private mutating func ringTime(
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
