import AlarmCal
import ICalendar

/// Reads `--now`/`--from`/`--to` values: ISO 8601 with `Z` or an offset, or a local reading in
/// the command's zone (`2026-12-02T07:00`, `2026-12-02`).
enum TimestampArgument {
  static func parse(_ text: String, in zone: TimeZoneRules) -> Instant? {
    // The iCalendar basic forms too: 20261202T090000Z, 20261202T090000, 20261202.
    if let value = DateTimeValue(text: text) {
      switch value {
      case .utc(let utc): return Instant(utc: utc)
      case .floating(let local), .zoned(let local, _): return zone.instant(for: local)
      case .date(let date): return zone.instant(for: LocalDateTime(date, .midnight))
      }
    }
    if let date = AlarmTextFormats.localDate(text) {
      return zone.instant(for: LocalDateTime(date, .midnight))
    }
    var body = Substring(text)
    var offset: Int?
    if body.hasSuffix("Z") || body.hasSuffix("z") {
      offset = 0
      body = body.dropLast()
    } else if let signIndex = body.lastIndex(where: { $0 == "+" || $0 == "-" }),
      let tIndex = body.firstIndex(of: "T"), signIndex > tIndex
    {
      let digits = body[body.index(after: signIndex)...].filter { $0 != ":" }
      guard digits.count == 4, digits.allSatisfy(\.isNumber), let hours = Int(digits.prefix(2)),
        let minutes = Int(digits.suffix(2)), hours < 24, minutes < 60
      else { return nil }
      offset = (body[signIndex] == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
      body = body[..<signIndex]
    }
    if let dot = body.firstIndex(of: ".") {
      guard body[body.index(after: dot)...].allSatisfy(\.isNumber) else { return nil }
      body = body[..<dot]
    }
    guard let local = AlarmTextFormats.localDateTime(String(body)) else { return nil }
    guard let offset else { return zone.instant(for: local) }
    return Instant(utc: local).adding(seconds: Int64(-offset))
  }
}

/// The `SOURCE_DATE_EPOCH` environment variable: the DTSTAMP of a reproducible export.
enum SourceDateEpoch {
  /// Its moment, nil when unset or empty; a value that is not whole seconds is refused.
  static func timestamp(_ context: ToolContext) throws(UsageError) -> Instant? {
    guard let epoch = context.environment["SOURCE_DATE_EPOCH"], !epoch.isEmpty else {
      return nil
    }
    guard let seconds = Int64(epoch) else {
      throw UsageError("SOURCE_DATE_EPOCH '\(epoch)' is not a whole number of seconds")
    }
    return Instant(secondsSince1970: seconds)
  }
}
