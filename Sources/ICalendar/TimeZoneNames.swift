import Foundation

/// Turns the TZID spellings found in real calendar files into IANA identifiers.
public enum TimeZoneNames {
  /// Prefixes that some producers put before an IANA id (libical, old Mozilla exports).
  private static let prefixes = [
    "/freeassociation.sourceforge.net/", "/mozilla.org/", "/softwarestudio.org/",
  ]

  /// The IANA id a TZID names: the id itself, the id behind a known prefix, or the IANA zone
  /// of a Windows name (`W. Europe Standard Time`); nil when none is known to this system.
  public static func ianaIdentifier(forTZID tzid: String) -> String? {
    let trimmed = tzid.trimmingCharacters(in: .whitespaces)
    if TimeZoneRules(identifier: trimmed) != nil, trimmed.contains("/") || trimmed == "UTC" {
      return trimmed
    }
    for prefix in prefixes where trimmed.hasPrefix(prefix) {
      // `/mozilla.org/20050126_1/Europe/Berlin` carries a version folder before the id.
      var parts = trimmed.dropFirst(prefix.count).split(separator: "/").map(String.init)
      while !parts.isEmpty {
        let candidate = parts.joined(separator: "/")
        if TimeZoneRules(identifier: candidate) != nil { return candidate }
        parts.removeFirst()
      }
    }
    if let windows = WindowsZoneNames.ianaIdentifier(forWindowsName: trimmed) {
      return windows
    }
    return TimeZoneRules(identifier: trimmed) != nil ? trimmed : nil
  }
}
