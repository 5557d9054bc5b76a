import ICalendar

/// Importing a VTODO as a task (RFC 5545 §3.6.2): its DUE is the deadline, STATUS:COMPLETED or
/// COMPLETED marks it done, DESCRIPTION holds the notes, and the first alarm that rings a whole
/// number of minutes before the deadline (a trigger related to the end, which for a VTODO is its
/// DUE, §3.8.6.3; or any trigger that lands there) is the reminder. What a task cannot hold is
/// kept another way or reported:
/// - other alarms become one-shot alarms `UID#n` (n: the alarm's place in the task);
/// - DTSTART+DURATION without DUE gives the deadline, and the start is reported;
/// - RRULE, RDATE, EXDATE, PRIORITY and PERCENT-COMPLETE are reported.
///
/// A task with neither DUE nor DTSTART+DURATION has no deadline: its alarms are imported as
/// alarms, and one without alarms is reported.
extension CalendarMapper {
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
      guard valarms.isEmpty else {
        warn(item, "has no deadline (DUE, or DTSTART and DURATION); its alarms are kept as alarms")
        return false
      }
      lose(item, "has no deadline (DUE, or DTSTART and DURATION) and no alarm", .skipped)
      return true
    }
    if item.propertyValue(uppercased: "UID").map(TextEscaping.unescape)?.isEmpty ?? true {
      warn(item, "has no UID; its id \(id) is derived from its content")
    }
    reportUnreadable(item, valarms: valarms, .taskKept("without that line"))
    reportWhatATaskCannotHold(item)
    let title = item.propertyValue(uppercased: "SUMMARY").map(TextEscaping.unescape) ?? ""
    let reminder = mapReminders(item, valarms: valarms, id: id, title: title, deadline: deadline)
    tasks.append(
      ToDo(
        id: id, title: title, deadline: deadline.value, completed: item.isCompletedTask,
        notes: item.propertyValue(uppercased: "DESCRIPTION").map(TextEscaping.unescape),
        remindMinutesBefore: reminder, timeZone: deadline.zone.identifier))
    return true
  }

  /// Turns the task's alarms into its reminder (the first that fits) and one-shot alarms (the
  /// rest); the reminder's minutes before the deadline, or nil.
  private mutating func mapReminders(
    _ item: ICalComponent, valarms: [ICalComponent], id: String, title: String,
    deadline: TaskDeadline
  ) -> Int? {
    guard !valarms.isEmpty, let anchor = alarmAnchor(item, deadline: deadline) else { return nil }
    let state = AlarmState(item, placer: placer)
    var reminder: Int?
    var position = 0
    for valarm in valarms where AlarmComponent.snoozeOf(valarm) == nil {
      position += 1
      guard
        var alarm = mapAlarm(
          valarm, in: item, anchor: anchor, repeatDays: [], ringsOnce: false, summary: title,
          number: position, uid: id)
      else { continue }
      alarm.id = "\(id)#\(position)"
      if reminder == nil, let minutes = minutesBefore(deadline, alarm, zone: anchor.zone) {
        reminder = minutes
        var snoozed = alarm
        state.apply(to: &snoozed, from: valarm)
        if let until = snoozed.snoozedUntil {
          lose(
            item, "its reminder is snoozed until \(until), and a task keeps no snooze",
            .taskKept("the reminder rings \(minutes) minutes before the deadline"))
        }
        continue
      }
      if item.isCompletedTask { alarm.enabled = false }
      state.apply(to: &alarm, from: valarm)
      warn(
        item,
        "its alarm \(position) does not ring a whole number of minutes (up to four weeks) before the deadline, so it is kept as the one-shot alarm \(alarm.id)"
      )
      alarms.append(alarm)
    }
    for orphan in state.snoozesOfNoAlarm(valarms) {
      lose(
        item, "a snooze (RELATED-TO;RELTYPE=SNOOZE) of \(quoted(orphan)), which is no alarm here",
        .alarmSkipped)
    }
    return reminder
  }

  /// The minutes before the deadline that `alarm` rings, when it can be the task's reminder: it
  /// rings (DISPLAY, or AUDIO with the default sound) once, 0 to four weeks before.
  private func minutesBefore(_ deadline: TaskDeadline, _ alarm: Alarm, zone: TimeZoneRules) -> Int?
  {
    guard alarm.enabled, alarm.sound == nil, case .at(let ring) = alarm.schedule else {
      return nil
    }
    let seconds = deadline.instant.secondsSince1970 - zone.instant(for: ring).secondsSince1970
    guard seconds % 60 == 0, ToDo.remindMinutesRange.contains(Int(seconds / 60)) else {
      return nil
    }
    return Int(seconds / 60)
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
  private mutating func reportWhatATaskCannotHold(_ item: ICalComponent) {
    let recurrence = ["RRULE", "RDATE", "EXDATE"].filter { item.hasProperty(uppercased: $0) }
    if !recurrence.isEmpty {
      let rule = item.propertyValue(uppercased: "RRULE").map { "RRULE:\($0)" }
      lose(
        item,
        "repeats (\(rule ?? recurrence.joined(separator: ", "))), and a task has one deadline",
        .taskKept("once, at its first deadline"))
    }
    if item.hasProperty(uppercased: "DUE"), let start = item.property(uppercased: "DTSTART") {
      lose(
        item, "starts at \(describe(start)) (DTSTART), and a task has only a deadline",
        .taskKept("without its start"))
    }
    if let text = item.propertyValue(uppercased: "PRIORITY"), Int(text) != 0 {
      lose(item, "PRIORITY:\(text) is not held by a task", .taskKept("without its priority"))
    }
    if let text = item.propertyValue(uppercased: "PERCENT-COMPLETE"), let percent = Int(text),
      percent != 0, percent != 100 || !item.isCompletedTask
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
  }

  /// Its wall-clock reading; a whole day is due at its start.
  var local: LocalDateTime {
    switch value {
    case .at(let local): local
    case .on(let date): LocalDateTime(date, .midnight)
    }
  }

  /// The instant it is due.
  var instant: Instant { zone.instant(for: local) }

  /// `2027-03-26T11:00 America/New_York`, or `2027-03-26` for a day.
  var text: String {
    switch value {
    case .at(let local): "\(AlarmTextFormats.localDateTimeString(local)) \(zone.identifier)"
    case .on(let date): "\(date)"
    }
  }
}
