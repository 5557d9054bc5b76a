/// A JSON value as written in a document (RFC 8259).
///
/// Numbers keep their literal text so that nothing is rounded on the way through, and objects keep
/// their members in document order, duplicates included, so that a value can be written back the
/// way it was read.
public enum JSONValue: Equatable, Sendable {
  /// The literal `null`.
  case null
  /// The literal `true` or `false`.
  case bool(Bool)
  /// A number as its literal text, for example `"-12.5e3"`.
  ///
  /// The parser only produces text that matches the RFC 8259 number grammar; when you build a
  /// value yourself, pass such text, since the writer copies it verbatim.
  case number(String)
  /// A string, with its escapes decoded.
  case string(String)
  /// An array of elements.
  case array([JSONValue])
  /// An object's members in document order; duplicate keys are kept as written.
  case object([JSONMember])
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Equatable, Sendable {
  /// The member's key, with its escapes decoded.
  public var key: String
  /// The member's value.
  public var value: JSONValue

  /// Creates a member with the given key and value.
  public init(_ key: String, _ value: JSONValue) {
    self.key = key
    self.value = value
  }
}

extension JSONValue {
  /// The value of the first member named `key`, or `nil` if there is none or this is not an object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    // Most keys differ in length, which is quicker to compare than their text.
    let count = key.utf8.count
    guard let index = members.firstIndex(where: { $0.key.utf8.count == count && $0.key == key })
    else { return nil }
    return members[index].value
  }

  /// The string, if this is a string.
  public var stringValue: String? {
    guard case .string(let string) = self else { return nil }
    return string
  }

  /// The Boolean, if this is `true` or `false`.
  public var boolValue: Bool? {
    guard case .bool(let bool) = self else { return nil }
    return bool
  }

  /// The integer, if this is a number written as an integer literal (no fraction or exponent) that
  /// fits in `Int`.
  public var intValue: Int? {
    guard case .number(let text) = self else { return nil }
    return Int(text)
  }

  /// The elements, if this is an array.
  public var arrayValue: [JSONValue]? {
    guard case .array(let elements) = self else { return nil }
    return elements
  }

  /// The members in document order, if this is an object.
  public var objectValue: [JSONMember]? {
    guard case .object(let members) = self else { return nil }
    return members
  }

  /// The kind of value with its article, for messages such as
  /// `"snooze" must be a boolean, not a string`: "null", "a boolean", "a number", "a string",
  /// "an array" or "an object".
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
