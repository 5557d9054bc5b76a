/// One iCalendar component (VCALENDAR, VEVENT, VALARM, ...) as plain values.
public struct ICalComponent: Equatable, Sendable {
  /// The component name in upper case, such as `VEVENT`.
  public var name: String
  /// The properties in document order.
  public var properties: [ICalProperty]
  /// The child components in document order.
  public var components: [ICalComponent]
  /// The physical line (1-based) of the component's `BEGIN` line in the text read, if known.
  public var line: Int?
  /// The bytes it was read from: from its BEGIN line's first byte to its END line's last
  /// (line break excluded), if it was read from text.
  public var sourceRange: Range<Int>?
  /// Notes about lines inside it that were no content line and could not be read.
  public var unreadable: [String] = []

  /// Creates a component.
  public init(
    _ name: String, properties: [ICalProperty] = [], components: [ICalComponent] = [],
    line: Int? = nil
  ) {
    self.name = name.asciiUppercased
    self.properties = properties
    self.components = components
    self.line = line
  }

  /// Equal in name, properties, children, BEGIN line and unreadable lines, wherever in the
  /// text they were read from.
  public static func == (a: ICalComponent, b: ICalComponent) -> Bool {
    a.name == b.name && a.properties == b.properties && a.components == b.components
      && a.line == b.line && a.unreadable == b.unreadable
  }

  /// Moves the component out, leaving an empty one in its place: the caller then holds the only
  /// reference to its properties and children, which are freed when the caller is done.
  public mutating func taken() -> ICalComponent {
    var moved = ICalComponent("")
    swap(&self, &moved)
    return moved
  }

  /// The first property with this name (case-insensitive), if any.
  public func property(_ name: String) -> ICalProperty? {
    property(uppercased: name.asciiUppercased)
  }

  /// The first property with this name, which is already upper case (a literal such as
  /// `"DTSTART"`): ``property(_:)`` without its case folding, for lookups made per event.
  public func property(uppercased name: String) -> ICalProperty? {
    let count = name.utf8.count
    // Comparing lengths first skips String's slower comparison for most names.
    return properties.first { $0.name.utf8.count == count && $0.name == name }
  }

  /// Whether a property with this name, which is already upper case, is present: asked without
  /// copying the property out.
  public func hasProperty(uppercased name: String) -> Bool {
    propertyIndex(uppercased: name) != nil
  }

  /// The value of the first property with this name, which is already upper case: read in
  /// place, without copying the rest of the property out.
  public func propertyValue(uppercased name: String) -> String? {
    propertyIndex(uppercased: name).map { properties[$0].value }
  }

  private func propertyIndex(uppercased name: String) -> Int? {
    let count = name.utf8.count
    return properties.firstIndex { $0.name.utf8.count == count && $0.name == name }
  }

  /// Every property with this name (case-insensitive), in document order.
  public func properties(named name: String) -> [ICalProperty] {
    let wanted = name.asciiUppercased
    let count = wanted.utf8.count
    return properties.filter { $0.name.utf8.count == count && $0.name == wanted }
  }

  /// The child components with this name (case-insensitive), in document order.
  public func components(named name: String) -> [ICalComponent] {
    let wanted = name.asciiUppercased
    let count = wanted.utf8.count
    return components.filter { $0.name.utf8.count == count && $0.name == wanted }
  }

  /// Appends a property.
  public mutating func add(_ property: ICalProperty) {
    properties.append(property)
  }
}

extension ICalComponent {
  /// The IANA zone Google's X-WR-TIMEZONE names on a VCALENDAR, if it is one this system knows.
  public var calendarTimeZone: String? {
    property("X-WR-TIMEZONE").flatMap { TimeZoneNames.ianaIdentifier(forTZID: $0.text) }
  }
}

extension String {
  /// The text upper-cased, without copying when it has no lower-case ASCII letter (iCalendar
  /// names and enumerated values are ASCII; lookups by a literal upper-case name are the
  /// common case).
  public var asciiUppercased: String {
    let needsWork =
      utf8.withContiguousStorageIfAvailable { bytes in
        bytes.contains { $0 >= 0x61 && $0 <= 0x7A || $0 >= 0x80 }
      } ?? true
    return needsWork ? uppercased() : self
  }
}
