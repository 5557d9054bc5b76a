import Foundation
import ICalendar

/// Reading an option's value by its kind, with one message per kind of mistake.
extension ParsedArguments {
  /// The `--tz` zone, or the system zone.
  func zone() throws(UsageError) -> TimeZoneRules {
    guard let text = values["tz"] else { return SystemZone.rules }
    guard let iana = TimeZoneNames.ianaIdentifier(forTZID: text),
      let rules = TimeZoneRules(identifier: iana)
    else {
      let hint = ZoneSuggestion.nearest(to: text).map { "; did you mean \($0)?" } ?? ""
      throw UsageError("--tz '\(text)' is not a known IANA time zone\(hint)")
    }
    return rules
  }

  /// The instant an option such as `--from` gives, read in `zone`; nil when it is absent.
  func instant(_ name: String, in zone: TimeZoneRules) throws(UsageError) -> Instant? {
    guard let text = values[name] else { return nil }
    guard let instant = TimestampArgument.parse(text, in: zone) else {
      throw UsageError(
        "--\(name) '\(text)' is not an ISO 8601 date-time (e.g. 2026-12-02T07:00:00Z)")
    }
    return instant
  }

  /// `--now`, else the context's clock (whole seconds).
  func now(in zone: TimeZoneRules, context: ToolContext) throws(UsageError) -> Instant {
    try instant("now", in: zone)
      ?? Instant(secondsSince1970: Int64(context.clock().timeIntervalSince1970.rounded(.down)))
  }

  /// A whole number option within `range`; nil when it is absent.
  func count(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
    guard let text = values[name] else { return nil }
    let bounds =
      range.upperBound == Int.max
      ? "a whole number of at least \(range.lowerBound)"
      : "a whole number from \(range.lowerBound) to \(range.upperBound)"
    let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw UsageError("--\(name) must be \(bounds), not '\(text)'")
    }
    // Digits too many for a whole number are too large, whatever the range.
    guard let number = Int(text), number <= range.upperBound else {
      throw UsageError("--\(name) '\(text)' is too large: it must be \(bounds)")
    }
    guard number >= range.lowerBound else {
      throw UsageError("--\(name) must be \(bounds), not '\(text)'")
    }
    return number
  }

  /// The `--max-file-size` option's value in bytes, or the default.
  func maximumBytes() throws(UsageError) -> Int {
    guard let text = values["max-file-size"] else { return InputFile.defaultMaximumBytes }
    guard let bytes = SizeText.parse(text), bytes >= 1 else {
      throw UsageError(
        "--max-file-size must be a size in bytes with an optional K, M or G (e.g. 512M), not '\(text)'"
      )
    }
    return bytes
  }

  /// The `--list` option's value (a list name in resources' `X-ALARMCAL-LIST`), if given.
  func listName() throws(UsageError) -> String? {
    guard let list = values["list"] else { return nil }
    guard !list.contains(where: { $0.isNewline }) else {
      throw UsageError("--list must be one line")
    }
    return list
  }

  /// The one FILE of a command that takes exactly one.
  func onlyPositional(_ name: String) throws(UsageError) -> String {
    guard let first = positionals.first else { throw UsageError("missing \(name)") }
    guard positionals.count == 1 else {
      throw UsageError("unexpected argument '\(positionals[1])'")
    }
    return first
  }
}

/// The zone of the system, the default of `--tz`.
enum SystemZone {
  /// Its rules (UTC when the system names none this build knows).
  static var rules: TimeZoneRules {
    TimeZoneRules(identifier: Foundation.TimeZone.current.identifier) ?? .utc
  }
}

/// The known zone a mistyped `--tz` most likely meant.
enum ZoneSuggestion {
  /// The zone spelled the same but for case, else the one at most two edits away, if one is.
  static func nearest(to text: String) -> String? {
    let known = Foundation.TimeZone.knownTimeZoneIdentifiers
    if let same = known.first(where: { $0.lowercased() == text.lowercased() }) { return same }
    var best: (name: String, distance: Int)?
    for name in known where abs(name.count - text.count) <= 2 {
      let distance = editDistance(Array(name.lowercased()), Array(text.lowercased()))
      if distance <= 2, distance < best?.distance ?? Int.max { best = (name, distance) }
    }
    return best?.name
  }

  /// Levenshtein distance.
  private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}
