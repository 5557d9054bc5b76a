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

/// A firing of an instance, found but not handed out yet: plain values, so keeping them in
/// order moves no references; it becomes a ``Firing`` when its turn comes.
struct FoundFiring {
  let trigger: Instant
  let eventStart: Instant
  let recurrenceID: RecurrenceID?
  let repeatIndex: Int
  /// The template: 0 for the master's, k for the k-th THISANDFUTURE override's.
  let template: Int
  /// The alarm's place among the template's alarms.
  let alarm: Int
  let acknowledged: Bool
}

/// One UID of one file, read: a master component (or an instance read without its series),
/// its instances, its overrides and their alarms. It does not change; ``SeriesWalk`` walks
/// through its firings.
final class AlarmSeries: Sendable {
  let origin: FiringOrigin
  var uid: String { origin.uid }
  var fileIndex: Int { origin.fileIndex }
  let line: Int?
  /// VEVENT or VTODO, for messages.
  let componentName: String
  let zone: any ZoneOffsets
  /// The start: the first instance of a series without a rule.
  let start: LocalDateTime
  let isDate: Bool
  let recurring: Bool
  /// The RECURRENCE-ID of an instance read without its series: its firings carry it.
  let fixedRecurrenceID: RecurrenceID?
  /// Whether instances ring at all (the master's alarms, or a THISANDFUTURE override's);
  /// without, the rule is not walked (overrides ring on their own).
  let instancesCanRing: Bool
  /// The templates instances ring with: the master's first, then each THISANDFUTURE
  /// override's in time order.
  let master: InstanceTemplate
  let excludedInstants: Set<Instant>
  let excludedDates: Set<LocalDate>
  /// RECURRENCE-ID overrides: instances the rule's own do not ring for.
  let overriddenIDs: Set<RecurrenceID>
  /// RDATEs on this series' wall clock, sorted (none when instances cannot ring).
  let rdates: [RDateInstance]
  /// RANGE=THISANDFUTURE overrides, in time order.
  let futureOverrides: [FutureOverride]
  /// Every firing that is not of a rule's instance: absolute triggers, snoozes, and the
  /// overrides' firings, in order.
  let ringsOnce: [Firing]
  /// The earliest and latest firing offset from an instance's start, in seconds.
  let earliestOffset: Int64
  let latestOffset: Int64
  /// Whether a trigger, a RELATED=END length or a repeat counts nominal days, whose elapsed
  /// seconds differ from whole days by a DST change.
  let countsNominalDays: Bool
  /// Whether the rule is HOURLY or finer.
  let isSubDaily: Bool

  /// The series of `parts` with `overrides`; its rule has been taken out of the parts for its
  /// walk, and `subDailyRule` says whether there was one (nil: none) and whether it is HOURLY
  /// or finer.
  init(_ parts: MasterParts, subDailyRule: Bool?, overrides: SeriesReader.Overrides) {
    origin = parts.origin
    line = parts.line
    componentName = parts.componentName
    zone = parts.placed.zone
    start = parts.placed.local
    isDate = parts.placed.isDate
    recurring = subDailyRule != nil || !parts.rdates.isEmpty
    fixedRecurrenceID = parts.fixedRecurrenceID
    master = parts.template
    excludedInstants = parts.excludedInstants
    excludedDates = parts.excludedDates
    overriddenIDs = Set(overrides.table.keys)
    futureOverrides = overrides.future
    let (earliest, latest, nominal) = Self.reachOfOffsets(
      parts.template, overrides.table.values.map(\.template), future: overrides.future)
    (earliestOffset, latestOffset, countsNominalDays) = (earliest, latest, nominal)
    instancesCanRing =
      parts.template.canRingPerInstance
      || overrides.future.contains { $0.template.canRingPerInstance }
    rdates = instancesCanRing ? parts.rdates : []
    isSubDaily = instancesCanRing && subDailyRule == true
    var once = parts.singles
    if !overrides.singles.isEmpty { once += overrides.singles }
    for (id, override) in overrides.table {
      Self.appendFirings(
        template: override.template, length: override.template.length,
        start: AlarmTriggers.Moment(override.start.local, in: override.start.zone),
        zone: override.start.zone, recurrenceID: id, origin: parts.origin, to: &once)
    }
    ringsOnce = once.count > 1 ? once.sorted { $0.followsWithinSeries($1) } : once
  }

  /// Whether anything of this series can ring: an instance, an override or a single trigger.
  var canRing: Bool { instancesCanRing || !ringsOnce.isEmpty }

  /// The template of a found firing.
  func template(_ index: Int) -> InstanceTemplate {
    index == 0 ? master : futureOverrides[index - 1].template
  }

  /// The firing a found one stands for.
  func firing(_ found: FoundFiring) -> Firing {
    let template = template(found.template)
    let alarm = template.alarms[found.alarm]
    return Firing(
      trigger: found.trigger, origin: origin, recurrenceID: found.recurrenceID,
      eventStart: found.eventStart, summary: template.summary, action: alarm.action,
      repeatIndex: found.repeatIndex, alarm: alarm.identity, acknowledged: found.acknowledged)
  }

  /// The earliest and latest offset of a firing from its instance's start over `templates`,
  /// widened by THISANDFUTURE shifts, and whether any counts nominal days.
  private static func reachOfOffsets(
    _ master: InstanceTemplate, _ overrides: [InstanceTemplate], future: [FutureOverride]
  ) -> (Int64, Int64, Bool) {
    var earliest: Int64 = 0
    var latest: Int64 = 0
    var nominalDays = false
    let templates =
      overrides.isEmpty && future.isEmpty ? [master] : [master] + overrides + future.map(\.template)
    for template in templates {
      for alarm in template.alarms {
        guard case .relative(let offset, let fromEnd) = alarm.trigger else { continue }
        nominalDays =
          nominalDays || offset.days != 0
          || (alarm.repeatCount > 0 && alarm.repeatInterval.days != 0)
          || (fromEnd && template.length.countsDays)
        let base =
          Int64(offset.signedDays) * 86_400 + Int64(offset.signedSeconds)
          + (fromEnd ? template.length.maximumSeconds : 0)
        let repeats =
          Int64(alarm.repeatCount)
          * (Int64(alarm.repeatInterval.days) * 86_400 + Int64(alarm.repeatInterval.seconds))
        earliest = min(earliest, base)
        latest = max(latest, base + repeats)
      }
    }
    let shifts = future.map(\.shift)
    return (
      earliest + min(0, shifts.min() ?? 0), latest + max(0, shifts.max() ?? 0), nominalDays
    )
  }

  /// Every firing of one instance's relative alarms (absolute ones ring once, elsewhere).
  static func appendFirings(
    template: InstanceTemplate, length: InstanceLength, start: AlarmTriggers.Moment,
    zone: any ZoneOffsets, recurrenceID: RecurrenceID?, origin: FiringOrigin,
    to result: inout [Firing]
  ) {
    forEachFiring(template: template, length: length, start: start, zone: zone) {
      trigger, alarm, repeatIndex, _ in
      result.append(
        FiringMath.firing(
          origin: origin, trigger: trigger, recurrenceID: recurrenceID,
          eventStart: start.instant, summary: template.summary, alarm: template.alarms[alarm],
          repeatIndex: repeatIndex))
    }
  }

  /// ``forEachFiring(template:length:start:zone:_:)`` of template `index` (0: the master's, k:
  /// the k-th THISANDFUTURE override's), its length unless `length` is given. The master's
  /// template, which most instances ring with, is read where it is: a copy would retain its
  /// alarms, which the printing thread reads too.
  func forEachFiring(
    template index: Int, length: InstanceLength?, start: AlarmTriggers.Moment,
    _ body: (Instant, Int, Int, Instant?) -> Void
  ) {
    if index == 0 {
      Self.forEachFiring(
        template: master, length: length ?? master.length, start: start, zone: zone, body)
    } else {
      let template = template(index)
      Self.forEachFiring(
        template: template, length: length ?? template.length, start: start, zone: zone, body)
    }
  }

  /// Calls `body` with the trigger, the alarm's place, the repeat index and the alarm's
  /// acknowledgement of each firing of one instance's relative alarms (RFC 5545 §3.8.6.2-3).
  static func forEachFiring(
    template: InstanceTemplate, length: InstanceLength, start: AlarmTriggers.Moment,
    zone: any ZoneOffsets, _ body: (Instant, Int, Int, Instant?) -> Void
  ) {
    guard !template.cancelled else { return }
    var end: AlarmTriggers.Moment?
    let alarms = template.alarms
    for index in alarms.indices {
      guard case .relative(let offset, let fromEnd) = alarms[index].trigger else { continue }
      var anchor = start
      if fromEnd {
        let instanceEnd = end ?? length.end(of: start, in: zone)
        end = instanceEnd
        anchor = instanceEnd
      }
      let first = AlarmTriggers.instant(offset, after: anchor, in: zone)
      let repeatInterval = alarms[index].repeatInterval
      let acknowledged = alarms[index].acknowledged
      for k in 0...alarms[index].repeatCount {
        body(
          FiringMath.repeatTrigger(first, k, repeatInterval, zone: zone), index, k, acknowledged)
      }
    }
  }

  /// How far below the wall-clock reading at `instant` an instance may start and still fire
  /// at or after it. A day covers nominal days in triggers and any UTC-offset change (even
  /// Samoa's skipped day in 2011). HOURLY and finer rules get exactly what the zone needs, so
  /// a SECONDLY rule does not take a day of instances ahead: the drop of the offset within a
  /// day either side (zones change at most once in two days), plus 2 hours when triggers count
  /// nominal days.
  func reach(around instant: Instant) -> (below: Int64, above: Int64) {
    guard isSubDaily else { return (86_400, 86_400) }
    let here = zone.offset(at: instant)
    let before = zone.offset(at: instant.adding(seconds: -86_400))
    let after = zone.offset(at: instant.adding(seconds: 86_400))
    let slack: Int64 = countsNominalDays ? 7_200 : 0
    return (
      Int64(here - min(here, before, after)) + slack, Int64(max(here, before, after) - here) + slack
    )
  }

}
