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
  /// Where the calendar's times are (its VTIMEZONEs, Google's calendar-wide zone, `--tz`).
  let times: CalendarTimes
  /// The same, on a clock alarm's IANA zones.
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
    let defaultZone = TimeZoneRules(identifier: importer.defaultTimeZone) ?? .utc
    times = CalendarTimes(calendar: calendar, defaultZone: defaultZone)
    placer = times.clockZones(around: importer.now, preferring: importer.defaultTimeZone)
  }

  mutating func run() {
    // Every child, read in place: only VEVENTs and VTODOs are mapped.
    let items = calendar.components
    var grouping = CalendarItems<Int>(
      across: currentElsewhere, calendar: calendarNumber, capacity: items.count)
    // Each item's id: its UID, or for one without, an id derived from its content.
    var ids = [String](repeating: "", count: items.count)
    var ruleTexts = Set<String>()
    for index in items.indices where Self.isItem(items[index]) {
      ids[index] = group(index, of: items, into: &grouping)
      for rule in items[index].properties where rule.name == "RRULE" {
        ruleTexts.insert(rule.value)
      }
    }
    var masters: [String: Int] = [:]
    var current: [Int] = []
    for series in grouping.takeSeries() {
      if let master = series.master {
        masters[ids[master.item]] = master.item
        current.append(master.item)
      }
      current += series.overrides.values.map(\.item)
    }
    // Each distinct RRULE is read once here, not once in every run (superseded revisions'
    // too: reading only fills the cache the current items read).
    for text in ruleTexts { _ = readRule(text) }
    mapInRuns(current.sorted(), of: items, ids: ids, masters: masters)
  }

  /// Adds `items[index]` to the grouping, warning of what it passes over; its id.
  private mutating func group(
    _ index: Int, of items: [ICalComponent], into grouping: inout CalendarItems<Int>
  ) -> String {
    let item = items[index]
    let uid = item.propertyValue(uppercased: "UID").map(TextEscaping.unescape) ?? ""
    let (key, passed) = grouping.add(
      item, at: index, uid: uid, order: firstOrder + index, times: times)
    if let passed, let message = passed.message { warn(items[passed.item], message) }
    // A key without a UID is NUL and the content's id.
    return uid.isEmpty ? String(key.dropFirst()) : uid
  }

  /// Maps the `current` items in runs at once, each run by a copy of this mapper; what they
  /// give is added in item order, as if mapped in turn.
  private mutating func mapInRuns(
    _ current: [Int], of items: [ICalComponent], ids: [String], masters: [String: Int]
  ) {
    var copy = self
    (copy.alarms, copy.tasks, copy.losses, copy.warnings) = ([], [], [], [])
    let piece = copy
    ParallelWork.map(ParallelWork.runs(of: current.count)) { run in
      var mapper = piece
      for position in run {
        mapper.mapCurrent(current[position], of: items, keys: ids, masters: masters)
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

  /// The instance an override replaces, as `upcoming` writes a recurrence id.
  private func instanceKey(_ item: ICalComponent) -> String {
    item.property(uppercased: "RECURRENCE-ID").map {
      CalendarItems<Int>.recurrenceKey($0, times: times)
    } ?? ""
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
    let startProperty = item.property(uppercased: "DTSTART")
    guard let anchor = anchor(of: item, start: startProperty) else { return }
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

  /// The zone and wall-clock reading an item's alarms count from: DTSTART, or a task's DUE;
  /// nil after a loss. A zone that disagrees with its IANA name is warned about, item by item.
  private mutating func anchor(of item: ICalComponent, start: ICalProperty?) -> (
    zone: TimeZoneRules, local: LocalDateTime
  )? {
    let isTask = item.name == "VTODO"
    guard let property = start ?? (isTask ? item.property(uppercased: "DUE") : nil),
      let value = DateTimeValue(property: property)
    else {
      lose(item, isTask ? "has neither DTSTART nor DUE" : "has no readable DTSTART", .skipped)
      return nil
    }
    switch resolve(value) {
    case .success(let resolved):
      if case .zoned(_, let tzid) = value, let note = placer.disagreeingZones[tzid] {
        warn(item, note)
      }
      return resolved
    case .failure(let reason):
      lose(item, reason.text, .skipped)
      return nil
    }
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
    let settings = AlarmSettings(valarm)
    if settings.sound == nil, action == "AUDIO" || action == AlarmVocabulary.disabledAction {
      loseEmbeddedSound(valarm, in: item)
    }
    let mapped = Alarm(
      id: number == 1 ? uid : "\(uid)#\(number)", schedule: schedule, label: summary,
      sound: settings.sound, snooze: settings.offersSnooze, snoozeMinutes: settings.snoozeMinutes,
      enabled: enabled,
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

  /// Notes the loss of the sound an alarm's ATTACH embeds (BINARY), which ``AlarmSettings``
  /// does not read.
  private mutating func loseEmbeddedSound(_ valarm: ICalComponent, in item: ICalComponent) {
    guard let attach = valarm.property(uppercased: "ATTACH"),
      attach.parameter(uppercased: "VALUE")?.uppercased() == "BINARY"
        || attach.parameter(uppercased: "ENCODING") != nil
    else { return }
    lose(
      item, "an embedded (binary) alarm sound cannot be kept",
      .alarmKept("with the default sound"))
  }
}
