/// One iCalendar component (VCALENDAR, VEVENT, VALARM, ...) copied out of libical into plain values.
public struct ICalComponent: Equatable, Sendable {
  /// The component name in upper case, such as `VEVENT`.
  public var name: String
  /// The properties in document order.
  public var properties: [ICalProperty]
  /// The child components in document order.
  public var components: [ICalComponent]
  /// The physical line (1-based) of the component's `BEGIN` line in the parsed text, if known.
  public var line: Int?

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
  /// What libical dropped from this component's own properties while parsing, as its
  /// X-LIC-ERROR notes say; a dropped empty value carried nothing and is left out.
  public var libicalLosses: [String] {
    // Asked of every component read: a plain loop builds nothing when there is no loss.
    var losses: [String] = []
    let name = "X-LIC-ERROR"
    for property in properties where property.name.utf8.count == name.utf8.count {
      guard property.name == name else { continue }
      let text = property.text
      if !text.hasPrefix("No value for ") { losses.append(text) }
    }
    return losses
  }

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
