import ICalendar

/// Groups one calendar's VEVENTs and VTODOs into series: by UID (a component without one is an
/// item of its own, identified by its content), keeping the latest revision of each master and
/// of each override (RFC 5546 §2.1.5). A master is read into its parts as it comes and its
/// component let go; overrides are kept until the calendar has been read, then joined to their
/// master, or made series of their own when it has none.
struct SeriesBuilder {
  private var reader: SeriesReader
  /// One slot per UID, in the order UIDs first appear.
  private var slots: [Slot] = []
  private var slotOfIdentity: [String: Int] = [:]
  /// Warnings about the grouping itself (older revisions, missing UIDs), reported first.
  private var groupingWarnings: [SchedulerWarning] = []
  /// How many VEVENTs and VTODOs were added, for the order of revisions.
  private var added = 0
  private var contentIdentity = ContentIdentity()

  /// What one UID has so far.
  private struct Slot {
    let uid: String
    /// The text firing ids hash: the UID, or for a component without one, its content.
    let identity: String
    /// The current master read (boxed: the slots stay small, and each master's memory goes as
    /// soon as its series is made), its revision and line.
    var master: MasterBox?
    var revision: ComponentRevision?
    var masterLine: Int?
    /// Overrides in file order, each with its revision.
    var overrides: [(component: ICalComponent, revision: ComponentRevision)] = []
  }

  /// A read master on the heap. Its parts are moved in and out, never copied: a copy would
  /// retain each of them, in memory another thread wrote.
  private final class MasterBox {
    /// Whether the master holds anything that may ring (``SeriesReader/mayRing(_:)``).
    let mayRing: Bool
    /// The warnings reading it gave.
    let warnings: [SchedulerWarning]
    private var parts: MasterParts?

    init(_ read: consuming ReadMaster) {
      mayRing = read.mayRing
      warnings = read.warnings
      parts = read.parts.take()
    }

    /// The master's parts (nil when it has no start or zone to ring at), moved out: once.
    func takeParts() -> MasterParts? { parts.take() }
  }

  /// A builder for one calendar of `file` holding about `components` VEVENTs and VTODOs.
  init(
    file: String, fileIndex: Int, times: CalendarTimes, workLimit: Int, components: Int = 0,
    includeDue: Bool = false
  ) {
    reader = SeriesReader(
      file: file, fileIndex: fileIndex, times: times, workLimit: workLimit, includeDue: includeDue)
    slots.reserveCapacity(components)
    slotOfIdentity.reserveCapacity(components)
  }

  /// A VEVENT or VTODO read as far as it can be without the rest of its calendar, so that a
  /// calendar's components can be read at once and then added in file order.
  struct ReadItem {
    let name: String
    let uid: String
    let line: Int?
    /// Its SEQUENCE and DTSTAMP; its place in the file is given when it is added.
    let revision: ComponentRevision
    let isOverride: Bool
    /// The component, for an override and for a component without a UID (whose identity
    /// depends on the ones before it).
    let component: ICalComponent?
    /// The master read, for a master with a UID; moved out when the item is added.
    fileprivate(set) var master: ReadMaster?
  }

  /// Makes room for `components` more VEVENTs and VTODOs.
  mutating func reserve(_ components: Int) {
    slots.reserveCapacity(slots.count + components)
    slotOfIdentity.reserveCapacity(slotOfIdentity.count + components)
  }

  /// A copy of the builder's reader, for ``read(_:with:)`` elsewhere.
  var itemReader: SeriesReader { reader }

  /// Reads a VEVENT or VTODO as far as it can be read alone; nil for other components.
  static func read(_ item: consuming ICalComponent, with reader: inout SeriesReader) -> ReadItem? {
    guard item.name == "VEVENT" || item.name == "VTODO" else { return nil }
    let uid = item.property(uppercased: "UID")?.text ?? ""
    let isOverride = item.hasProperty(uppercased: "RECURRENCE-ID")
    let keeps = isOverride || uid.isEmpty
    return ReadItem(
      name: item.name, uid: uid, line: item.line,
      revision: ComponentRevision(of: item, order: 0), isOverride: isOverride,
      component: keeps ? item : nil,
      master: keeps ? nil : reader.master(item, uid: uid, identity: uid))
  }

  /// Takes the next VEVENT or VTODO, in file order; its master read is moved out of it.
  mutating func add(_ item: inout ReadItem) {
    let revision = item.revision.placed(at: added)
    added += 1
    let slot = slot(for: item)
    if item.isOverride, let component = item.component {
      slots[slot].overrides.append((component, revision))
      return
    }
    guard takeMaster(slot, revision: revision, line: item.line, component: item.name) else {
      return
    }
    if let read = item.master.take() {
      slots[slot].master = MasterBox(consume read)
    } else if let component = item.component {
      slots[slot].master = MasterBox(
        reader.master(component, uid: slots[slot].uid, identity: slots[slot].identity))
    } else {
      slots[slot].master = nil
    }
  }

  /// Passes over an item whose UID has a newer master in another calendar of the file
  /// (``CurrentAcrossCalendars``): a master with the warning that says so, an override beside
  /// it without a word.
  mutating func passOver(_ item: ReadItem, newer: ComponentRevision, line: Int?) {
    added += 1
    guard !item.isOverride else { return }
    groupingWarnings.append(
      SchedulerWarning(
        file: reader.file, line: item.line, component: item.name, uid: item.uid,
        message: item.revision.supersededReason(by: newer, line: line)))
  }

  /// The slot of a component's UID, made when the UID is new. A component without a UID is
  /// an item of its own, identified by its content, with a warning when it has alarms.
  private mutating func slot(for read: ReadItem) -> Int {
    guard read.uid.isEmpty, let item = read.component else {
      return slot(uid: read.uid, identity: read.uid)
    }
    let identity = contentIdentity.identity(of: item)
    // Said of components that can ring: a calendar without UIDs and alarms is not at fault.
    if reader.mayRing(item) {
      groupingWarnings.append(
        SchedulerWarning(
          file: reader.file, line: item.line, component: item.name, uid: "",
          message: "has no UID; its firings' ids are derived from its content"))
    }
    return slot(uid: "", identity: "\u{0}" + identity)
  }

  private mutating func slot(uid: String, identity: String) -> Int {
    if let known = slotOfIdentity[identity] { return known }
    slots.append(Slot(uid: uid, identity: identity))
    slotOfIdentity[identity] = slots.count - 1
    return slots.count - 1
  }

  /// Makes this master the slot's current one unless the slot has a newer revision; whichever
  /// gives way is warned about. True when the caller's master is current.
  private mutating func takeMaster(
    _ slot: Int, revision: ComponentRevision, line: Int?, component: String
  ) -> Bool {
    let uid = slots[slot].uid
    if let current = slots[slot].revision {
      if revision < current {
        groupingWarnings.append(
          SchedulerWarning(
            file: reader.file, line: line, component: component, uid: uid,
            message: revision.supersededReason(by: current, line: slots[slot].masterLine)))
        return false
      }
      groupingWarnings.append(
        SchedulerWarning(
          file: reader.file, line: slots[slot].masterLine, component: component, uid: uid,
          message: current.supersededReason(by: revision, line: line)))
    }
    slots[slot].revision = revision
    slots[slot].masterLine = line
    return true
  }

  /// The walks through the series, in the order their UIDs first appeared, and every warning:
  /// the grouping's first, then each UID's in that order. The builder is spent.
  mutating func finish() -> (walks: [SeriesWalk], warnings: [SchedulerWarning]) {
    slotOfIdentity = [:]
    var slots: [Slot] = []
    swap(&slots, &self.slots)
    var found = groupingWarnings
    var result: [SeriesWalk] = []
    result.reserveCapacity(slots.count)
    for index in slots.indices {
      Self.series(of: slots[index], reader: &reader, into: &result, warnings: &found)
      // Each master's parts go as its series comes.
      slots[index].master = nil
      slots[index].overrides = []
    }
    return (result, found)
  }

  /// The walks through one UID's series, and the warnings of reading them.
  private static func series(
    of slot: Slot, reader: inout SeriesReader, into result: inout [SeriesWalk],
    warnings found: inout [SchedulerWarning]
  ) {
    let (uid, identity) = (slot.uid, slot.identity)
    let overrides =
      slot.overrides.isEmpty
      ? [] : currentOverrides(slot.overrides, uid: uid, reader: reader, into: &found)
    guard let master = slot.master else {
      // Instances without their series (a CalDAV server's expanded answer): each is a
      // single instance of its own, keeping its RECURRENCE-ID.
      for item in overrides {
        let read = reader.master(item, uid: uid, identity: identity)
        guard read.mayRing else { continue }
        found += read.warnings
        if let parts = read.parts, let walk = walk(parts, SeriesReader.Overrides()) {
          result.append(walk)
        }
      }
      return
    }
    let overridesMayRing = overrides.contains(where: reader.mayRing)
    guard master.mayRing || overridesMayRing else { return }
    found += master.warnings
    guard let parts = master.takeParts() else { return }
    let (read, warnings) =
      overrides.isEmpty
      ? (SeriesReader.Overrides(), []) : reader.overrides(overrides, of: parts, uid: uid)
    found += warnings
    if let walk = walk(consume parts, read) { result.append(walk) }
  }

  /// A walk through a series, unless none of its alarms can ring (ACTION:NONE, a completed
  /// task).
  private static func walk(_ parts: consuming MasterParts, _ overrides: SeriesReader.Overrides)
    -> SeriesWalk?
  {
    let rule = parts.rule.take()
    let series = AlarmSeries(parts, subDailyRule: rule?.isSubDaily, overrides: overrides)
    return series.canRing ? SeriesWalk(series, rule: consume rule) : nil
  }

  /// The current revision of each RECURRENCE-ID's override, in file order; the others are
  /// warned about (RFC 5546 §2.1.5).
  private static func currentOverrides(
    _ overrides: [(component: ICalComponent, revision: ComponentRevision)], uid: String,
    reader: SeriesReader, into warnings: inout [SchedulerWarning]
  ) -> [ICalComponent] {
    var current: [String: Int] = [:]
    var keptOnes: [Int] = []
    for (index, override) in overrides.enumerated() {
      let key =
        override.component.property(uppercased: "RECURRENCE-ID").map {
          recurrenceKey($0, times: reader.times)
        } ?? ""
      guard let other = current[key] else {
        current[key] = index
        keptOnes.append(index)
        continue
      }
      let (older, newer) =
        override.revision < overrides[other].revision ? (index, other) : (other, index)
      let item = overrides[older].component
      warnings.append(
        SchedulerWarning(
          file: reader.file, line: item.line, component: item.name, uid: uid,
          message: overrides[older].revision.supersededReason(
            by: overrides[newer].revision, line: overrides[newer].component.line)))
      current[key] = newer
      if newer == index, let place = keptOnes.firstIndex(of: other) { keptOnes[place] = index }
    }
    return keptOnes.sorted().map { overrides[$0].component }
  }

  /// A RECURRENCE-ID as a key: its instant (or date), whatever its zone or form.
  private static func recurrenceKey(_ property: ICalProperty, times: CalendarTimes) -> String {
    guard let value = DateTimeValue(property: property) else { return property.value }
    if case .date(let date) = value { return date.description }
    return times.instant(value).map(\.description) ?? property.value
  }
}
