import ICalendar

/// An RDATE instance: its start and, for a PERIOD, its own length (RFC 5545 §3.8.5.2).
struct RDateInstance {
  let local: LocalDateTime
  let length: InstanceLength?
}

/// A RANGE=THISANDFUTURE override (RFC 5545 §3.8.4.4): from its instance on, every instance
/// takes its properties and moves by the same wall-clock amount.
struct FutureOverride {
  let from: Instant
  let shift: Int64
  let template: InstanceTemplate
}

extension AlarmSeries {
  /// Appends every firing with `window.lowerBound <= trigger < window.upperBound` to `result`,
  /// in no particular order. Windows must be asked for in increasing order: instances before a
  /// window are forgotten.
  func appendFirings(in window: Range<Instant>, to result: inout [Firing]) {
    for single in singles where window.contains(single.trigger) { result.append(single) }
    // Instances whose firings can reach the window: start within the offsets' reach, plus the
    // margin `reach(around:)` gives for nominal days and offset changes.
    let lowInstant = window.lowerBound.adding(seconds: -latestOffset)
    let highInstant = window.upperBound.adding(seconds: -earliestOffset)
    let low = zone.local(at: lowInstant).adding(seconds: -reach(around: lowInstant).below)
    let high = zone.local(at: highInstant).adding(seconds: reach(around: highInstant).above)
    forEachInstance(from: low, through: high) { instance in
      let instant = zone.instant(for: instance.local)
      let id: RecurrenceID? =
        fixedRecurrenceID
        ?? (recurring ? (isDate ? .date(instance.local.date) : .instant(instant)) : nil)
      // The emptiness checks skip hashing for the many series without EXDATEs or overrides.
      if !excludedDates.isEmpty && excludedDates.contains(instance.local.date)
        || (!isDate && !excludedInstants.isEmpty && excludedInstants.contains(instant))
      {
        return
      }
      if let id, !overrides.isEmpty, overrides[id] != nil { return }
      var template = master
      var start = AlarmTriggers.Moment(local: instance.local, instant: instant)
      if let future = futureOverrides.last(where: { $0.from <= instant }) {
        template = future.template
        start = AlarmTriggers.Moment(instance.local.adding(seconds: future.shift), in: zone)
      }
      append(
        template: template, length: instance.length ?? template.length, start: start,
        zone: zone, recurrenceID: id, into: &result, window: window, origin: origin)
    }
    for (id, override) in overrides {
      append(
        template: override.template, length: override.template.length,
        start: AlarmTriggers.Moment(override.start.local, in: override.start.zone),
        zone: override.start.zone, recurrenceID: id, into: &result, window: window,
        origin: origin)
    }
  }

  private func append(
    template: InstanceTemplate, length: InstanceLength, start: AlarmTriggers.Moment,
    zone: any ZoneOffsets, recurrenceID: RecurrenceID?, into result: inout [Firing],
    window: Range<Instant>, origin: FiringOrigin
  ) {
    guard !template.cancelled else { return }
    var end: AlarmTriggers.Moment?
    for alarm in template.alarms {
      guard case .relative(let offset, let fromEnd) = alarm.trigger else { continue }
      var anchor = start
      if fromEnd {
        let instanceEnd = end ?? length.end(of: start, in: zone)
        end = instanceEnd
        anchor = instanceEnd
      }
      let first = AlarmTriggers.instant(offset, after: anchor, in: zone)
      for k in 0...alarm.repeatCount {
        let trigger = FiringMath.repeatTrigger(first, k, alarm.repeatInterval, zone: zone)
        guard window.contains(trigger) else { continue }
        result.append(
          FiringMath.firing(
            origin: origin, trigger: trigger, recurrenceID: recurrenceID,
            eventStart: start.instant, summary: template.summary, alarm: alarm, repeatIndex: k))
      }
    }
  }

  /// Calls `body` with each instance start in `low...high` (wall clock) in time order, RDATEs
  /// merged in, no duplicates.
  private func forEachInstance(
    from low: LocalDateTime, through high: LocalDateTime, _ body: (RDateInstance) -> Void
  ) {
    buffer.removeAll { $0 < low }
    // The iterator is advanced in place: a copy would retain and release each of its plan's
    // arrays, for every series in every window.
    if buffer.isEmpty, let next = pending, next < low, iterator != nil {
      iterator?.skip(toAtLeast: low)
      pending = iterator?.next()
    }
    while let next = pending, next <= high {
      instancesExamined += 1
      if next >= low { buffer.append(next) }
      pending = iterator?.next()
    }
    while rdateIndex < rdates.count, rdates[rdateIndex].local < low { rdateIndex += 1 }
    guard rdateIndex < rdates.count, rdates[rdateIndex].local <= high else {
      // No RDATE here (nearly always): the rule's instances as they are, without an array.
      for local in buffer { body(RDateInstance(local: local, length: nil)) }
      return
    }
    var result = buffer.map { RDateInstance(local: $0, length: nil) }
    var index = rdateIndex
    while index < rdates.count, rdates[index].local <= high {
      result.append(rdates[index])
      index += 1
    }
    // An RDATE that repeats an RRULE instance is one instance; its PERIOD length wins.
    var byStart: [LocalDateTime: RDateInstance] = [:]
    for instance in result where byStart[instance.local]?.length == nil {
      byStart[instance.local] = instance
    }
    for instance in byStart.values.sorted(by: { $0.local < $1.local }) { body(instance) }
  }

  /// How far below and above the wall-clock reading at `instant` an instance may start and
  /// still begin at, respectively before, it. A day covers nominal days in triggers and any
  /// UTC-offset change (even Samoa's skipped day in 2011). HOURLY and finer rules get exactly
  /// what the zone needs, because a day of a SECONDLY rule is 86,400 instances to hold and walk
  /// through for every window: the drop (a reading in a spring-forward gap starts an hour before
  /// the clock shows) and the rise (a reading repeated by a fall-back starts at its first
  /// occurrence) of the offset within a day either side (zones change at most once in two days),
  /// plus 2 hours when triggers count nominal days.
  private func reach(around instant: Instant) -> (below: Int64, above: Int64) {
    guard isSubDaily else { return (86_400, 86_400) }
    let here = zone.offset(at: instant)
    let before = zone.offset(at: instant.adding(seconds: -86_400))
    let after = zone.offset(at: instant.adding(seconds: 86_400))
    let slack: Int64 = countsNominalDays ? 7_200 : 0
    return (
      Int64(here - min(here, before, after)) + slack, Int64(max(here, before, after) - here) + slack
    )
  }

  /// An upper bound on this series' firings per second: its rule's rate times its alarms and
  /// their repeats (RDATEs, overrides and single triggers are few and not counted).
  var firingRateBound: Double {
    guard pending != nil || !buffer.isEmpty else { return 0 }
    return ruleRate * Double(master.alarms.reduce(0) { $0 + 1 + $1.repeatCount })
  }

  /// Whether nothing can fire at or after `instant` any more.
  func isFinished(at instant: Instant) -> Bool {
    if pending != nil || !buffer.isEmpty { return false }
    if let last = rdates.last,
      zone.instant(for: last.local).adding(seconds: latestOffset) >= instant
    {
      return false
    }
    if singles.contains(where: { $0.trigger >= instant }) { return false }
    return !overrides.values.contains {
      $0.start.instant.adding(seconds: latestOffset + 86_400) >= instant
    }
  }

  /// Whether the iterator stopped on its work limit.
  var stoppedByWorkLimit: Bool { iterator?.stoppedByWorkLimit ?? false }
}
