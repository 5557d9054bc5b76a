import ICalendar

/// What each instance of a component rings with: its VALARMs read into ringing alarms (with
/// warnings for those that cannot ring), a task's DUE, and the firings that ring once.
extension SeriesReader {
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
