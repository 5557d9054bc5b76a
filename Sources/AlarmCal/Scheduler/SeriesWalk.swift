import ICalendar

/// A walk through one series' firings in the order ``Firing/precedes(_:_:)`` lists them,
/// taking instances only as far as the next firing needs: ``start(at:)``, then ``head`` and
/// ``advance()``. A value, so a schedule changes its walks in place in an array.
struct SeriesWalk {
  // What handing out a firing reads comes first, so that it shares a cache line or two; the
  // rule's iterator, read once per instance, comes last.
  let series: AlarmSeries
  /// The series' place in level 2 of ``Firing/precedes(_:_:)`` (equal for equal file and UID).
  var rank = 0
  /// The next firing's trigger, nil when none is left.
  private(set) var headTrigger: Instant?
  /// A bound below every firing of the instances not taken yet, nil when none is left.
  private var nextBound: Instant?
  /// Firings of instances already taken that are not handed out yet: a heap, earliest first.
  private var ahead: [FoundFiring] = []
  private var onceIndex = 0
  /// Whether the next firing is the next of the series' single firings (else the first ahead).
  private var headRingsOnce = false
  /// Whether the rule stopped on the work limit.
  private(set) var stoppedByWorkLimit = false
  /// Set once the rule stopped on the work limit and that has been reported.
  var warnedAboutWork = false
  /// Firings before this are not handed out.
  private var from = Instant(secondsSince1970: .min)
  /// The rule's next instance not yet taken, and its instant.
  private var pending: LocalDateTime?
  private var pendingInstant = Instant(secondsSince1970: 0)
  private var rdateIndex = 0
  /// Rule instances looked at so far (laziness is measured by this, not by time).
  private(set) var instancesExamined = 0
  private var iterator: RecurrenceIterator?

  /// A walk through `series`, whose instances follow `rule` (nil: only its start).
  init(_ series: AlarmSeries, rule: consuming RecurrenceIterator?) {
    self.series = series
    guard series.instancesCanRing else { return }
    if rule != nil {
      iterator = rule
      takeFromRule()
    } else {
      pending = series.start
      pendingInstant = series.zone.instant(for: series.start)
    }
  }

  /// The next firing to hand out, nil when none is left.
  var head: Firing? {
    guard headTrigger != nil else { return nil }
    return headRingsOnce ? series.ringsOnce[onceIndex] : ahead.first.map(series.firing)
  }

  /// Starts the walk at the first firing at or after `instant` (once, before ``advance()``).
  mutating func start(at instant: Instant) {
    from = instant
    // Instances whose firings can reach `instant`: from the offsets' reach, less the margin
    // ``AlarmSeries/reach(around:)`` gives for nominal days and offset changes.
    let lowInstant = instant.adding(seconds: -series.latestOffset)
    let low = series.zone.local(at: lowInstant).adding(
      seconds: -series.reach(around: lowInstant).below)
    if let next = pending, next < low, iterator != nil {
      iterator?.skip(toAtLeast: low)
      takeFromRule()
    }
    let rdates = series.rdates
    while rdateIndex < rdates.count, rdates[rdateIndex].local < low { rdateIndex += 1 }
    let once = series.ringsOnce
    while onceIndex < once.count, once[onceIndex].trigger < instant { onceIndex += 1 }
    nextBound = nextInstanceBound()
    findHead()
  }

  /// Hands out the head and finds the next one; nil when none is left. A firing found in the
  /// series is left to be made when it is read, naming its series by `place` (the walk's in
  /// the batch's list of series).
  mutating func takeHead(place: Int) -> FiringBatch.Entry? {
    guard headTrigger != nil else { return nil }
    let entry: FiringBatch.Entry? =
      headRingsOnce
      ? .made(series.ringsOnce[onceIndex]) : ahead.first.map { .found(series: place, $0) }
    advance()
    return entry
  }

  /// Passes over the head and finds the next one.
  mutating func advance() {
    guard headTrigger != nil else { return }
    if headRingsOnce {
      onceIndex += 1
    } else {
      popAhead()
    }
    findHead()
  }

  /// Takes instances until the earliest firing known cannot be preceded by one of an instance
  /// not taken yet, and notes which it is.
  private mutating func findHead() {
    let once = series.ringsOnce
    while true {
      let hasOnce = onceIndex < once.count
      var earliest = hasOnce ? once[onceIndex].trigger : nil
      if let found = ahead.first?.trigger, earliest.map({ found < $0 }) ?? true {
        earliest = found
      }
      if let earliest, nextBound.map({ earliest < $0 }) ?? true {
        // The earlier of the next single firing and the earliest found ahead.
        if let first = ahead.first {
          headRingsOnce =
            hasOnce
            && (once[onceIndex].trigger < first.trigger
              || once[onceIndex].trigger == first.trigger
                && once[onceIndex].followsWithinSeries(series.firing(first)))
        } else {
          headRingsOnce = true
        }
        headTrigger = earliest
        return
      }
      guard takeInstance() else {
        headTrigger = nil
        return
      }
    }
  }

  /// A bound below every firing of the instances not taken yet: the next one's start, moved by
  /// the earliest offset and the margin for nominal days and offset changes; nil when none is
  /// left.
  private func nextInstanceBound() -> Instant? {
    let rdates = series.rdates
    let instant: Instant
    if rdateIndex < rdates.count, pending.map({ rdates[rdateIndex].local < $0 }) ?? true {
      instant = series.zone.instant(for: rdates[rdateIndex].local)
    } else if pending != nil {
      instant = pendingInstant
    } else {
      return nil
    }
    return instant.adding(seconds: series.earliestOffset - series.reach(around: instant).below)
  }

  /// Moves the rule on to its next instance.
  private mutating func takeFromRule() {
    pending = iterator?.next()
    if let pending { pendingInstant = series.zone.instant(for: pending) }
    if pending == nil { stoppedByWorkLimit = iterator?.stoppedByWorkLimit ?? false }
  }

  /// Takes the next instance (the rule's or an RDATE; one instance when both start together,
  /// with the RDATE's PERIOD length) and finds its firings; false when none is left.
  private mutating func takeInstance() -> Bool {
    var instance: RDateInstance
    var instant: Instant?
    let rdates = series.rdates
    let rdate = rdateIndex < rdates.count ? rdates[rdateIndex] : nil
    if let local = pending, rdate.map({ local <= $0.local }) ?? true {
      instance = RDateInstance(local: local, length: nil)
      instant = pendingInstant
      instancesExamined += 1
      takeFromRule()
    } else if let rdate {
      instance = rdate
      rdateIndex += 1
    } else {
      return false
    }
    // An RDATE that repeats an instance is the same instance; its PERIOD length wins.
    while rdateIndex < rdates.count, rdates[rdateIndex].local == instance.local {
      if instance.length == nil { instance = rdates[rdateIndex] }
      rdateIndex += 1
    }
    nextBound = nextInstanceBound()
    appendFirings(of: instance, at: instant ?? series.zone.instant(for: instance.local))
    return true
  }

  /// The firings of one instance, starting at `instant`, at or after `from`, into the heap
  /// ahead.
  private mutating func appendFirings(of instance: RDateInstance, at instant: Instant) {
    let series = series
    let id: RecurrenceID? =
      series.fixedRecurrenceID
      ?? (series.recurring
        ? (series.isDate ? .date(instance.local.date) : .instant(instant)) : nil)
    if !series.excludedDates.isEmpty && series.excludedDates.contains(instance.local.date)
      || (!series.isDate && !series.excludedInstants.isEmpty
        && series.excludedInstants.contains(instant))
    {
      return
    }
    if let id, !series.overriddenIDs.isEmpty, series.overriddenIDs.contains(id) { return }
    var templateIndex = 0
    var start = AlarmTriggers.Moment(local: instance.local, instant: instant)
    if let place = series.futureOverrides.lastIndex(where: { $0.from <= instant }) {
      templateIndex = place + 1
      start = AlarmTriggers.Moment(
        instance.local.adding(seconds: series.futureOverrides[place].shift), in: series.zone)
    }
    let from = from
    series.forEachFiring(template: templateIndex, length: instance.length, start: start) {
      trigger, alarm, repeatIndex, acknowledged in
      guard trigger >= from else { return }
      pushAhead(
        FoundFiring(
          trigger: trigger, eventStart: start.instant, recurrenceID: id, repeatIndex: repeatIndex,
          template: templateIndex, alarm: alarm,
          acknowledged: AlarmComponent.covers(acknowledged, ringAt: trigger)))
    }
  }

  // MARK: the heap ahead

  /// Whether `a` is listed before `b`: level 3 of ``Firing/precedes(_:_:)``, making the
  /// firings for their ids only when trigger, instance and repeat are all equal (and without
  /// a closure, which would copy the walk on every comparison).
  private func before(_ a: FoundFiring, _ b: FoundFiring) -> Bool {
    Firing.placedBefore(a, b) ?? Firing.idPrecedes(series.firing(a).id, series.firing(b).id)
  }

  private mutating func pushAhead(_ found: FoundFiring) {
    ahead.append(found)
    var child = ahead.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard before(ahead[child], ahead[parent]) else { break }
      ahead.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func popAhead() {
    guard !ahead.isEmpty else { return }
    ahead.swapAt(0, ahead.count - 1)
    ahead.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      guard left < ahead.count else { break }
      var child = left
      if left + 1 < ahead.count, before(ahead[left + 1], ahead[left]) { child = left + 1 }
      guard before(ahead[child], ahead[parent]) else { break }
      ahead.swapAt(child, parent)
      parent = child
    }
  }
}

extension FoundFiring: SeriesPlace {}
