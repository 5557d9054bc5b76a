import ICalendar

/// Builds one calendar's series for the scheduler: its VEVENTs and VTODOs grouped as
/// ``CalendarItems`` says. A master is read into its parts as it comes and its component let go;
/// overrides are kept until the calendar has been read, then joined to their master, or made
/// series of their own when it has none.
struct SeriesBuilder {
  private var reader: SeriesReader
  private var items: CalendarItems<Piece>
  /// Warnings about the grouping itself (older revisions, missing UIDs), reported first.
  private var groupingWarnings: [SchedulerWarning] = []
  /// How many VEVENTs and VTODOs were added, for the order of revisions.
  private var added = 0

  /// What the builder keeps of an item: a master read (boxed: the series stay small, and each
  /// master's memory goes as soon as its series is made), or an override's component (boxed
  /// too, by `indirect`).
  private enum Piece {
    case master(MasterBox?, isTask: Bool)
    indirect case override(ICalComponent)

    /// The component's name, for warnings.
    var name: String {
      switch self {
      case .master(_, let isTask): isTask ? "VTODO" : "VEVENT"
      case .override(let component): component.name
      }
    }

    var master: MasterBox? {
      if case .master(let box, _) = self { box } else { nil }
    }

    var override: ICalComponent? {
      if case .override(let component) = self { component } else { nil }
    }
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
    items = CalendarItems(capacity: components)
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
    items.reserve(components)
  }

  /// Sets the current master of each UID that several calendars of the file hold, and this
  /// calendar's number, before any item is added: an item whose UID has a newer master in
  /// another calendar is passed over (``CalendarItems``).
  mutating func passOver(by across: CurrentAcrossCalendars, calendar: Int) {
    items.passOver(by: across, calendar: calendar)
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
    let key = key(for: item)
    let passed: CalendarItems<Piece>.PassedOver?
    if item.isOverride, let component = item.component {
      let recurrence =
        component.property(uppercased: "RECURRENCE-ID").map {
          CalendarItems<Piece>.recurrenceKey($0, times: reader.times)
        } ?? ""
      passed = items.addOverride(
        .override(component), key: key, uid: item.uid,
        recurrence: recurrence, revision: revision, line: item.line)
    } else {
      var box: MasterBox?
      if let read = item.master.take() {
        box = MasterBox(consume read)
      } else if let component = item.component {
        box = MasterBox(reader.master(component, uid: item.uid, identity: key))
      }
      passed = items.addMaster(
        .master(box, isTask: item.name == "VTODO"), key: key, uid: item.uid,
        revision: revision, line: item.line)
    }
    guard let passed, let message = passed.message else { return }
    groupingWarnings.append(
      SchedulerWarning(
        file: reader.file, line: passed.line, component: passed.item.name, uid: item.uid,
        message: message))
  }

  /// The grouping key of an item (``CalendarItems/key(uid:of:)``). A component without a UID
  /// is an item of its own, identified by its content, with a warning when it has alarms.
  private mutating func key(for read: ReadItem) -> String {
    guard read.uid.isEmpty, let item = read.component else { return read.uid }
    // Said of components that can ring: a calendar without UIDs and alarms is not at fault.
    if reader.mayRing(item) {
      groupingWarnings.append(
        SchedulerWarning(
          file: reader.file, line: item.line, component: item.name, uid: "",
          message: "has no UID; its firings' ids are derived from its content"))
    }
    return items.key(uid: "", of: item)
  }

  /// The walks through the series, in the order their UIDs first appeared, and every warning:
  /// the grouping's first, then each UID's in that order. The builder is spent.
  mutating func finish() -> (walks: [SeriesWalk], warnings: [SchedulerWarning]) {
    var series = items.takeSeries()
    var found = groupingWarnings
    var result: [SeriesWalk] = []
    result.reserveCapacity(series.count)
    for index in series.indices {
      Self.walks(of: series[index], reader: &reader, into: &result, warnings: &found)
      // Each master's parts go as its series comes.
      series[index].master = nil
      series[index].overrides = [:]
    }
    return (result, found)
  }

  /// The walks through one UID's series, and the warnings of reading them.
  private static func walks(
    of series: CalendarItems<Piece>.Series, reader: inout SeriesReader,
    into result: inout [SeriesWalk], warnings found: inout [SchedulerWarning]
  ) {
    let (uid, identity) = (series.uid, series.key)
    let overrides = series.overridesInFileOrder.compactMap(\.override)
    guard let master = series.master?.item.master else {
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
}
