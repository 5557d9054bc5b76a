import ICalendar

/// Which of several copies of one component is current: the same UID (and the same
/// RECURRENCE-ID, or none) saved more than once, as an edited event is exported by Thunderbird
/// and some servers. RFC 5546 §2.1.4–2.1.5: the highest SEQUENCE wins, then the latest DTSTAMP;
/// alarmcal then takes the later one in the file.
struct ComponentRevision: Comparable {
  /// SEQUENCE, 0 when absent or unreadable (RFC 5545 §3.8.7.4: the first revision is 0).
  let sequence: Int
  /// DTSTAMP, nil when absent or unreadable (older than any stamp).
  let stamp: Instant?
  /// The component's place in its file.
  let order: Int

  /// The revision of `component`, the `order`-th of its kind read from its file.
  init(of component: borrowing ICalComponent, order: Int) {
    sequence = component.propertyValue(uppercased: "SEQUENCE").flatMap { Int($0) } ?? 0
    stamp = component.property(uppercased: "DTSTAMP").flatMap(DateTimeValue.init(property:))
      .map { Instant(utc: $0.local) }
    self.order = order
  }

  private init(sequence: Int, stamp: Instant?, order: Int) {
    self.sequence = sequence
    self.stamp = stamp
    self.order = order
  }

  /// The same SEQUENCE and DTSTAMP at another place in the file.
  func placed(at order: Int) -> ComponentRevision {
    ComponentRevision(sequence: sequence, stamp: stamp, order: order)
  }

  /// Older first.
  static func < (a: ComponentRevision, b: ComponentRevision) -> Bool {
    if a.sequence != b.sequence { return a.sequence < b.sequence }
    if a.stamp != b.stamp {
      guard let first = a.stamp else { return true }
      guard let second = b.stamp else { return false }
      return first < second
    }
    return a.order < b.order
  }

  /// Why this revision gives way to `current`, the revision at line `line`.
  func supersededReason(by current: ComponentRevision, line: Int?) -> String {
    let place = line.map { "the one at line \($0)" } ?? "another"
    let why: String
    if sequence != current.sequence {
      why = "its SEQUENCE \(sequence) is lower than \(current.sequence)"
    } else if stamp != current.stamp {
      let mine = stamp.map { "DTSTAMP \($0)" } ?? "no DTSTAMP"
      let theirs = current.stamp.map { "\($0)" } ?? "none"
      why = "same SEQUENCE, and its \(mine) is earlier than \(theirs)"
    } else {
      why = "same SEQUENCE and DTSTAMP, and it comes earlier in the file"
    }
    return "an older revision than \(place) (\(why)); it is ignored"
  }
}

/// A stable identity for a component written without a UID (calcurse writes such files): its
/// content, DTSTAMP left out (it is the time of the export), and how many identical components
/// came before it in the file. Line numbers are not part of it, so ids survive edits elsewhere.
struct ContentIdentity {
  private var seen: [String: Int] = [:]

  /// The identity of the next component without a UID.
  mutating func identity(of component: ICalComponent) -> String {
    var text = ""
    Self.append(component, to: &text)
    let occurrence = seen[text, default: 0]
    seen[text] = occurrence + 1
    return AlarmIdentifier.derived(from: "\(text)\u{0}\(occurrence)")
  }

  private static func append(_ component: ICalComponent, to text: inout String) {
    text += "BEGIN:\(component.name)\n"
    for property in component.properties where property.name != "DTSTAMP" {
      text += property.name
      for parameter in property.parameters { text += ";\(parameter.name)=\(parameter.value)" }
      text += ":\(property.value)\n"
    }
    for child in component.components { append(child, to: &text) }
    text += "END:\(component.name)\n"
  }
}

/// The current master of each UID that more than one calendar of a file holds (iTIP messages
/// and some exports put each revision in a calendar of its own): a master elsewhere in the file
/// that is older is passed over with its calendar's overrides, as within one calendar. Used by
/// import (`AlarmImporter`), `upcoming` (`FiringSchedule`) and `plan` (`PlanSourceFacts`), so
/// all take the same one.
struct CurrentAcrossCalendars {
  private var found: [String: (revision: ComponentRevision, line: Int?, calendar: Int)] = [:]
  /// The calendars holding a master of each UID.
  private var holders: [String: Set<Int>] = [:]

  /// A VEVENT or VTODO of the file, as the current masters are found from it.
  struct Item {
    /// Its UID; empty for none.
    let uid: String
    /// Whether it has a RECURRENCE-ID.
    let isOverride: Bool
    /// The number of its calendar in the file.
    let calendar: Int
    /// Its SEQUENCE and DTSTAMP (its place is taken from its position among the items).
    let revision: ComponentRevision
    let line: Int?
  }

  /// No masters: each calendar's items stand on their own.
  init() {}

  /// The current masters among `items`, the VEVENTs and VTODOs of a file of `calendarCount`
  /// calendars in file order. With one calendar, every master is in the calendar its items
  /// are in, so none passes over another's and none is looked at.
  init(calendarCount: Int, items: some Sequence<Item>) {
    guard calendarCount > 1 else { return }
    for (order, item) in items.enumerated() where !item.isOverride && !item.uid.isEmpty {
      note(
        uid: item.uid, calendar: item.calendar, revision: item.revision.placed(at: order),
        line: item.line)
    }
  }

  /// Notes a master (no RECURRENCE-ID, a UID) of calendar number `calendar`, its revision
  /// placed at its order in the file.
  private mutating func note(uid: String, calendar: Int, revision: ComponentRevision, line: Int?) {
    holders[uid, default: []].insert(calendar)
    if let known = found[uid], revision < known.revision { return }
    found[uid] = (revision, line, calendar)
  }

  /// The current master that passes over the items of `uid` in calendar `calendar`: its
  /// masters, when the current one is in another calendar, and the overrides beside them.
  func newer(for uid: String, in calendar: Int) -> (revision: ComponentRevision, line: Int?)? {
    guard holders[uid]?.contains(calendar) == true, let current = found[uid],
      current.calendar != calendar
    else { return nil }
    return (current.revision, current.line)
  }
}
