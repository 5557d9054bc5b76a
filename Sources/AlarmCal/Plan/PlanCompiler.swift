import ICalendar

/// Compiles calendars into a ``NotificationPlan``: the notifications an app schedules so that
/// its alarms ring as ``FiringSchedule`` says, within a budget of pending requests.
///
/// The firings from `now` over a two-year horizon are grouped by series, alarm, repeat, title
/// and action, and each group's firings by weekday and wall-clock time in the plan's zone. Such
/// a bucket is a *weekly unit*, which one repeating request can ring, when the series is on
/// the plan zone's wall clock and the bucket holds a firing at exactly that wall-clock time on
/// every such weekday of the horizon, and that time occurs exactly once on each of those days
/// (no DST gap or overlap: iOS does not document what a repeating trigger does then). Every
/// other firing is a one-shot.
///
/// Allocation is exact, not greedy: to ring every firing before an instant T, each one-shot
/// before T costs a request and each unit with a firing before T costs one (repeating or its
/// lone one-shot), so the cheapest plan valid to T costs one-shots(T) + units(T), which grows
/// with T. Firings are swept in time order, counting that cost; `validUntil` is the first
/// firing at which it would exceed the budget. Units met before it become repeating requests,
/// the rest of the firings before it one-shots.
///
/// `validUntil` is nil only when nothing was left out, every series with alarms is, by its
/// text, a weekly pattern for ever (``PlanSourceFacts``), and each repeating request's time
/// occurs once on its weekday through a 28-year cycle; otherwise it is at most the horizon's
/// end, and the app plans again then. Repeating requests follow the plan zone's wall clock:
/// the app plans again when the device's zone changes.
public struct PlanCompiler {
  /// The zone whose wall clock repeating requests follow (the device's).
  public let zone: TimeZoneRules
  /// When the plan starts.
  public let now: Instant
  /// The most requests the plan may hold.
  public let budget: Int
  /// How far ahead firings are examined, in days.
  public static let horizonDays = 732

  private var schedule: FiringSchedule
  private var facts: PlanSourceFacts
  private var fileCount = 0

  /// An empty compiler; ``read(_:file:)`` adds calendars. `workLimit`: the candidates one rule
  /// may try for each firing (``FiringSchedule``'s).
  public init(
    zone: TimeZoneRules, now: Instant, budget: Int, maximumFirings: Int = 1_000_000,
    workLimit: Int = 1_000_000
  ) {
    self.maximumFirings = maximumFirings
    self.zone = zone
    self.now = now
    self.budget = budget
    horizonEnd = now.adding(seconds: Int64(Self.horizonDays) * 86_400)
    schedule = FiringSchedule(defaultZone: zone, workLimit: workLimit)
    facts = PlanSourceFacts(zone: zone, now: now, horizonEnd: horizonEnd)
  }

  /// Warnings found reading the calendars.
  public var warnings: [SchedulerWarning] { schedule.warnings }
  /// Warnings found compiling: a rule whose expansion stopped at the work limit, so that some
  /// of its firings are missing from the plan (as `upcoming` says of them).
  public private(set) var lateWarnings: [SchedulerWarning] = []

  /// Adds one calendar file's text (UTF-8).
  public mutating func read(_ bytes: [UInt8], file: String) throws(ICalendarSyntaxError) {
    let roots = try ICalendarReader.read(bytes)
    try schedule.read(bytes, file: file)
    facts.read(roots, fileIndex: fileCount)
    fileCount += 1
  }

  /// The end of the horizon: two years on, or sooner when more than
  /// ``maximumFirings`` firings come before that (the plan is then valid to the cut at most).
  public private(set) var horizonEnd: Instant
  /// The most firings examined: they are held in memory at once.
  public let maximumFirings: Int

  /// The plan; call once.
  public mutating func compile() -> NotificationPlan {
    let (firings, cut) = firingsInHorizon()
    let units = weeklyUnits(of: firings)
    var sweep = sweepBudget(firings, units: units)
    if sweep.validUntil == nil {
      let everyUnit = units.unitOfFiring.count == firings.count
      let forEver =
        !cut && everyUnit && facts.everySeriesRingsForever
        && repeatsForEver(sweep.met, units: units)
      sweep.validUntil = forEver ? nil : horizonEnd
    }
    if let end = sweep.validUntil {
      sweep.oneShots.removeAll { firings[$0].trigger >= end }
    }
    let requests =
      repeatingRequests(sweep.met, units: units, firings: firings)
      + sweep.oneShots.map { index in
        request(
          for: firings[index],
          trigger: .once(firingID: firings[index].id.description, at: firings[index].trigger))
      }
    return NotificationPlan(
      requests: requests, categories: Self.categories(of: requests), validUntil: sweep.validUntil)
  }

  /// The firings from now to the horizon's end, in time order, and whether there were too many
  /// to hold (the horizon then ends at the last one's instant, which is left out).
  private mutating func firingsInHorizon() -> (firings: [Firing], cut: Bool) {
    var firings: [Firing] = []
    var found = schedule.firings(from: now, to: horizonEnd, limit: maximumFirings + 1)
    while let firing = found.next() { firings.append(firing) }
    lateWarnings = found.lateWarnings
    let cut = firings.count > maximumFirings
    if cut, let last = firings.last {
      horizonEnd = last.trigger
      firings.removeAll { $0.trigger >= last.trigger }
    }
    return (firings, cut)
  }

  /// What the budget sweep chose: each unit met with its first firing's index, the one-shots'
  /// indices, and the firing at which the budget ran out (nil while it did not).
  private struct Sweep {
    var met: [Int: Int] = [:]
    var oneShots: [Int] = []
    var validUntil: Instant?
  }

  /// The sweep: firings in time order, each one-shot and each unit met so far costing one
  /// request, until the next would exceed the budget.
  private func sweepBudget(_ firings: [Firing], units: Units) -> Sweep {
    var sweep = Sweep()
    for (index, firing) in firings.enumerated() {
      let unit = units.unitOfFiring[index]
      if let unit, sweep.met[unit] != nil { continue }
      guard sweep.met.count + sweep.oneShots.count < budget else {
        sweep.validUntil = firing.trigger
        break
      }
      if let unit { sweep.met[unit] = index } else { sweep.oneShots.append(index) }
    }
    return sweep
  }

  /// Whether each unit `met` holds past the horizon too (for ever): its wall-clock time occurs
  /// once on its weekday through a whole 28-year cycle of dates and weekdays.
  private func repeatsForEver(_ met: [Int: Int], units: Units) -> Bool {
    met.keys.allSatisfy { unit in
      let (weekday, time) = units.keys[unit]
      return occursOnceEveryWeek(weekday: weekday, time: time)
    }
  }

  /// A repeating request for each unit met, from its first firing, by weekday, time, then
  /// identifier.
  private func repeatingRequests(_ met: [Int: Int], units: Units, firings: [Firing])
    -> [PlannedRequest]
  {
    var repeating: [PlannedRequest] = met.map { unit, first in
      let (weekday, time) = units.keys[unit]
      return request(for: firings[first], trigger: .weekly(weekday, time))
    }
    repeating.sort { a, b in
      guard case .weekly(let wa, let ta) = a.trigger, case .weekly(let wb, let tb) = b.trigger
      else { return false }
      if wa != wb { return wa < wb }
      if ta != tb { return ta < tb }
      return a.identifier < b.identifier
    }
    return repeating
  }

  /// The categories `requests` use: Snooze's, then Stop's.
  private static func categories(of requests: [PlannedRequest]) -> [PlannedCategory] {
    var categories: [PlannedCategory] = []
    if requests.contains(where: { $0.categoryIdentifier == PlannedCategory.snoozeIdentifier }) {
      categories.append(.snooze)
    }
    if requests.contains(where: { $0.categoryIdentifier == PlannedCategory.stopIdentifier }) {
      categories.append(.stop)
    }
    return categories
  }

  /// The weekly units found among `firings` (in time order).
  private struct Units {
    /// Each unit's weekday and wall-clock time.
    var keys: [(Weekday, LocalTime)] = []
    /// The unit of each firing that belongs to one.
    var unitOfFiring: [Int: Int] = [:]
  }

  private struct BucketKey: Hashable {
    let fileIndex: Int
    let uid: String
    let alarm: String
    let repeatIndex: Int
    let summary: String?
    let action: String
    let weekday: Weekday
    let time: LocalTime
  }

  private func weeklyUnits(of firings: [Firing]) -> Units {
    var buckets: [BucketKey: [Int]] = [:]
    var order: [BucketKey] = []
    for (index, firing) in firings.enumerated() {
      guard !firing.isSnooze, seriesOnPlanWallClock(firing) else { continue }
      let local = zone.local(at: firing.trigger)
      let key = BucketKey(
        fileIndex: firing.fileIndex, uid: firing.uid, alarm: firing.alarm.key,
        repeatIndex: firing.repeatIndex, summary: firing.summary, action: firing.action,
        weekday: local.date.weekday, time: local.time)
      if buckets[key] == nil { order.append(key) }
      buckets[key, default: []].append(index)
    }
    var units = Units()
    for key in order {
      guard let members = buckets[key],
        isEveryWeek(members.map { firings[$0].trigger }, weekday: key.weekday, time: key.time)
      else { continue }
      let unit = units.keys.count
      units.keys.append((key.weekday, key.time))
      for index in members { units.unitOfFiring[index] = unit }
    }
    return units
  }

  /// Whether the firing's series reads its times on the plan zone's wall clock: a series in
  /// another zone is planned as one-shots at its instants.
  private func seriesOnPlanWallClock(_ firing: Firing) -> Bool {
    facts.isOnPlanClock(fileIndex: firing.fileIndex, uid: firing.uid)
  }

  /// Whether `triggers` are exactly `time` on every `weekday` from now to the horizon's end,
  /// each a wall-clock time that occurs once that day.
  private func isEveryWeek(_ triggers: [Instant], weekday: Weekday, time: LocalTime) -> Bool {
    var date = firstDate(on: weekday)
    var index = 0
    while true {
      let local = LocalDateTime(date, time)
      guard let instant = uniqueInstant(of: local) else { return false }
      if instant >= horizonEnd { break }
      if instant >= now {
        guard index < triggers.count, triggers[index] == instant else { return false }
        index += 1
      }
      date = date.adding(days: 7)
    }
    return index == triggers.count
  }

  /// Days in the Gregorian calendar's 28-year cycle of dates and weekdays (with a leap day
  /// over): a zone whose changes fall on fixed dates meets every weekday within it.
  static let cycleDays = 28 * 366

  /// Whether `time` occurs exactly once on every `weekday` of the next ``cycleDays`` days.
  private func occursOnceEveryWeek(weekday: Weekday, time: LocalTime) -> Bool {
    var date = firstDate(on: weekday)
    for _ in stride(from: 0, to: Self.cycleDays, by: 7) {
      guard uniqueInstant(of: LocalDateTime(date, time)) != nil else { return false }
      date = date.adding(days: 7)
    }
    return true
  }

  /// The first date on `weekday` from today in the plan's zone.
  private func firstDate(on weekday: Weekday) -> LocalDate {
    var date = zone.local(at: now).date
    while date.weekday != weekday { date = date.adding(days: 1) }
    return date
  }

  /// The instant of a wall-clock reading that occurs exactly once in the plan's zone; nil in
  /// a gap or an overlap.
  private func uniqueInstant(of local: LocalDateTime) -> Instant? {
    let asUTC = local.secondsSince1970
    var found: Set<Instant> = []
    for probe in [asUTC - 86_400, asUTC, asUTC + 86_400] {
      let candidate = Instant(
        secondsSince1970: asUTC - Int64(zone.offset(at: Instant(secondsSince1970: probe))))
      if zone.local(at: candidate) == local { found.insert(candidate) }
    }
    return found.count == 1 ? found.first : nil
  }

  private func request(for firing: Firing, trigger: PlannedTrigger) -> PlannedRequest {
    let settings = firing.settings
    let identifier: String
    switch trigger {
    case .once(let id, _): identifier = id
    case .weekly(let weekday, let time):
      identifier =
        firing.idSeed.weeklyID(repeatIndex: firing.repeatIndex, weekday: weekday, time: time)
        .description
    }
    return PlannedRequest(
      identifier: identifier, title: firing.summary ?? Alarm.defaultLabel, body: "",
      sound: settings.sound ?? "default",
      categoryIdentifier: settings.offersSnooze
        ? PlannedCategory.snoozeIdentifier : PlannedCategory.stopIdentifier,
      threadIdentifier: firing.uid, uid: firing.uid, alarmUID: firing.alarmUID,
      snoozeMinutes: settings.snoozeMinutes, trigger: trigger)
  }
}
