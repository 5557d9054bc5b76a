import ICalendar

/// A UID as a dictionary key, carrying its 64-bit digest (``AlarmIdentifier/Hasher``'s two
/// FNV-1a lanes folded into one): the dictionary hashes eight
/// bytes when it grows, and compares the hashes before the texts (a hundred thousand UIDs
/// were hashed whole at each growth and compared byte by byte along each probe).
struct UIDKey: Hashable {
  let hash: UInt64
  let text: String

  init(_ text: String) {
    var hasher = AlarmIdentifier.Hasher()
    hasher.add(text)
    hash = hasher.digest
    self.text = text
  }

  static func == (a: UIDKey, b: UIDKey) -> Bool { a.hash == b.hash && a.text == b.text }

  func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// One UID of one file: a master component (or a lone override), its instances and alarms.
final class AlarmSeries {
  /// The file and UID, shared with every firing of the series.
  let origin: FiringOrigin
  var file: String { origin.file }
  var fileIndex: Int { origin.fileIndex }
  var uid: String { origin.uid }
  let line: Int?
  /// VEVENT or VTODO, for messages.
  let componentName: String
  let zone: any ZoneOffsets
  let start: LocalDateTime
  let isDate: Bool
  let recurring: Bool
  /// The RECURRENCE-ID of an instance read without its series (a CalDAV server's expanded
  /// answer): its firings carry it, as they would had the series been there.
  let fixedRecurrenceID: RecurrenceID?
  let master: InstanceTemplate
  /// Per instance: EXDATE instants and (for DATE EXDATEs) dates.
  let excludedInstants: Set<Instant>
  let excludedDates: Set<LocalDate>
  /// RECURRENCE-ID overrides: their own start and template.
  let overrides: [RecurrenceID: (start: CalendarTimes.Placed, template: InstanceTemplate)]
  /// Extra single firings: absolute triggers and Thunderbird snoozes.
  let singles: [Firing]
  /// RDATEs on this series' wall clock, sorted.
  let rdates: [RDateInstance]
  /// RANGE=THISANDFUTURE overrides, in time order.
  let futureOverrides: [FutureOverride]
  // The iteration state below is read and written many times per series in every window.
  // Each access to a class's stored property is checked for exclusivity at run time (about 9%
  // of finding a series' instances, W1 at 100,000 series); a series is only ever advanced by
  // one thread at a time, in ``appendFirings(in:to:)`` and the calls it makes, which never overlap two
  // accesses to one property, so these are left unchecked.
  @exclusivity(unchecked) var rdateIndex = 0
  @exclusivity(unchecked) var iterator: RecurrenceIterator?
  /// The iterator's next instance not yet handed out.
  @exclusivity(unchecked) var pending: LocalDateTime?
  /// Instances handed out that later windows may still need.
  @exclusivity(unchecked) var buffer: [LocalDateTime] = []
  /// The earliest and latest firing offset from an instance's start, in seconds.
  let earliestOffset: Int64
  let latestOffset: Int64
  /// Whether a trigger, a RELATED=END length or a repeat counts nominal days, whose elapsed
  /// seconds differ from whole days by a DST change.
  let countsNominalDays: Bool
  var warnedAboutWork = false
  /// The series' place in the file-then-UID order (equal for equal file and UID).
  var rank = 0
  /// Whether the rule is HOURLY or finer, and its most instances per second (0 without one).
  let isSubDaily: Bool
  let ruleRate: Double
  /// Instances looked at so far (laziness is measured by this, not by time).
  @exclusivity(unchecked) var instancesExamined = 0

  init(
    origin: FiringOrigin, line: Int?, componentName: String, zone: any ZoneOffsets,
    start: LocalDateTime, isDate: Bool, rule: consuming RecurrenceIterator?,
    fixedRecurrenceID: RecurrenceID? = nil, master: InstanceTemplate,
    excludedInstants: Set<Instant>, excludedDates: Set<LocalDate>,
    overrides: [RecurrenceID: (start: CalendarTimes.Placed, template: InstanceTemplate)],
    singles: [Firing], rdates: [RDateInstance], futureOverrides: [FutureOverride] = []
  ) {
    self.origin = origin
    self.line = line
    self.componentName = componentName
    self.zone = zone
    self.start = start
    self.isDate = isDate
    self.recurring = rule != nil || !rdates.isEmpty
    self.fixedRecurrenceID = fixedRecurrenceID
    self.master = master
    self.excludedInstants = excludedInstants
    self.excludedDates = excludedDates
    self.overrides = overrides
    self.singles = singles
    self.futureOverrides = futureOverrides
    // Instances of the rule ring only through the master's alarms or a THISANDFUTURE
    // override's; without any, the rule is not walked at all (overrides ring on their own).
    let instancesCanRing =
      master.canRingPerInstance || futureOverrides.contains { $0.template.canRingPerInstance }
    self.rdates = instancesCanRing ? rdates : []
    isSubDaily = instancesCanRing && (rule?.isSubDaily ?? false)
    ruleRate = instancesCanRing ? rule?.maximumRate ?? 0 : 0
    // Moved in, not copied: each copy of an iterator counts a reference on its shared plan.
    if !instancesCanRing {
      iterator = nil
      pending = nil
    } else if rule != nil {
      iterator = rule
      pending = iterator?.next()
    } else {
      pending = start
    }
    var earliest: Int64 = 0
    var latest: Int64 = 0
    var nominalDays = false
    let templates = [master] + overrides.values.map(\.template)
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
    // A THISANDFUTURE override moves later instances: widen the reach by its shift.
    let shifts = futureOverrides.map(\.shift)
    countsNominalDays = nominalDays
    earliestOffset = earliest + min(0, shifts.min() ?? 0)
    latestOffset = latest + max(0, shifts.max() ?? 0)
  }
}

/// Reads VEVENTs and VTODOs with alarms into series, reporting what it cannot use.
///
/// Components come one at a time (``add(_:source:)``), in document order; ``finish(reading:)``
/// returns the series in the order their UIDs first appear. A master whose text can be read
/// again (the caller gives a source number) becomes its series at once and its component is
/// let go; if a RECURRENCE-ID override with its UID comes later, the master is read again then.
/// Masters without a source, and overrides, are kept until the end.
struct SeriesBuilder {
  let file: String
  let fileIndex: Int
  let times: CalendarTimes
  let workLimit: Int
  /// Warnings of the series being built; moved into its UID's slot.
  private var warnings: [SchedulerWarning] = []
  /// Warnings about the grouping itself (an older revision of a UID), reported first.
  private var groupingWarnings: [SchedulerWarning] = []
  /// How many VEVENTs and VTODOs were added, for the order of revisions.
  private var added = 0
  /// Identities of components without a UID.
  private var contentIdentity = ContentIdentity()
  /// Each RRULE text read: its place in `compiledRules`, or why it cannot be read. Large
  /// calendars repeat a few rules many times.
  private var rules: [String: Result<Int, RecurrenceRuleError>] = [:]
  /// The rules read, with their compiled plans, used in place (a copy retained every part).
  private var compiledRules: [RecurrencePlans] = []
  /// What ``probe(_:_:_:start:)`` asks of each rule in `compiledRules`, read once.
  private var ruleTraits: [RuleTraits] = []

  /// What the probe of a rule needs to know of it.
  private struct RuleTraits {
    /// No COUNT and no UNTIL.
    let endless: Bool
    /// Endless, weekly, and with no part but plain weekdays: an instance every week.
    let everyWeek: Bool

    init(_ rule: RecurrenceRule) {
      endless = rule.count == nil && rule.until == nil
      everyWeek =
        endless && rule.frequency == .weekly && !rule.hasByPartsBesidesDay
        && rule.byDay.allSatisfy { $0.ordinal == nil }
    }
  }
  /// One slot per UID, in the order UIDs first appear.
  private var slots: [Slot] = []
  /// The series built from masters as they came, in the order they came; nil where a later
  /// revision replaced one.
  private var built: [AlarmSeries?] = []
  private var slotOfUID: [UIDKey: Int] = [:]
  /// Components kept until the end, by slot: few calendars have overrides.
  private var kept: [Int: Kept] = [:]

  /// What one UID has so far (small: a calendar has one per event).
  private struct Slot {
    let uid: String
    /// The text firing ids hash: the UID, or for a component without one, its content.
    let identity: String
    /// The current master's revision and line, once a master came.
    var revision: ComponentRevision?
    var masterLine: Int?
    var hasMaster: Bool { revision != nil }
    /// The caller's number for the master's text, when it was built at once.
    var source: Int?
    /// Where in `built` the series from the master alone is, and the warnings building it gave.
    var built: Int?
    var warnings: [SchedulerWarning] = []
  }

  private struct Kept {
    var master: ICalComponent?
    /// Overrides in file order, each with its revision.
    var overrides: [(component: ICalComponent, revision: ComponentRevision)] = []
  }

  init(file: String, fileIndex: Int, times: CalendarTimes, workLimit: Int) {
    self.file = file
    self.fileIndex = fileIndex
    self.times = times
    self.workLimit = workLimit
  }

  /// Takes the next VEVENT or VTODO (other components are ignored); `source` numbers its text
  /// for ``finish(reading:)``, if it can be read again. Returns the component when the builder
  /// is done with it, for the caller to let go where it likes (the thread that allocated it).
  @discardableResult
  mutating func add(_ item: consuming ICalComponent, source: Int? = nil) -> ICalComponent? {
    guard item.name == "VEVENT" || item.name == "VTODO" else { return item }
    let revision = ComponentRevision(of: item, order: added)
    added += 1
    let slot = slot(for: item)
    if item.hasProperty(uppercased: "RECURRENCE-ID") {
      kept[slot, default: Kept()].overrides.append((item, revision))
      return nil
    }
    guard takeMaster(slot, revision: revision, line: item.line, component: item.name) else {
      return item
    }
    let uid = slots[slot].uid
    if let source, kept[slot] == nil {
      slots[slot].source = source
      slots[slot].built = keep(
        series(master: item, uid: uid, identity: slots[slot].identity, overrides: []))
      slots[slot].warnings = warnings
      warnings = []
      return item
    }
    kept[slot, default: Kept()].master = item
    return nil
  }

  /// A master's series built ahead, by another builder with the same file and times, as if it
  /// were the first component with its UID and had no overrides.
  struct Prebuilt: @unchecked Sendable {
    // @unchecked: the series is handed from the building thread to the one that keeps it and
    // is never touched by the first again.
    let uid: String
    let line: Int?
    let component: String
    /// SEQUENCE and DTSTAMP (its order in the file is set when it is added).
    let revision: ComponentRevision
    let series: AlarmSeries?
    let warnings: [SchedulerWarning]
  }

  /// Builds `item`'s series ahead when it is a master (no RECURRENCE-ID) with a UID; nil
  /// otherwise (components without a UID take their identity from the file's order).
  mutating func prebuild(_ item: borrowing ICalComponent) -> Prebuilt? {
    guard item.name == "VEVENT" || item.name == "VTODO",
      !item.hasProperty(uppercased: "RECURRENCE-ID"),
      let uid = item.property(uppercased: "UID")?.text, !uid.isEmpty
    else { return nil }
    let built = series(master: item, uid: uid, identity: uid, overrides: [])
    defer { warnings = [] }
    return Prebuilt(
      uid: uid, line: item.line, component: item.name,
      revision: ComponentRevision(of: item, order: 0), series: built, warnings: warnings)
  }

  /// Takes a master built ahead (``prebuild(_:)``), exactly as ``add(_:source:)`` takes the
  /// component; if an override of its UID came first, the master is read again at the end.
  mutating func add(_ prebuilt: Prebuilt, source: Int) {
    let revision = prebuilt.revision.placed(at: added)
    added += 1
    let slot = slot(uid: prebuilt.uid, identity: prebuilt.uid)
    guard
      takeMaster(slot, revision: revision, line: prebuilt.line, component: prebuilt.component)
    else { return }
    slots[slot].source = source
    if kept[slot] == nil {
      slots[slot].built = keep(prebuilt.series)
      slots[slot].warnings = prebuilt.warnings
    }
  }

  /// Appends a master's series to `built`; where it went.
  private mutating func keep(_ series: AlarmSeries?) -> Int? {
    guard let series else { return nil }
    built.append(series)
    return built.count - 1
  }

  /// The slot of a component's UID, made when the UID is new. A component without a UID is
  /// an item of its own, identified by its content, with a warning.
  private mutating func slot(for item: borrowing ICalComponent) -> Int {
    let uid = item.property(uppercased: "UID")?.text ?? ""
    guard uid.isEmpty else { return slot(uid: uid, identity: uid) }
    let identity = contentIdentity.identity(of: item)
    // Said of components that can ring: a calendar without UIDs and alarms is not at fault.
    if item.components.contains(where: { $0.name == "VALARM" })
      || item.properties.contains(where: { $0.name.hasPrefix("X-MOZ-SNOOZE-TIME") })
    {
      groupingWarnings.append(
        SchedulerWarning(
          file: file, line: item.line, component: item.name, uid: "",
          message: "has no UID; its firings' ids are derived from its content"))
    }
    return slot(uid: "", identity: "\u{0}" + identity)
  }

  /// The slot of an identity, made when it is new.
  private mutating func slot(uid: String, identity: String) -> Int {
    // One probe: an inout access through `default:` inserts the default when the key is new.
    let next = slots.count
    let slot = Self.value(&slotOfUID[UIDKey(identity), default: next])
    if slot == next { slots.append(Slot(uid: uid, identity: identity)) }
    return slot
  }

  private static func value(_ value: inout Int) -> Int { value }

  /// Makes this master the slot's current one unless the slot has a newer revision (RFC 5546
  /// §2.1.5); whichever gives way is warned about. True when the caller's master is current.
  private mutating func takeMaster(
    _ slot: Int, revision: ComponentRevision, line: Int?, component: String
  ) -> Bool {
    let uid = slots[slot].uid
    if let current = slots[slot].revision {
      if revision < current {
        groupingWarnings.append(
          SchedulerWarning(
            file: file, line: line, component: component, uid: uid,
            message: revision.supersededReason(by: current, line: slots[slot].masterLine)))
        return false
      }
      groupingWarnings.append(
        SchedulerWarning(
          file: file, line: slots[slot].masterLine, component: component, uid: uid,
          message: current.supersededReason(by: revision, line: line)))
      // The older master's series and its warnings give way.
      if let place = slots[slot].built { built[place] = nil }
      slots[slot].built = nil
      slots[slot].warnings = []
      kept[slot]?.master = nil
    }
    slots[slot].revision = revision
    slots[slot].masterLine = line
    return true
  }

  /// The series, in the order their UIDs first appeared, and every warning; `reading` reads a
  /// master again from its source number when an override came after it.
  mutating func finish(reading: (Int) -> ICalComponent?) -> (
    series: [AlarmSeries], warnings: [SchedulerWarning]
  ) {
    var found = groupingWarnings
    defer { releaseGrouping() }
    if kept.isEmpty {
      // Each UID's master was built as it came: `built` is in order.
      for index in slots.indices where !slots[index].warnings.isEmpty {
        found += slots[index].warnings
      }
      return (built.compactMap { $0 }, found)
    }
    var result: [AlarmSeries] = []
    for index in slots.indices {
      let slot = slots[index]
      guard let extra = kept.removeValue(forKey: index) else {
        if let place = slot.built, let series = built[place] { result.append(series) }
        found += slot.warnings
        continue
      }
      let overrides = currentOverrides(extra.overrides, uid: slot.uid)
      if slot.hasMaster {
        guard let master = extra.master ?? slot.source.flatMap(reading) else {
          if let place = slot.built, let series = built[place] { result.append(series) }
          found += slot.warnings
          continue
        }
        if let series = series(
          master: master, uid: slot.uid, identity: slot.identity, overrides: overrides)
        {
          result.append(series)
        }
      } else {
        // Instances without their series (a CalDAV server's expanded answer): each is a
        // single instance of its own, keeping its RECURRENCE-ID.
        for item in overrides {
          if let series = series(
            master: item, uid: slot.uid, identity: slot.identity, overrides: [])
          {
            result.append(series)
          }
        }
      }
      found += warnings
      warnings = []
    }
    return (result, found)
  }

  /// Lets go of the grouping, on another thread when it is large: freeing 100,000 UIDs, each
  /// held by a slot and a key, touches a cache line apiece while the answer waits.
  private mutating func releaseGrouping() {
    var grouping = (slots: [Slot](), slotOfUID: [UIDKey: Int]())
    swap(&grouping.slots, &slots)
    swap(&grouping.slotOfUID, &slotOfUID)
    if grouping.slots.count >= 4_096 { TwoThreads.release(grouping) }
  }

  private mutating func warn(_ item: ICalComponent, _ uid: String, _ message: String) {
    warnings.append(
      SchedulerWarning(
        file: file, line: item.line, component: item.name, uid: uid, message: message))
  }

  /// The current revision of each RECURRENCE-ID's override, in file order; the others are
  /// warned about (RFC 5546 §2.1.5).
  private mutating func currentOverrides(
    _ overrides: [(component: ICalComponent, revision: ComponentRevision)], uid: String
  ) -> [ICalComponent] {
    var current: [String: Int] = [:]
    var keptOnes: [Int] = []
    for (index, override) in overrides.enumerated() {
      let key = override.component.property(uppercased: "RECURRENCE-ID").map(recurrenceKey) ?? ""
      guard let other = current[key] else {
        current[key] = index
        keptOnes.append(index)
        continue
      }
      let (older, newer) =
        override.revision < overrides[other].revision ? (index, other) : (other, index)
      warn(
        overrides[older].component, uid,
        overrides[older].revision.supersededReason(
          by: overrides[newer].revision, line: overrides[newer].component.line))
      current[key] = newer
      if newer == index, let place = keptOnes.firstIndex(of: other) { keptOnes[place] = index }
    }
    return keptOnes.sorted().map { overrides[$0].component }
  }

  /// A RECURRENCE-ID as a key: its instant (or date), whatever its zone or form.
  private func recurrenceKey(_ property: ICalProperty) -> String {
    guard let value = DateTimeValue(property: property) else { return property.value }
    if case .date(let date) = value { return date.description }
    return times.instant(value).map(\.description) ?? property.value
  }

  private mutating func series(
    master item: ICalComponent, uid: String, identity: String, overrides: [ICalComponent]
  ) -> AlarmSeries? {
    let hasAlarms =
      item.components.contains { $0.name == "VALARM" }
      || overrides.contains { $0.components.contains { $0.name == "VALARM" } }
      || item.properties.contains { $0.name.hasPrefix("X-MOZ-SNOOZE-TIME") }
    guard hasAlarms else { return nil }
    // What the reader dropped (a line that is no content line, a stray END), the event's own
    // first; read in place, where gathering the parts into an array cost 2% of reading.
    for position in -1..<item.components.count {
      let part = position < 0 ? item : item.components[position]
      for note in part.libicalLosses {
        warn(item, uid, "a line could not be read and is ignored (\(note))")
      }
    }
    let isTask = item.name == "VTODO"
    guard
      let anchorProperty = item.property(uppercased: "DTSTART")
        ?? (isTask ? item.property(uppercased: "DUE") : nil),
      let anchorValue = DateTimeValue(property: anchorProperty)
    else {
      warn(
        item, uid,
        isTask
          ? "no DTSTART or DUE; its alarms cannot ring"
          : "no readable DTSTART; its alarms cannot ring")
      return nil
    }
    guard let placed = times.place(anchorValue) else {
      warn(
        item, uid,
        "time zone \(quoted(anchorProperty.parameter("TZID") ?? "")) is unknown; its alarms cannot ring"
      )
      return nil
    }
    var rule: RecurrenceIterator?
    let isOverride = item.hasProperty(uppercased: "RECURRENCE-ID")
    if let ruleProperty = item.property(uppercased: "RRULE"), !isOverride {
      if item.properties.count(where: { $0.name == "RRULE" }) > 1 {
        warn(item, uid, "several RRULEs; only the first is used")
      }
      do {
        let index = try parsedRule(ruleProperty.value).get()
        let until = compiledRules[index].rule.until.flatMap { untilReading($0, placed: placed) }
        rule = RecurrenceIterator(
          plans: &compiledRules[index], start: placed.local, isDate: placed.isDate,
          until: until, workLimit: workLimit)
        if let probeWarning = probe(
          ruleProperty.value, ruleTraits[index], rule, start: placed.local)
        {
          warn(item, uid, probeWarning)
        }
      } catch {
        warn(item, uid, "RRULE cannot be read (\(error.message)); only DTSTART rings")
      }
    }
    var excludedInstants = Set<Instant>()
    var excludedDates = Set<LocalDate>()
    for exdate in item.properties where exdate.name == "EXDATE" {
      for value in values(of: exdate, in: item, uid: uid) {
        if case .date(let date) = value {
          excludedDates.insert(date)
        } else if let instant = times.instant(value) {
          excludedInstants.insert(instant)
        }
      }
    }
    var rdates: [RDateInstance] = []
    for rdate in item.properties where rdate.name == "RDATE" && !isOverride {
      for (value, end) in periods(of: rdate, in: item, uid: uid) {
        let local: LocalDateTime
        if case .date(let date) = value, placed.isDate {
          local = LocalDateTime(date, .midnight)
        } else if let instant = times.instant(value) {
          local = placed.zone.local(at: instant)
        } else {
          continue
        }
        rdates.append(RDateInstance(local: local, length: periodLength(end, rdate, local, placed)))
      }
    }
    rdates.sort { $0.local < $1.local }
    let template = self.template(item, uid: uid, placed: placed)
    var overrideTable: [RecurrenceID: (start: CalendarTimes.Placed, template: InstanceTemplate)] =
      [:]
    var futureOverrides: [FutureOverride] = []
    let origin = FiringOrigin(file: file, fileIndex: fileIndex, uid: uid, identity: identity)
    var fixedRecurrenceID: RecurrenceID?
    if isOverride,
      let idValue = item.property(uppercased: "RECURRENCE-ID").flatMap(
        DateTimeValue.init(property:))
    {
      fixedRecurrenceID = recurrenceID(of: idValue, seriesIsDate: placed.isDate)
    }
    let isCompletedTask =
      isTask
      && (item.propertyValue(uppercased: "STATUS")?.asciiUppercased == "COMPLETED"
        || item.hasProperty(uppercased: "COMPLETED"))
    // A cancelled event and a completed task do not ring; their overrides ring for their own.
    var singles =
      isCompletedTask || template.cancelled
      ? []
      : singleFirings(
        item, origin: origin, template: template, placed: placed,
        recurrenceID: fixedRecurrenceID)
    for override in overrides {
      guard let idProperty = override.property(uppercased: "RECURRENCE-ID"),
        let idValue = DateTimeValue(property: idProperty),
        let recurrenceID = recurrenceID(of: idValue, seriesIsDate: placed.isDate)
      else {
        warn(override, uid, "RECURRENCE-ID cannot be read; the override is ignored")
        continue
      }
      let startValue =
        override.property(uppercased: "DTSTART").flatMap(DateTimeValue.init(property:)) ?? idValue
      guard let overrideStart = times.place(startValue) else {
        warn(override, uid, "the override's time zone is unknown; the override is ignored")
        continue
      }
      let overrideTemplate = self.template(override, uid: uid, placed: overrideStart)
      overrideTable[recurrenceID] = (overrideStart, overrideTemplate)
      if !overrideTemplate.cancelled {
        // An override's absolute triggers and snoozes ring once, for its instance.
        singles += singleFirings(
          override, origin: origin, template: overrideTemplate, placed: overrideStart,
          recurrenceID: recurrenceID)
      }
      if idProperty.parameter(uppercased: "RANGE")?.asciiUppercased == "THISANDFUTURE" {
        // Later instances move by the same wall-clock amount and take the override's properties.
        let original: LocalDateTime
        switch recurrenceID {
        case .instant(let instant): original = placed.zone.local(at: instant)
        case .date(let date): original = LocalDateTime(date, .midnight)
        }
        let moved = placed.zone.local(at: overrideStart.instant)
        futureOverrides.append(
          FutureOverride(
            from: placed.zone.instant(for: original),
            shift: moved.secondsSince1970 - original.secondsSince1970, template: overrideTemplate))
      }
    }
    let masterTemplate =
      isCompletedTask
      ? InstanceTemplate(
        summary: template.summary, alarms: [], cancelled: true, length: template.length)
      : template
    // A series none of whose alarms can ring (ACTION:NONE, a completed task) is not scheduled.
    let canRing =
      masterTemplate.canRingPerInstance || !singles.isEmpty
      || overrideTable.values.contains { $0.template.canRingPerInstance }
    guard canRing else { return nil }
    return AlarmSeries(
      origin: origin, line: item.line, componentName: item.name, zone: placed.zone,
      start: placed.local, isDate: placed.isDate, rule: rule,
      fixedRecurrenceID: fixedRecurrenceID, master: masterTemplate,
      excludedInstants: excludedInstants, excludedDates: excludedDates, overrides: overrideTable,
      singles: singles, rdates: rdates,
      futureOverrides: futureOverrides.sorted { $0.from < $1.from })
  }

  /// The place in `compiledRules` of the rule `text` reads as, reading it the first time.
  private mutating func parsedRule(_ text: String) -> Result<Int, RecurrenceRuleError> {
    if let known = rules[text] { return known }
    let parsed = Result { () throws(RecurrenceRuleError) in
      let rule = try RecurrenceRule(parsing: text)
      compiledRules.append(RecurrencePlans(rule: rule))
      ruleTraits.append(RuleTraits(rule))
      return compiledRules.count - 1
    }
    rules[text] = parsed
    return parsed
  }

  /// UNTIL on the series' wall clock: a UTC UNTIL is compared as an instant (RFC 5545 §3.3.10).
  private func untilReading(_ until: DateTimeValue, placed: CalendarTimes.Placed) -> LocalDateTime?
  {
    switch until {
    case .utc(let utc): placed.zone.local(at: Instant(utc: utc))
    case .date(let date):
      // A DATE UNTIL includes its whole day.
      LocalDateTime(date, LocalTime(secondsSinceMidnight: 86_399))
    case .floating(let local), .zoned(let local, _): local
    }
  }

  /// A warning when the rule can never produce an instance after DTSTART.
  private func probe(
    _ text: String, _ rule: RuleTraits, _ iterator: RecurrenceIterator?, start: LocalDateTime
  ) -> String? {
    // A weekly rule without an end whose only part is plain weekdays has an instance in every
    // week (within a few candidates), so the copy need not be run: most calendars' rules.
    if rule.everyWeek, start.date.year < 9999, workLimit >= 1_000 { return nil }
    guard var copy = iterator else { return nil }
    _ = copy.next()  // DTSTART
    if copy.next() != nil { return nil }
    if copy.stoppedByWorkLimit {
      return "RRULE \(text) found no instance within \(workLimit) candidates; only DTSTART rings"
    }
    if rule.endless {
      return "RRULE \(text) can never produce an instance; only DTSTART rings"
    }
    return nil
  }

  /// The values of a multi-valued DATE / DATE-TIME / PERIOD property (PERIOD: its start).
  private mutating func values(of property: ICalProperty, in item: ICalComponent, uid: String)
    -> [DateTimeValue]
  {
    periods(of: property, in: item, uid: uid).map(\.start)
  }

  /// Each value's start, and for a PERIOD the text after its `/` (an end or a duration); a
  /// value that cannot be read is reported and skipped.
  private mutating func periods(of property: ICalProperty, in item: ICalComponent, uid: String)
    -> [(start: DateTimeValue, end: String?)]
  {
    let tzid = property.parameter(uppercased: "TZID")
    let isDate = property.parameter(uppercased: "VALUE")?.asciiUppercased == "DATE"
    var result: [(start: DateTimeValue, end: String?)] = []
    for value in property.value.split(separator: ",", omittingEmptySubsequences: false) {
      let parts = value.split(separator: "/", maxSplits: 1).map(String.init)
      guard let first = parts.first,
        let start = DateTimeValue(text: first, tzid: tzid, isDate: isDate)
      else {
        if !property.value.isEmpty {
          warn(
            item, uid,
            "\(property.name) value \(quoted(String(value))) cannot be read; it is ignored")
        }
        continue
      }
      result.append((start, parts.count == 2 ? parts[1] : nil))
    }
    return result
  }

  /// A PERIOD's own length (RFC 5545 §3.3.9: an explicit end or a duration), else nil.
  private func periodLength(
    _ end: String?, _ property: ICalProperty, _ start: LocalDateTime, _ placed: CalendarTimes.Placed
  ) -> InstanceLength? {
    guard let end else { return nil }
    if let duration = ICalDuration(end) { return .duration(duration) }
    guard let value = DateTimeValue(text: end, tzid: property.parameter(uppercased: "TZID")),
      let endInstant = times.instant(value)
    else { return nil }
    let startInstant = placed.zone.instant(for: start)
    return .exact(seconds: endInstant.secondsSince1970 - startInstant.secondsSince1970)
  }

  private func recurrenceID(of value: DateTimeValue, seriesIsDate: Bool) -> RecurrenceID? {
    if case .date(let date) = value { return .date(date) }
    return times.instant(value).map(RecurrenceID.instant)
  }

  private mutating func template(_ item: ICalComponent, uid: String, placed: CalendarTimes.Placed)
    -> InstanceTemplate
  {
    let cancelled = item.propertyValue(uppercased: "STATUS")?.asciiUppercased == "CANCELLED"
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
    let lastAck = item.property(uppercased: "X-MOZ-LASTACK").flatMap { DateTimeValue(property: $0) }
      .flatMap { times.instant($0) }
    var alarms: [AlarmDefinition] = []
    var index = 0
    for valarm in item.components where valarm.name == "VALARM" {
      if let alarm = alarmDefinition(valarm, index: index, item: item, uid: uid, lastAck: lastAck) {
        alarms.append(alarm)
      }
      index += 1
    }
    return InstanceTemplate(
      summary: item.property(uppercased: "SUMMARY")?.text, alarms: alarms, cancelled: cancelled,
      length: length)
  }

  private mutating func alarmDefinition(
    _ valarm: ICalComponent, index: Int, item: ICalComponent, uid: String, lastAck: Instant?
  ) -> AlarmDefinition? {
    let action = valarm.propertyValue(uppercased: "ACTION")?.asciiUppercased ?? ""
    // ACTION:NONE never rings: alarmcal's disabled alarms and Apple's "no alert" placeholders.
    if action == "NONE" { return nil }
    if action.isEmpty {
      warn(item, uid, "a VALARM without ACTION is ignored")
      return nil
    }
    guard let triggerProperty = valarm.property(uppercased: "TRIGGER") else {
      warn(item, uid, "a VALARM without TRIGGER is ignored")
      return nil
    }
    let trigger: AlarmDefinition.Trigger
    if triggerProperty.parameter(uppercased: "VALUE")?.asciiUppercased == "DATE-TIME" {
      guard let value = DateTimeValue(text: triggerProperty.value),
        let instant = times.instant(value)
      else {
        warn(
          item, uid,
          "TRIGGER \(quoted(triggerProperty.value)) is not a date-time; the alarm is ignored")
        return nil
      }
      trigger = .absolute(instant)
    } else {
      guard let duration = ICalDuration(triggerProperty.value) else {
        warn(
          item, uid,
          "TRIGGER \(quoted(triggerProperty.value)) is not a duration; the alarm is ignored")
        return nil
      }
      let fromEnd = triggerProperty.parameter(uppercased: "RELATED")?.asciiUppercased == "END"
      let hasStart = item.hasProperty(uppercased: "DTSTART")
      if !fromEnd, item.name == "VTODO", !hasStart {
        warn(
          item, uid, "TRIGGER relative to the start of a task without DTSTART; the alarm is ignored"
        )
        return nil
      }
      // RFC 5545 §3.8.6.3: a task's end is its DUE, or DTSTART plus DURATION.
      if fromEnd, item.name == "VTODO", !item.hasProperty(uppercased: "DUE"),
        !(hasStart && item.hasProperty(uppercased: "DURATION"))
      {
        warn(
          item, uid,
          "TRIGGER relative to the end of a task without DUE (or DTSTART and DURATION); the alarm is ignored"
        )
        return nil
      }
      trigger = .relative(duration, fromEnd: fromEnd)
    }
    var repeatCount = 0
    var interval = ICalDuration.zero
    let repeatText = valarm.propertyValue(uppercased: "REPEAT")
    if let repeatText, Int(repeatText) == nil {
      warn(item, uid, "REPEAT \(quoted(repeatText)) is not an integer; the alarm rings once")
    }
    if let text = repeatText, let count = Int(text), count > 0 {
      if let durationText = valarm.propertyValue(uppercased: "DURATION"),
        let duration = ICalDuration(durationText),
        !duration.isNegative, duration.days > 0 || duration.seconds > 0
      {
        repeatCount = min(count, 1000)
        interval = duration
      } else {
        warn(item, uid, "REPEAT without a positive DURATION; the alarm rings once")
      }
    }
    let acknowledged = valarm.property(uppercased: "ACKNOWLEDGED").flatMap {
      DateTimeValue(property: $0)
    }
    .flatMap { times.instant($0) }
    let ack = [acknowledged, lastAck].compactMap { $0 }.max()
    let key = valarm.property(uppercased: "UID")?.text ?? "#\(index)"
    return AlarmDefinition(
      action: action, trigger: trigger, repeatCount: repeatCount, repeatInterval: interval,
      acknowledged: ack, key: key)
  }

  /// Absolute triggers (once per component) and Thunderbird's X-MOZ-SNOOZE-TIME snoozes.
  private func singleFirings(
    _ item: ICalComponent, origin: FiringOrigin, template: InstanceTemplate,
    placed: CalendarTimes.Placed, recurrenceID: RecurrenceID?
  ) -> [Firing] {
    var result: [Firing] = []
    let lastAck = item.property(uppercased: "X-MOZ-LASTACK").flatMap { DateTimeValue(property: $0) }
      .flatMap { times.instant($0) }
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
    for property in item.properties
    where property.name.utf8.first == UInt8(ascii: "X")
      && property.name.hasPrefix("X-MOZ-SNOOZE-TIME")
    {
      guard let value = DateTimeValue(property: property), let instant = times.instant(value) else {
        continue
      }
      // X-MOZ-SNOOZE-TIME-<microseconds> names the instance of a recurring event it snoozes.
      var snoozed = recurrenceID
      let suffix = property.name.dropFirst("X-MOZ-SNOOZE-TIME".count)
      if suffix.hasPrefix("-"), let micros = Int64(suffix.dropFirst()) {
        snoozed = .instant(Instant(secondsSince1970: micros / 1_000_000))
      }
      let snooze = AlarmDefinition(
        action: "DISPLAY", trigger: .absolute(instant), repeatCount: 0, repeatInterval: .zero,
        acknowledged: lastAck.flatMap { $0 >= instant ? $0 : nil }, key: property.name)
      result.append(
        FiringMath.firing(
          origin: origin, trigger: instant, recurrenceID: snoozed,
          eventStart: placed.instant, summary: template.summary, alarm: snooze, repeatIndex: 0))
    }
    return result
  }
}
