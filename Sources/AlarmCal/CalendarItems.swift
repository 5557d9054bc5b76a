import ICalendar

/// One calendar's VEVENTs and VTODOs grouped into series: the one home of that rule, for
/// import (`CalendarMapper`) and for `upcoming`, `snooze`, `dismiss` and `plan`
/// (`SeriesBuilder`).
///
/// Items are grouped by UID; one without a UID is a series of its own, identified by its
/// content (``ContentIdentity``). Of several copies of one master, or of one override (the same
/// RECURRENCE-ID instant, ``recurrenceKey(_:times:)``), the current revision is kept (RFC 5546
/// §2.1.5, ``ComponentRevision``) and the others are passed over with a reason. A master whose
/// UID has a newer one in another calendar of the file (``CurrentAcrossCalendars``) is passed
/// over with the reason, and the overrides beside it without a word. `Item` is what the caller
/// keeps of each item: an index, or a master read into its parts.
struct CalendarItems<Item> {
  /// An item kept, with its revision and line.
  struct Kept {
    var item: Item
    let revision: ComponentRevision
    let line: Int?
  }

  /// One UID's current master and overrides.
  struct Series {
    /// The UID; empty for an item without one.
    let uid: String
    /// What groups the series: the UID, or for an item without one, NUL and its content's id.
    let key: String
    /// The current master, if the calendar has one.
    var master: Kept?
    /// The current override of each RECURRENCE-ID.
    var overrides: [String: Kept] = [:]

    /// The current overrides, in the file order of the revisions kept.
    var overridesInFileOrder: [Item] {
      overrides.values.sorted { $0.revision.order < $1.revision.order }.map(\.item)
    }
  }

  /// An item passed over, and what to say of it (nil: nothing, as for an override whose
  /// series' current master is in another calendar).
  struct PassedOver {
    let item: Item
    /// Its line.
    let line: Int?
    let message: String?
  }

  /// The series, in the order their UIDs first appeared.
  private(set) var series: [Series] = []
  private var seriesOfKey: [String: Int] = [:]
  private var contentIdentity = ContentIdentity()
  /// The current master of each UID that several calendars of the file hold.
  private var across: CurrentAcrossCalendars
  /// This calendar's number among the file's.
  private var calendar: Int

  /// An empty grouping for calendar number `calendar` of a file whose masters across its
  /// calendars are `across`, with room for `capacity` series.
  init(
    across: CurrentAcrossCalendars = CurrentAcrossCalendars(), calendar: Int = 0, capacity: Int = 0
  ) {
    self.across = across
    self.calendar = calendar
    series.reserveCapacity(capacity)
    seriesOfKey.reserveCapacity(capacity)
  }

  /// Sets the masters across the file's calendars, and this calendar's number, once they are
  /// known and before any item is added.
  mutating func passOver(by across: CurrentAcrossCalendars, calendar: Int) {
    self.across = across
    self.calendar = calendar
  }

  /// Makes room for `count` more series.
  mutating func reserve(_ count: Int) {
    series.reserveCapacity(series.count + count)
    seriesOfKey.reserveCapacity(seriesOfKey.count + count)
  }

  /// The grouping key of an item with `uid` (empty for none): the UID, or NUL and the id
  /// derived from `component`'s content and the identical ones before it. Asked once per
  /// item, in file order.
  mutating func key(uid: String, of component: ICalComponent) -> String {
    uid.isEmpty ? "\u{0}" + contentIdentity.identity(of: component) : uid
  }

  /// Adds a master, in file order; what gives way (it, or the master it replaces) is returned.
  mutating func addMaster(
    _ item: Item, key: String, uid: String, revision: ComponentRevision, line: Int?
  ) -> PassedOver? {
    if let newer = newerElsewhere(uid) {
      return PassedOver(
        item: item, line: line,
        message: revision.supersededReason(by: newer.revision, line: newer.line))
    }
    let index = seriesIndex(key: key, uid: uid)
    let kept = Kept(item: item, revision: revision, line: line)
    guard let current = series[index].master else {
      series[index].master = kept
      return nil
    }
    let (older, newer) = revision < current.revision ? (kept, current) : (current, kept)
    series[index].master = newer
    return PassedOver(
      item: older.item, line: older.line,
      message: older.revision.supersededReason(by: newer.revision, line: newer.line))
  }

  /// Adds an override of the instance `recurrence` (``recurrenceKey(_:times:)``), in file
  /// order; what gives way is returned.
  mutating func addOverride(
    _ item: Item, key: String, uid: String, recurrence: String, revision: ComponentRevision,
    line: Int?
  ) -> PassedOver? {
    if newerElsewhere(uid) != nil { return PassedOver(item: item, line: line, message: nil) }
    let index = seriesIndex(key: key, uid: uid)
    let kept = Kept(item: item, revision: revision, line: line)
    guard let current = series[index].overrides[recurrence] else {
      series[index].overrides[recurrence] = kept
      return nil
    }
    let (older, newer) = revision < current.revision ? (kept, current) : (current, kept)
    series[index].overrides[recurrence] = newer
    return PassedOver(
      item: older.item, line: older.line,
      message: older.revision.supersededReason(by: newer.revision, line: newer.line))
  }

  /// The series, taken out: the grouping is left empty.
  mutating func takeSeries() -> [Series] {
    seriesOfKey = [:]
    var taken: [Series] = []
    swap(&taken, &series)
    return taken
  }

  /// A RECURRENCE-ID as a key: the instance's instant (or date), whatever its zone or form,
  /// as `upcoming` writes a recurrence id (`2026-12-07T20:00:00Z`, `2026-12-07`).
  static func recurrenceKey(_ property: ICalProperty, times: CalendarTimes) -> String {
    guard let value = DateTimeValue(property: property) else { return property.value }
    if case .date(let date) = value { return date.description }
    return times.instant(value).map(\.description) ?? property.value
  }

  private func newerElsewhere(_ uid: String) -> (revision: ComponentRevision, line: Int?)? {
    uid.isEmpty ? nil : across.newer(for: uid, in: calendar)
  }

  private mutating func seriesIndex(key: String, uid: String) -> Int {
    if let known = seriesOfKey[key] { return known }
    series.append(Series(uid: uid, key: key))
    seriesOfKey[key] = series.count - 1
    return series.count - 1
  }
}

extension CalendarItems where Item == Int {
  /// Adds `component`, number `index` of its calendar's items: a master, or an override when it
  /// has a RECURRENCE-ID (placed by `times`), its revision at `order` in the file. Gives its
  /// key and what it passes over.
  mutating func add(
    _ component: ICalComponent, at index: Int, uid: String, order: Int, times: CalendarTimes
  ) -> (key: String, passed: PassedOver?) {
    let key = key(uid: uid, of: component)
    let revision = ComponentRevision(of: component, order: order)
    guard let recurrenceID = component.property(uppercased: "RECURRENCE-ID") else {
      return (key, addMaster(index, key: key, uid: uid, revision: revision, line: component.line))
    }
    let passed = addOverride(
      index, key: key, uid: uid, recurrence: Self.recurrenceKey(recurrenceID, times: times),
      revision: revision, line: component.line)
    return (key, passed)
  }

  /// The current master of each UID among one calendar's VEVENTs and VTODOs (`items`) that
  /// also has an override, as an index into them: the series that `validate` checks an override
  /// against. UIDs without an override are not grouped, so a calendar without overrides costs
  /// one pass.
  static func currentMasters(of items: [ICalComponent]) -> [String: Int] {
    var overridden = Set<String>()
    for item in items where item.hasProperty(uppercased: "RECURRENCE-ID") {
      if let uid = item.propertyValue(uppercased: "UID").map(TextEscaping.unescape) {
        overridden.insert(uid)
      }
    }
    guard !overridden.isEmpty else { return [:] }
    var grouping = CalendarItems<Int>(capacity: overridden.count)
    for (index, item) in items.enumerated() where !item.hasProperty(uppercased: "RECURRENCE-ID") {
      guard let uid = item.propertyValue(uppercased: "UID").map(TextEscaping.unescape),
        !uid.isEmpty, overridden.contains(uid)
      else { continue }
      _ = grouping.addMaster(
        index, key: uid, uid: uid, revision: ComponentRevision(of: item, order: index),
        line: item.line)
    }
    var masters: [String: Int] = [:]
    for series in grouping.takeSeries() { masters[series.uid] = series.master?.item }
    return masters
  }
}
