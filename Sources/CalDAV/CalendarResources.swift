import ICalendar

/// One calendar object resource to be (RFC 4791 §4.1): every component with one UID (a series
/// and its overrides) and the VTIMEZONEs they name, in one VCALENDAR.
public struct CalendarResource: Equatable, Sendable {
  /// The UID all its components share.
  public var uid: String
  /// The VCALENDAR holding them.
  public var calendar: ICalComponent

  /// Creates a resource.
  public init(uid: String, calendar: ICalComponent) {
    self.uid = uid
    self.calendar = calendar
  }

  /// Its iCalendar text.
  public var bytes: [UInt8] {
    var printer = ICalendarPrinter()
    printer.write(calendar)
    return printer.takeBytes()
  }

  /// The resource name, derived from the UID alone (the UID itself is never changed): the UID
  /// and `.ics` when the UID is a name every server takes as it is (1 to 100 of `A-Z a-z 0-9
  /// - _ .`, not starting with `.`); otherwise the UID's letters and digits with each other run
  /// as one `-` (at most 40 of them), `-`, and the UID's 128-bit FNV-1a digest in hex. Radicale
  /// refuses a colon in a name, encoded or not, and every server a `/`, so no name needs encoding.
  public var fileName: String { Self.fileName(forUID: uid) }

  /// The resource name for `uid` (see ``fileName``).
  public static func fileName(forUID uid: String) -> String {
    let bytes = Array(uid.utf8)
    let isSafe = { (byte: UInt8) -> Bool in
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        return true
      default: return false
      }
    }
    if (1...100).contains(bytes.count), bytes[0] != UInt8(ascii: "."),
      bytes.allSatisfy({
        isSafe($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
      })
    {
      return uid + ".ics"
    }
    var readable = ""
    for byte in bytes where readable.utf8.count < 40 {
      if isSafe(byte) {
        readable.append(Character(Unicode.Scalar(byte)))
      } else if !readable.isEmpty, !readable.hasSuffix("-") {
        readable.append("-")
      }
    }
    if !readable.isEmpty, !readable.hasSuffix("-") { readable.append("-") }
    return readable + digest(bytes) + ".ics"
  }

  /// FNV-1a 128 of `bytes` as 32 hex digits.
  static func digest(_ bytes: [UInt8]) -> String {
    var hash: UInt128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d
    let prime: UInt128 = 0x0000_0000_0100_0000_0000_0000_0000_013B
    for byte in bytes {
      hash ^= UInt128(byte)
      hash = hash &* prime
    }
    let text = String(hash, radix: 16)
    return String(repeating: "0", count: 32 - text.count) + text
  }
}

/// Why a calendar cannot be split into resources.
public struct ResourceSplitError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong, naming the component's line.
  public let description: String
}

/// Splits calendars into ``CalendarResource``s and joins resources back into one calendar.
public enum CalendarResources {
  /// The components a calendar collection holds as resources.
  public static let objectKinds: Set<String> = ["VEVENT", "VTODO", "VJOURNAL"]

  /// The calendar-level properties a resource keeps from the calendar its components came
  /// from (`X-WR-TIMEZONE` places floating and all-day times).
  public static let headerProperties: Set<String> = [
    "VERSION", "PRODID", "CALSCALE", "X-WR-TIMEZONE",
  ]

  /// One resource per UID of the VEVENTs, VTODOs and VJOURNALs in `calendars`, in order of
  /// first appearance, each with copies of the VTIMEZONEs its components' TZIDs name (from its
  /// own calendar) and that calendar's ``headerProperties``. Throws for a component without a
  /// UID, or two components of different kinds with one UID.
  public static func split(_ calendars: [ICalComponent]) throws(ResourceSplitError)
    -> [CalendarResource]
  {
    var order: [String] = []
    var groups: [String: [ICalComponent]] = [:]
    var origin: [String: Int] = [:]
    var zones: [[String: ICalComponent]] = []
    var headers: [[ICalProperty]] = []
    for calendar in calendars where calendar.name == "VCALENDAR" {
      let index = zones.count
      var own: [String: ICalComponent] = [:]
      var header = calendar.properties.filter { headerProperties.contains($0.name) }
      if !header.contains(where: { $0.name == "VERSION" }) {
        header.insert(ICalProperty("VERSION", "2.0"), at: 0)
      }
      if !header.contains(where: { $0.name == "PRODID" }) {
        header.append(ICalProperty("PRODID", ProductIdentifier.alarmcal))
      }
      headers.append(header)
      for child in calendar.components {
        if child.name == "VTIMEZONE", let id = child.propertyValue(uppercased: "TZID") {
          if own[id] == nil { own[id] = child }
          continue
        }
        guard objectKinds.contains(child.name) else { continue }
        guard let uid = child.propertyValue(uppercased: "UID"), !uid.isEmpty else {
          let line = child.line.map { " on line \($0)" } ?? ""
          throw ResourceSplitError(description: "a \(child.name)\(line) has no UID")
        }
        if let first = groups[uid]?.first, first.name != child.name {
          throw ResourceSplitError(
            description: "UID \(uid) names both a \(first.name) and a \(child.name)")
        }
        if groups[uid] == nil {
          order.append(uid)
          origin[uid] = index
        }
        groups[uid, default: []].append(child)
      }
      zones.append(own)
    }
    return order.map { uid in
      let members = groups[uid] ?? []
      let from = origin[uid] ?? 0
      var used: [String] = []
      for member in members { collectZones(of: member, into: &used) }
      let needed = used.compactMap { id in
        zones[from][id] ?? zones.lazy.compactMap { $0[id] }.first
      }
      return CalendarResource(
        uid: uid,
        calendar: ICalComponent(
          "VCALENDAR", properties: headers[from], components: needed + members))
    }
  }

  /// The VCALENDARs holding every component of `resources`' calendars, in order of first
  /// appearance: one, unless their `X-WR-TIMEZONE`s differ (so floating times keep their
  /// zone) or two of them define one TZID differently (RFC 5545 §3.6.5 ties a TZID to the
  /// VTIMEZONE of its own calendar object, RFC 4791 §4.1: a resource's times never take another
  /// resource's definition); each with every VTIMEZONE its members need once, zones first. No
  /// resources join into one empty VCALENDAR: an empty collection is an empty calendar, not no
  /// calendar at all.
  public static func join(_ resources: [ICalComponent]) -> [ICalComponent] {
    var groups: [JoinedCalendar] = []
    for calendar in resources {
      let zone = calendar.propertyValue(uppercased: "X-WR-TIMEZONE") ?? ""
      let definitions = CalendarsApart.definitions(in: calendar)
      if let index = groups.firstIndex(where: { $0.takes(zone, definitions) }) {
        groups[index].add(calendar, definitions)
      } else {
        var group = JoinedCalendar(zone: zone)
        group.add(calendar, definitions)
        groups.append(group)
      }
    }
    return (groups.isEmpty ? [JoinedCalendar(zone: "")] : groups).map(\.calendar)
  }

  /// One VCALENDAR of a join: its `X-WR-TIMEZONE`, the VTIMEZONEs it holds by TZID (with
  /// their text, to tell a differing definition) and its other members.
  private struct JoinedCalendar {
    let zone: String
    var zones: [ICalComponent] = []
    var definitions: [String: [UInt8]] = [:]
    var members: [ICalComponent] = []

    init(zone: String) { self.zone = zone }

    /// Whether a calendar with `zone` and these VTIMEZONE texts can join this one.
    func takes(_ zone: String, _ theirs: [String: [UInt8]]) -> Bool {
      CalendarsApart.canJoin(zone, theirs, with: self.zone, definitions)
    }

    mutating func add(_ calendar: ICalComponent, _ theirs: [String: [UInt8]]) {
      for child in calendar.components {
        if child.name == "VTIMEZONE" {
          let id = child.propertyValue(uppercased: "TZID") ?? ""
          if definitions[id] == nil {
            definitions[id] = theirs[id]
            zones.append(child)
          }
        } else {
          members.append(child)
        }
      }
    }

    var calendar: ICalComponent {
      var properties = [
        ICalProperty("VERSION", "2.0"), ICalProperty("PRODID", ProductIdentifier.alarmcal),
      ]
      if !zone.isEmpty { properties.append(ICalProperty("X-WR-TIMEZONE", zone)) }
      return ICalComponent("VCALENDAR", properties: properties, components: zones + members)
    }
  }

  /// The TZID parameters in `component` and its children, each once, in order.
  private static func collectZones(of component: ICalComponent, into zones: inout [String]) {
    for property in component.properties {
      for parameter in property.parameters where parameter.name == "TZID" {
        if !zones.contains(parameter.value) { zones.append(parameter.value) }
      }
    }
    for child in component.components { collectZones(of: child, into: &zones) }
  }
}
