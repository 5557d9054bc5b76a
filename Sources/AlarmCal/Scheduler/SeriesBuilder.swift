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

  /// A read master on the heap.
  private final class MasterBox {
    let read: ReadMaster
    init(_ read: ReadMaster) { self.read = read }
  }

  /// A builder for one calendar of `file` holding about `components` VEVENTs and VTODOs.
  init(file: String, fileIndex: Int, times: CalendarTimes, workLimit: Int, components: Int = 0) {
    reader = SeriesReader(file: file, fileIndex: fileIndex, times: times, workLimit: workLimit)
    slots.reserveCapacity(components)
    slotOfIdentity.reserveCapacity(components)
  }

  /// Takes the next VEVENT or VTODO, in file order (other components are ignored).
  mutating func add(_ item: consuming ICalComponent) {
    guard item.name == "VEVENT" || item.name == "VTODO" else { return }
    let revision = ComponentRevision(of: item, order: added)
    added += 1
    let slot = slot(for: item)
    if item.hasProperty(uppercased: "RECURRENCE-ID") {
      slots[slot].overrides.append((item, revision))
      return
    }
    guard takeMaster(slot, revision: revision, line: item.line, component: item.name) else {
      return
    }
    slots[slot].master = MasterBox(
      reader.master(item, uid: slots[slot].uid, identity: slots[slot].identity))
  }

  /// The slot of a component's UID, made when the UID is new. A component without a UID is
  /// an item of its own, identified by its content, with a warning when it has alarms.
  private mutating func slot(for item: borrowing ICalComponent) -> Int {
    let uid = item.property(uppercased: "UID")?.text ?? ""
    guard uid.isEmpty else { return slot(uid: uid, identity: uid) }
    let identity = contentIdentity.identity(of: item)
    // Said of components that can ring: a calendar without UIDs and alarms is not at fault.
    if AlarmComponent.mayRing(item) {
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
    var found = groupingWarnings
    var result: [SeriesWalk] = []
    result.reserveCapacity(slots.count)
    slotOfIdentity = [:]
    var slots: [Slot] = []
    swap(&slots, &self.slots)
    for index in slots.indices {
      // Taken out as it is used: each master's parts go as its series comes.
      let (uid, identity) = (slots[index].uid, slots[index].identity)
      let taken = slots[index].master.take()?.read
      let overrides =
        slots[index].overrides.isEmpty
        ? [] : currentOverrides(slots[index].overrides, uid: uid, into: &found)
      slots[index].overrides = []
      guard let master = taken else {
        // Instances without their series (a CalDAV server's expanded answer): each is a
        // single instance of its own, keeping its RECURRENCE-ID.
        for item in overrides {
          let read = reader.master(item, uid: uid, identity: identity)
          guard read.hasAlarms else { continue }
          found += read.warnings
          if let parts = read.parts, let walk = walk(parts, SeriesReader.Overrides()) {
            result.append(walk)
          }
        }
        continue
      }
      let overridesHaveAlarms = overrides.contains {
        $0.components.contains { $0.name == "VALARM" }
      }
      guard master.hasAlarms || overridesHaveAlarms else { continue }
      found += master.warnings
      guard let parts = master.parts else { continue }
      let (read, warnings) =
        overrides.isEmpty
        ? (SeriesReader.Overrides(), []) : reader.overrides(overrides, of: parts, uid: uid)
      found += warnings
      if let walk = walk(parts, read) { result.append(walk) }
    }
    return (result, found)
  }

  /// A walk through a series, unless none of its alarms can ring (ACTION:NONE, a completed
  /// task).
  private func walk(_ parts: MasterParts, _ overrides: SeriesReader.Overrides) -> SeriesWalk? {
    let series = AlarmSeries(parts, overrides: overrides)
    return series.canRing ? SeriesWalk(series, rule: parts.rule) : nil
  }

  /// The current revision of each RECURRENCE-ID's override, in file order; the others are
  /// warned about (RFC 5546 §2.1.5).
  private func currentOverrides(
    _ overrides: [(component: ICalComponent, revision: ComponentRevision)], uid: String,
    into warnings: inout [SchedulerWarning]
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
  private func recurrenceKey(_ property: ICalProperty) -> String {
    guard let value = DateTimeValue(property: property) else { return property.value }
    if case .date(let date) = value { return date.description }
    return reader.times.instant(value).map(\.description) ?? property.value
  }
}
