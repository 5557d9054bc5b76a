import ICalendar

/// What the plan needs from a calendar's text that the firings do not say: whether each series
/// provably rings the same weekly pattern for ever on the plan zone's wall clock. Series are
/// grouped, and their current revisions chosen, as the scheduler does (``CalendarItems``); their
/// times are placed as it places them (``CalendarTimes``). (An alarm's sound and snooze are on
/// its firings: ``Firing/settings``.)
struct PlanSourceFacts {
  /// The zone whose wall clock repeating requests follow.
  let zone: TimeZoneRules
  /// When the plan starts: an acknowledgement before it covers no firing to come.
  let now: Instant
  /// The end of the plan's horizon: a file's VTIMEZONE must agree with `zone` up to it.
  let horizonEnd: Instant

  /// Whether every series with an alarm that can ring is, by its text, a weekly pattern with
  /// no end and no exception, on the plan zone's wall clock (see ``PlanCompiler``).
  private(set) var everySeriesRingsForever = true
  /// Whether the series with alarms of each (file index, UID) are on the plan zone's wall
  /// clock. A file's series without a UID share their firings' empty UID, so one entry:
  /// whether all of them are.
  private var onPlanClock: [String: Bool] = [:]

  init(zone: TimeZoneRules, now: Instant, horizonEnd: Instant) {
    self.zone = zone
    self.now = now
    self.horizonEnd = horizonEnd
  }

  /// Whether the series of `uid` in file `fileIndex` reads its times on the plan zone's wall
  /// clock: a series in another zone is planned as one-shots at its instants.
  func isOnPlanClock(fileIndex: Int, uid: String) -> Bool {
    onPlanClock[Self.key(fileIndex: fileIndex, uid: uid)] ?? false
  }

  private static func key(fileIndex: Int, uid: String) -> String { "\(fileIndex)\u{0}\(uid)" }

  /// Reads the VEVENTs and VTODOs of `roots` (file `fileIndex`).
  mutating func read(_ roots: [ICalComponent], fileIndex: Int) {
    let calendars = roots.filter { $0.name == "VCALENDAR" }
    // A UID whose revisions are in several calendars: the current one's calendar keeps it.
    let across = AlarmImporter.currentMasters(of: calendars)
    for (number, root) in calendars.enumerated() {
      let times = CalendarTimes(calendar: root, defaultZone: zone)
      let items = root.components.filter { $0.name == "VEVENT" || $0.name == "VTODO" }
      let grouping = CalendarItems<Int>(across: across, calendar: number, capacity: items.count)
      for series in Self.series(of: items, times: times, into: grouping) {
        let master = series.master.map { items[$0.item] }
        let components = (master.map { [$0] } ?? []) + series.overridesInFileOrder.map { items[$0] }
        guard components.contains(where: Self.hasRingingAlarm) else { continue }
        let onClock = master.map { isOnPlanClock($0, times: times) } ?? false
        let key = Self.key(fileIndex: fileIndex, uid: series.uid)
        onPlanClock[key] = (onPlanClock[key] ?? true) && onClock
        let forever =
          series.overrides.isEmpty && onClock
          && master.map { ringsWeeklyForever($0, times: times) } == true
        everySeriesRingsForever = everySeriesRingsForever && forever
      }
    }
  }

  /// One calendar's items grouped into series by `grouping`, each a place in `items`.
  private static func series(
    of items: [ICalComponent], times: CalendarTimes, into grouping: consuming CalendarItems<Int>
  ) -> [CalendarItems<Int>.Series] {
    for (index, item) in items.enumerated() {
      // The UID as the scheduler reads it (its TEXT unescaped), so the facts meet its firings.
      let uid = item.property(uppercased: "UID")?.text ?? ""
      _ = grouping.add(item, at: index, uid: uid, order: index, times: times)
    }
    return grouping.takeSeries()
  }

  /// Whether `item` has a VALARM that can ring: not switched off (ACTION:NONE), not of a
  /// completed task.
  private static func hasRingingAlarm(_ item: ICalComponent) -> Bool {
    !item.isCompletedTask
      && item.components.contains {
        $0.name == "VALARM" && AlarmComponent.action(of: $0) != AlarmVocabulary.disabledAction
      }
  }

  /// Whether the scheduler reads the times of `item` (its DTSTART, a task's DUE without one)
  /// on the plan zone's wall clock: where ``CalendarTimes`` places them is that zone, or a
  /// VTIMEZONE naming it that agrees with it (up to the horizon's end, or, cut short, where it
  /// defines offsets and then continued by it).
  private func isOnPlanClock(_ item: ICalComponent, times: CalendarTimes) -> Bool {
    guard let placed = Self.start(of: item).flatMap(times.place) else { return false }
    switch placed.zone {
    case let rules as TimeZoneRules:
      return rules.identifier == zone.identifier
    case let continued as ContinuedZone:
      return continued.continuation.identifier == zone.identifier
    case let rules as VTimezoneRules:
      guard case .zoned(_, let tzid)? = Self.start(of: item),
        times.defined.contains(where: { $0.tzid == tzid && $0.named == zone.identifier })
      else { return false }
      return VTimezoneMatcher.agrees(rules, with: zone.identifier, from: now, to: horizonEnd)
    default:
      return false
    }
  }

  /// The value the scheduler places a series by: DTSTART, or a task's DUE without one.
  private static func start(of item: ICalComponent) -> DateTimeValue? {
    let anchor =
      item.property(uppercased: "DTSTART")
      ?? (item.name == "VTODO" ? item.property(uppercased: "DUE") : nil)
    return anchor.flatMap(DateTimeValue.init(property:))
  }

  /// Whether `event` rings, by its text, on a fixed weekly pattern for ever: a VEVENT whose one
  /// RRULE repeats a weekly pattern for ever (``RecurrenceRule/repeatsWeeklyForever``), with
  /// no EXDATE, RDATE or cancellation, a DATE-TIME start, and alarms with relative triggers,
  /// no snooze, and no acknowledgement (ACKNOWLEDGED, Thunderbird's X-MOZ-LASTACK) from now on.
  private func ringsWeeklyForever(_ event: ICalComponent, times: CalendarTimes) -> Bool {
    guard event.name == "VEVENT", !event.isCancelled,
      !event.hasProperty(uppercased: "EXDATE"), !event.hasProperty(uppercased: "RDATE"),
      let start = Self.start(of: event), !start.isDate,
      event.properties.count(where: { $0.name == "RRULE" }) == 1,
      let text = event.propertyValue(uppercased: "RRULE"),
      let rule = try? RecurrenceRule(parsing: text), rule.repeatsWeeklyForever,
      !event.properties.contains(where: { $0.name.hasPrefix(AlarmComponent.mozillaSnoozeTime) }),
      !coversFiringsToCome(AlarmComponent.mozillaLastAck(of: event), times: times)
    else { return false }
    for alarm in event.components where alarm.name == "VALARM" {
      if AlarmComponent.snoozeOf(alarm) != nil
        || coversFiringsToCome(AlarmComponent.acknowledged(of: alarm), times: times)
      {
        return false
      }
      let absolute = alarm.properties.contains {
        $0.name.uppercased() == "TRIGGER"
          && $0.parameter(uppercased: "VALUE")?.uppercased() == "DATE-TIME"
      }
      if absolute { return false }
    }
    return true
  }

  /// Whether an acknowledgement covers firings from now on (one at or after a firing covers
  /// it); one the scheduler cannot place covers nothing, as there.
  private func coversFiringsToCome(_ value: DateTimeValue?, times: CalendarTimes) -> Bool {
    guard let instant = value.flatMap(times.instant) else { return false }
    return instant >= now
  }
}
