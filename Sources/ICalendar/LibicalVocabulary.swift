internal import CLibical

/// What libical 3 knows by name: readers built on it drop the properties it does not know.
public enum LibicalVocabulary {
  /// Whether libical parses a property of this name (X- names are always kept).
  public static func knowsProperty(_ name: String) -> Bool {
    let upper = name.uppercased()
    if upper.hasPrefix("X-") { return true }
    return icalproperty_string_to_kind(upper) != ICAL_NO_PROPERTY
  }
}
