import ICalendar

/// The text forms used in alarm files: `HH:mm` times, local date-times and weekday names.
public enum AlarmTextFormats {
  /// The weekday names of the alarm file, Monday first.
  public static let weekdayNames: [Weekday: String] = [
    .monday: "mon", .tuesday: "tue", .wednesday: "wed", .thursday: "thu", .friday: "fri",
    .saturday: "sat", .sunday: "sun",
  ]

  /// The weekday for a name such as `mon` (case-insensitive; full names accepted too).
  public static func weekday(named name: String) -> Weekday? {
    let lower = name.lowercased()
    return Weekday.allCases.first { day in
      guard let short = weekdayNames[day] else { return false }
      return lower == short
        || (lower.count > 3 && "\(day)".hasPrefix(lower) && lower.hasPrefix(short))
    }
  }

  /// Reads `HH:mm` (24-hour) or `HH:mm:ss`.
  public static func clockTime(_ text: String) -> LocalTime? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3,
      parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let hour = Int(parts[0]), let minute = Int(parts[1])
    else { return nil }
    let second = parts.count == 3 ? Int(parts[2]) ?? 99 : 0
    guard second < 60 else { return nil }
    return LocalTime(hour: hour, minute: minute, second: second)
  }

  /// Writes `HH:mm`, or `HH:mm:ss` when the seconds are not zero.
  public static func clockString(_ time: LocalTime) -> String {
    let base = "\(twoDigits(time.hour)):\(twoDigits(time.minute))"
    return time.second == 0 ? base : base + ":\(twoDigits(time.second))"
  }

  /// Reads `YYYY-MM-DDTHH:mm` or `YYYY-MM-DDTHH:mm:ss`.
  public static func localDateTime(_ text: String) -> LocalDateTime? {
    let halves = text.split(separator: "T", omittingEmptySubsequences: false)
    guard halves.count == 2, let date = localDate(String(halves[0])),
      let time = clockTime(String(halves[1]))
    else { return nil }
    return LocalDateTime(date, time)
  }

  /// Writes `YYYY-MM-DDTHH:mm`, with `:ss` when the seconds are not zero.
  public static func localDateTimeString(_ local: LocalDateTime) -> String {
    "\(local.date)T\(clockString(local.time))"
  }

  /// Reads `YYYY-MM-DD`.
  public static func localDate(_ text: String) -> LocalDate? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    return LocalDate(year: year, month: month, day: day)
  }

  private static func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }
}
