/// One property parameter, such as `TZID=Europe/Berlin`.
public struct ICalParameter: Equatable, Sendable {
  /// The parameter name in upper case.
  public var name: String
  /// The parameter value without surrounding quotes.
  public var value: String

  /// Creates a parameter.
  public init(_ name: String, _ value: String) {
    self.name = name.asciiUppercased
    self.value = value
  }

  /// Creates a parameter whose name is already upper case (the readers' fast path).
  init(uppercasedName name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}

/// One iCalendar property: name, parameters and the value exactly as written (still escaped).
public struct ICalProperty: Equatable, Sendable {
  /// The property name in upper case.
  public var name: String
  /// The parameters in document order.
  public var parameters: [ICalParameter]
  /// The value text as it appears in iCalendar (TEXT values keep their backslash escapes).
  public var value: String
  /// Where its content line starts in the text it was read from; -1 when it was not read.
  private var storedOffset = -1

  /// Creates a property from its raw (already escaped) value text.
  public init(_ name: String, _ value: String, parameters: [ICalParameter] = []) {
    self.name = name.asciiUppercased
    self.value = value
    self.parameters = parameters
  }

  /// Creates a property read from text, whose name is already upper case.
  init(uppercasedName name: String, _ value: String, parameters: [ICalParameter], sourceOffset: Int)
  {
    self.name = name
    self.value = value
    self.parameters = parameters
    storedOffset = sourceOffset
  }

  /// The byte offset where its content line starts in the text it was read from (see
  /// ``SourceMap``), or nil when it was made in memory.
  public var sourceOffset: Int? { storedOffset < 0 ? nil : storedOffset }

  /// Equal in name, parameters and value, wherever they were read from.
  public static func == (a: ICalProperty, b: ICalProperty) -> Bool {
    a.name == b.name && a.parameters == b.parameters && a.value == b.value
  }

  /// Creates a TEXT property, escaping the text per RFC 5545 §3.3.11.
  public static func text(_ name: String, _ text: String, parameters: [ICalParameter] = [])
    -> ICalProperty
  {
    ICalProperty(name, TextEscaping.escape(text), parameters: parameters)
  }

  /// The value read as TEXT, with RFC 5545 §3.3.11 escapes undone.
  public var text: String { TextEscaping.unescape(value) }

  /// The value of the first parameter with this name (case-insensitive), if any.
  public func parameter(_ name: String) -> String? {
    parameter(uppercased: name.asciiUppercased)
  }

  /// The value of the first parameter with this name, which is already upper case (a literal
  /// such as `"TZID"`): ``parameter(_:)`` without its case folding, for lookups made per event.
  public func parameter(uppercased name: String) -> String? {
    let count = name.utf8.count
    return parameters.first { $0.name.utf8.count == count && $0.name == name }?.value
  }
}
