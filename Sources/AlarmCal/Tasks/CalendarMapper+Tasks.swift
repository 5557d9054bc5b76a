import ICalendar

/// Importing a VTODO as a task (RFC 5545 §3.6.2): its DUE is the deadline, STATUS:COMPLETED,
/// COMPLETED or PERCENT-COMPLETE:100 marks it done, DESCRIPTION holds the notes, and the first
/// alarm that rings a whole number of minutes from four weeks before to a day after the
/// deadline (a trigger related to the end, which for a VTODO is its DUE, §3.8.6.3; or any
/// trigger that lands there) is the reminder. What a task cannot hold is kept another way or
/// reported:
/// - other alarms become one-shot alarms `UID#n` (n: the alarm's place in the task);
/// - DTSTART+DURATION without DUE gives the deadline, and the start is reported;
/// - RRULE, RDATE, EXDATE, an earlier DTSTART, PRIORITY and PERCENT-COMPLETE are reported.
///
/// A task with neither DUE nor DTSTART+DURATION has no deadline: its alarms are imported as
/// alarms when it has a DTSTART, and it is reported otherwise.
extension CalendarMapper {
  /// Whether `item`, a VTODO series, is imported as a task: it is not cancelled and has a
  /// deadline (its overrides are then reported, not imported).
  static func becomesTask(_ item: ICalComponent) -> Bool {
    item.name == "VTODO" && !item.isCancelled
      && (item.hasProperty(uppercased: "DUE")
        || (item.hasProperty(uppercased: "DTSTART") && item.hasProperty(uppercased: "DURATION")))
  }

  /// Imports `item` (a VTODO that is no override) as a task; false when it has no deadline and
  /// its alarms are to be imported as alarms.
  mutating func mapTask(_ item: ICalComponent, valarms: [ICalComponent], id: String) -> Bool {
    if item.isCancelled {
      lose(item, "is cancelled (STATUS:CANCELLED)", .skipped)
      return true
    }
    let deadline: TaskDeadline
    switch readDeadline(item) {
    case .read(let read): deadline = read
    case .lost: return true
    case .none:
      if !valarms.isEmpty, item.hasProperty(uppercased: "DTSTART") {
        warn(item, "has no deadline (DUE, or DTSTART and DURATION); its alarms are kept as alarms")
        return false
      }
      let what = valarms.isEmpty ? "no alarm" : "no DTSTART for its alarms to ring from"
      lose(item, "has no deadline (DUE, or DTSTART and DURATION) and \(what)", .skipped)
      return true
    }
    warnIfNoUID(item, id: id)
    reportUnreadable(item, valarms: valarms, .taskKept("without that line"))
    reportWhatATaskCannotHold(item, deadline: deadline)
    let title = item.propertyValue(uppercased: "SUMMARY").map(TextEscaping.unescape) ?? ""
    let done = item.isCompletedTask
    let reminding = mapReminders(
      item, valarms: valarms, id: id, title: title, deadline: deadline, done: done)
    let reminder = reminding?.minutes
    if let reminder, !done {
      let ring = deadline.instant.adding(seconds: -Int64(reminder) * 60)
      // A ring that was acknowledged (dismissed or snoozed) has been answered.
      if ring < importer.now, !AlarmComponent.covers(reminding?.alarm.acknowledgedAt, ringAt: ring)
      {
        warn(
          item,
          "its reminder, \(TaskDeadline.text(deadline.zone.local(at: ring), deadline.zone)), is before now (\(importer.now)), so it will not ring"
        )
      }
    }
    var task = ToDo(
      id: id, title: title, deadline: deadline.value, completed: done,
      notes: item.propertyValue(uppercased: "DESCRIPTION").map(TextEscaping.unescape),
      remindMinutesBefore: reminder, timeZone: deadline.zone.identifier)
    readRecordCarriers(item, into: &task)
    if let alarm = reminding?.alarm { keepState(of: alarm, in: &task) }
    tasks.append(task)
    return true
  }

  /// Gives `task` the RFC 9074 state of its reminder, `alarm`: its acknowledgement and its
  /// pending snooze, whose UID is kept where the task's export would not derive the same one.
  private func keepState(of alarm: Alarm, in task: inout ToDo) {
    task.acknowledgedAt = alarm.acknowledgedAt
    task.snoozedUntil = alarm.snoozedUntil
    if let uid = alarm.exportedSnoozeUID, uid != task.exportedSnoozeUID { task.snoozeUID = uid }
  }

  /// Restores what an export carried of the app's record: the deadline's spelling (kept while
  /// it names DUE's time, else DUE's time in the same form: another client moved the deadline),
  /// the record's keys, and its fields alarmcal does not know. A carrier that cannot be read is
  /// reported and the task kept without it.
  private mutating func readRecordCarriers(_ item: ICalComponent, into task: inout ToDo) {
    if let text = item.property(uppercased: "DUE")?.parameter(
      uppercased: TaskVocabulary.deadlineParameter)
    {
      if let literal = TaskDeadlineSpelling.literal(carried: text),
        let form = TaskDeadlineSpelling.form(of: literal)
      {
        let zone = TimeZoneRules(identifier: task.timeZone) ?? .utc
        task.deadlineLiteral =
          TaskDeadlineSpelling.literal(literal, names: task.deadline, in: zone)
          ? literal : TaskDeadlineSpelling.render(task.deadline, in: zone, as: form)
      } else {
        lose(
          item, "DUE's \(TaskVocabulary.deadlineParameter) \(quoted(text)) is not a deadline",
          .taskKept("with its deadline in the natural form"))
      }
    }
    if let text = item.propertyValue(uppercased: TaskVocabulary.recordKeys) {
      let json = TextEscaping.unescape(text)
      let items = (try? JSONParser().parse(json))?.arrayValue
      if let items, case let keys = items.compactMap(\.stringValue), keys.count == items.count {
        task.recordKeys = keys
      } else {
        lose(
          item, "\(TaskVocabulary.recordKeys) \(quoted(json)) is not a JSON array of strings",
          .taskKept("with the keys alarmcal writes"))
      }
    }
    task.extraFields += extraFields(of: item, .taskKept("without it"))
  }

  /// Turns the task's alarms into its reminder (the first that fits) and one-shot alarms (the
  /// rest, switched off when the task is `done`); the reminder's minutes before the deadline
  /// and the alarm it was read as (with its RFC 9074 state), or nil.
  private mutating func mapReminders(
    _ item: ICalComponent, valarms: [ICalComponent], id: String, title: String,
    deadline: TaskDeadline, done: Bool
  ) -> (minutes: Int, alarm: Alarm)? {
    guard !valarms.isEmpty, let anchor = alarmAnchor(item, deadline: deadline) else { return nil }
    let state = AlarmState(item, placer: placer)
    var reminder: (minutes: Int, alarm: Alarm)?
    var position = 0
    for valarm in valarms where AlarmComponent.snoozeOf(valarm) == nil {
      position += 1
      guard
        var alarm = mapAlarm(
          valarm, in: item, anchor: anchor, repeatDays: [], ringsOnce: false, summary: title,
          number: position, uid: id)?.alarm
      else { continue }
      alarm.id = "\(id)#\(position)"
      state.apply(to: &alarm, from: valarm, isFirst: position == 1)
      // With no repeat days, mapAlarm gives a one-shot alarm.
      guard case .at(let reading) = alarm.schedule else { continue }
      let ring = anchor.zone.instant(for: reading)
      switch reminderFit(alarm, ringing: ring, deadline: deadline, taken: reminder != nil) {
      case .no(let reason):
        if done { alarm.enabled = false }
        warn(
          item, "its alarm \(position) \(reason), so it is kept as the one-shot alarm \(alarm.id)")
        alarms.append(alarm)
        continue
      case .fits(let minutes):
        reminder = (minutes, alarm)
      }
    }
    reportSnoozesOfNoAlarm(item, state: state, valarms: valarms)
    return reminder
  }

  /// Whether `alarm`, ringing at `ring`, can be the task's reminder: it rings (DISPLAY, or
  /// AUDIO with the default sound) a whole number of minutes from four weeks before to a day
  /// after the deadline, and the task has no reminder yet.
  private func reminderFit(
    _ alarm: Alarm, ringing ring: Instant, deadline: TaskDeadline, taken: Bool
  ) -> ReminderFit {
    guard alarm.enabled else { return .no("is switched off (ACTION:NONE)") }
    guard alarm.sound == nil else { return .no("has a sound of its own") }
    guard !taken else { return .no("is a second reminder") }
    let seconds = deadline.instant.secondsSince1970 - ring.secondsSince1970
    guard seconds % 60 == 0, ToDo.remindMinutesRange.contains(Int(seconds / 60)) else {
      return .no(
        "does not ring a whole number of minutes between four weeks before and a day after the deadline"
      )
    }
    return .fits(Int(seconds / 60))
  }

  /// What the alarms' triggers are relative to: DTSTART when there is one, else the deadline.
  private mutating func alarmAnchor(_ item: ICalComponent, deadline: TaskDeadline) -> (
    zone: TimeZoneRules, local: LocalDateTime
  )? {
    guard let start = item.property(uppercased: "DTSTART") else {
      return (deadline.zone, deadline.local)
    }
    guard let value = DateTimeValue(property: start) else {
      lose(item, "DTSTART cannot be read", .taskKept("without its alarms"))
      return nil
    }
    switch resolve(value) {
    case .success(let anchor): return anchor
    case .failure(let reason):
      lose(item, reason.text, .taskKept("without its alarms"))
      return nil
    }
  }

  /// Reports the start, the repetition, the priority and the progress, which a task does not
  /// hold.
  private mutating func reportWhatATaskCannotHold(_ item: ICalComponent, deadline: TaskDeadline) {
    let recurrence = ["RRULE", "RDATE", "EXDATE"].filter { item.hasProperty(uppercased: $0) }
    if !recurrence.isEmpty {
      let rule = item.propertyValue(uppercased: "RRULE").map { "RRULE:\($0)" }
      let past = deadline.instant < importer.now ? ", which is before now" : ""
      lose(
        item,
        "repeats (\(rule ?? recurrence.joined(separator: ", "))), and a task has one deadline",
        .taskKept("once, at its first deadline, \(deadline.text)\(past)"))
    }
    // A start at the deadline (Apple writes one) loses nothing.
    if item.hasProperty(uppercased: "DUE"), let start = item.property(uppercased: "DTSTART"),
      let value = DateTimeValue(property: start), case .success(let placed) = resolve(value),
      placed.zone.instant(for: placed.local) != deadline.instant
    {
      lose(
        item,
        "starts at \(TaskDeadline.text(placed.local, placed.zone)) (DTSTART), and a task has only a deadline",
        .taskKept("without its start"))
    }
    if let text = item.propertyValue(uppercased: "PRIORITY"), Int(text) != 0 {
      lose(item, "PRIORITY:\(text) is not held by a task", .taskKept("without its priority"))
    }
    if let text = item.propertyValue(uppercased: "PERCENT-COMPLETE"), let percent = Int(text),
      percent != 0, percent != 100
    {
      lose(
        item, "PERCENT-COMPLETE:\(text) is not held by a task (only done or not)",
        .taskKept("without its progress"))
    }
  }

  /// The task's deadline: DUE, or DTSTART plus DURATION (reported: the start is not kept).
  private mutating func readDeadline(_ item: ICalComponent) -> DeadlineReading {
    if let due = item.property(uppercased: "DUE") {
      guard let value = DateTimeValue(property: due) else {
        lose(item, "DUE \(quoted(due.value)) cannot be read", .skipped)
        return .lost
      }
      switch resolve(value) {
      case .failure(let reason):
        lose(item, reason.text, .skipped)
        return .lost
      case .success(let placed):
        if case .date(let date) = value { return .read(TaskDeadline(.on(date), zone: placed.zone)) }
        return .read(TaskDeadline(.at(placed.local), zone: placed.zone))
      }
    }
    guard let start = item.property(uppercased: "DTSTART"),
      let text = item.propertyValue(uppercased: "DURATION")
    else { return .none }
    guard let value = DateTimeValue(property: start), let duration = ICalDuration(text) else {
      lose(item, "DTSTART or DURATION \(quoted(text)) cannot be read", .skipped)
      return .lost
    }
    let placed: (zone: TimeZoneRules, local: LocalDateTime)
    switch resolve(value) {
    case .success(let resolved): placed = resolved
    case .failure(let reason):
      lose(item, reason.text, .skipped)
      return .lost
    }
    let end = AlarmTriggers.apply(duration, to: placed.local, in: placed.zone)
    let deadline: ToDo.Deadline
    if case .date = value, end.time == .midnight {
      deadline = .on(end.date)
    } else {
      deadline = .at(end)
    }
    lose(
      item,
      "starts at \(describe(start)) and lasts \(text) (DTSTART and DURATION), and a task has only a deadline",
      .taskKept("due at its end, \(TaskDeadline(deadline, zone: placed.zone).text)"))
    return .read(TaskDeadline(deadline, zone: placed.zone))
  }
}

/// Whether an alarm can be a task's reminder (its minutes before the deadline), and why not.
private enum ReminderFit {
  case fits(Int)
  case no(String)
}

/// What reading a task's deadline gave.
private enum DeadlineReading {
  case read(TaskDeadline)
  /// The task has no deadline.
  case none
  /// The deadline could not be read; a loss says why.
  case lost
}

/// A task's deadline placed in its zone.
private struct TaskDeadline {
  let value: ToDo.Deadline
  let zone: TimeZoneRules

  init(_ value: ToDo.Deadline, zone: TimeZoneRules) {
    self.value = value
    self.zone = zone
    instant = zone.instant(for: Self.local(of: value))
  }

  /// Its wall-clock reading; a whole day is due at its start.
  var local: LocalDateTime { Self.local(of: value) }

  private static func local(of value: ToDo.Deadline) -> LocalDateTime {
    switch value {
    case .at(let local): local
    case .on(let date): LocalDateTime(date, .midnight)
    }
  }

  /// The instant it is due.
  let instant: Instant

  /// `2027-03-26T11:00 America/New_York`, or `2027-03-26` for a day.
  var text: String {
    switch value {
    case .at(let local): Self.text(local, zone)
    case .on(let date): "\(date)"
    }
  }

  /// `2027-03-26T11:00 America/New_York`.
  static func text(_ local: LocalDateTime, _ zone: TimeZoneRules) -> String {
    "\(AlarmTextFormats.localDateTimeString(local)) \(zone.identifier)"
  }
}
