import ICalendar

/// The text forms used in alarm files: `HH:mm` times, local date-times and weekday names.
public enum AlarmTextFormats {
  /// The weekday names of the alarm file, Monday first.
  public static let weekdayNames = [Weekday: String](
    uniqueKeysWithValues: weekdaysInOrder.map { ($0.day, $0.name) })

  /// The weekday names, Monday first.
  private static let weekdaysInOrder: [(day: Weekday, name: String)] = [
    (.monday, "mon"), (.tuesday, "tue"), (.wednesday, "wed"), (.thursday, "thu"), (.friday, "fri"),
    (.saturday, "sat"), (.sunday, "sun"),
  ]

  /// The name alarm files give a weekday (`mon`).
  static func name(of day: Weekday) -> String {
    weekdaysInOrder[day.rawValue - 1].name
  }

  /// The weekday for a name such as `mon` (case-insensitive; full names accepted too).
  public static func weekday(named name: String) -> Weekday? {
    // The names as alarmcal writes them are found without folding case.
    if let written = writtenWeekday(name) { return written }
    let lower = name.lowercased()
    return Weekday.allCases.first { day in
      guard let short = weekdayNames[day] else { return false }
      return lower == short
        || (lower.count > 3 && "\(day)".hasPrefix(lower) && lower.hasPrefix(short))
    }
  }

  /// The weekday for a name exactly as alarmcal writes it (`mon`), read byte by byte.
  private static func writtenWeekday(_ name: String) -> Weekday? {
    var bytes = name.utf8.makeIterator()
    guard let first = bytes.next(), let second = bytes.next(), let third = bytes.next(),
      bytes.next() == nil
    else { return nil }
    switch (first, second, third) {
    case (UInt8(ascii: "m"), UInt8(ascii: "o"), UInt8(ascii: "n")): return .monday
    case (UInt8(ascii: "t"), UInt8(ascii: "u"), UInt8(ascii: "e")): return .tuesday
    case (UInt8(ascii: "w"), UInt8(ascii: "e"), UInt8(ascii: "d")): return .wednesday
    case (UInt8(ascii: "t"), UInt8(ascii: "h"), UInt8(ascii: "u")): return .thursday
    case (UInt8(ascii: "f"), UInt8(ascii: "r"), UInt8(ascii: "i")): return .friday
    case (UInt8(ascii: "s"), UInt8(ascii: "a"), UInt8(ascii: "t")): return .saturday
    case (UInt8(ascii: "s"), UInt8(ascii: "u"), UInt8(ascii: "n")): return .sunday
    default: return nil
    }
  }

  /// Reads `HH:mm` (24-hour) or `HH:mm:ss`.
  public static func clockTime(_ text: String) -> LocalTime? {
    clockTime(Substring(text).utf8)
  }

  private static func clockTime(_ utf8: Substring.UTF8View) -> LocalTime? {
    // Two digits, a colon, two digits, and optionally a colon and two digits more.
    guard utf8.count == 5 || utf8.count == 8 else { return nil }
    var fields = (0, 0, 0)
    for (offset, byte) in utf8.enumerated() {
      if offset % 3 == 2 {
        guard byte == UInt8(ascii: ":") else { return nil }
        continue
      }
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      let digit = Int(byte - UInt8(ascii: "0"))
      switch offset / 3 {
      case 0: fields.0 = fields.0 * 10 + digit
      case 1: fields.1 = fields.1 * 10 + digit
      default: fields.2 = fields.2 * 10 + digit
      }
    }
    guard fields.2 < 60 else { return nil }
    return LocalTime(hour: fields.0, minute: fields.1, second: fields.2)
  }

  /// Writes `HH:mm`, or `HH:mm:ss` when the seconds are not zero.
  public static func clockString(_ time: LocalTime) -> String {
    let base = "\(twoDigits(time.hour)):\(twoDigits(time.minute))"
    return time.second == 0 ? base : base + ":\(twoDigits(time.second))"
  }

  /// Reads `YYYY-MM-DDTHH:mm` or `YYYY-MM-DDTHH:mm:ss`.
  public static func localDateTime(_ text: String) -> LocalDateTime? {
    let utf8 = Substring(text).utf8
    guard let separator = utf8.firstIndex(of: UInt8(ascii: "T")),
      let date = localDate(utf8[..<separator]),
      let time = clockTime(utf8[utf8.index(after: separator)...])
    else { return nil }
    return LocalDateTime(date, time)
  }

  /// Seconds from 1970-01-01 to Foundation's reference date, 2001-01-01T00:00:00Z.
  static let foundationReferenceDate: Int64 = 978_307_200

  /// Reads Foundation's default `Date` encoding, a JSON number of seconds since
  /// 2001-01-01T00:00:00Z (fractions dropped); nil for what is no such number.
  public static func foundationDate(_ literal: String) -> Instant? {
    guard let seconds = Double(literal), seconds.isFinite, abs(seconds) < 1e11 else { return nil }
    return Instant(secondsSince1970: foundationReferenceDate + Int64(seconds.rounded(.down)))
  }

  /// Reads an instant: `YYYY-MM-DDTHH:mm[:ss]` with `Z` or an offset `±HH:MM`.
  public static func instant(_ text: String) -> Instant? {
    var body = Substring(text)
    var offset = 0
    if body.hasSuffix("Z") {
      body = body.dropLast()
    } else {
      let sign = body.utf8.dropLast(5).last
      guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
        let zone = clockTime(body.suffix(5).utf8), zone.second == 0
      else { return nil }
      offset = (zone.hour * 3600 + zone.minute * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
      body = body.dropLast(6)
    }
    guard let local = localDateTime(String(body)) else { return nil }
    return Instant(utc: local).adding(seconds: Int64(-offset))
  }

  /// Writes `YYYY-MM-DDTHH:mm`, with `:ss` when the seconds are not zero.
  public static func localDateTimeString(_ local: LocalDateTime) -> String {
    "\(local.date)T\(clockString(local.time))"
  }

  /// Reads `YYYY-MM-DD`.
  public static func localDate(_ text: String) -> LocalDate? {
    localDate(Substring(text).utf8)
  }

  private static func localDate(_ utf8: Substring.UTF8View) -> LocalDate? {
    guard let fields = digitFields(utf8, widths: [4, 2, 2], separator: UInt8(ascii: "-")) else {
      return nil
    }
    return LocalDate(year: fields[0], month: fields[1], day: fields[2])
  }

  /// The numbers in `utf8` when it is runs of ASCII digits exactly `widths` long joined by
  /// `separator` (`07:30` with widths `[2, 2]` is `[7, 30]`), else nil.
  private static func digitFields(
    _ utf8: Substring.UTF8View, widths: [Int], separator: UInt8
  ) -> [Int]? {
    var fields: [Int] = []
    fields.reserveCapacity(widths.count)
    var value = 0
    var width = 0
    for byte in utf8 {
      if byte == separator {
        guard fields.count + 1 < widths.count, width == widths[fields.count] else { return nil }
        fields.append(value)
        value = 0
        width = 0
      } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte),
        width < widths[fields.count]
      {
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
        width += 1
      } else {
        return nil
      }
    }
    guard fields.count + 1 == widths.count, width == widths[fields.count] else { return nil }
    fields.append(value)
    return fields
  }

  /// `value` (0–99) in two digits.
  static func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }
}

extension AlarmTextFormats {
  /// Labels lose surrounding white space (iCalendar readers such as libical drop it) and CR or
  /// CRLF becomes LF (TEXT has one line-break escape), so labels survive a round trip; other
  /// control characters are refused, as RFC 5545 §3.3.11 does not allow them in TEXT.
  static func normalizedLabel(_ text: String) -> String {
    // Most labels start and end with a visible ASCII character and hold no CR: nothing to do.
    if hasVisibleASCIIEnds(text), !text.utf8.contains(0x0D) {
      return text
    }
    let lines = text.replacingOccurrences(of: "\r\n", with: "\n")
    return lines.replacingOccurrences(of: "\r", with: "\n")
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Whether `text` starts and ends with visible ASCII, so trimming white space of any kind
  /// would leave it as it is (Foundation's trimming is slow enough to matter per record).
  static func hasVisibleASCIIEnds(_ text: String) -> Bool {
    guard let first = text.utf8.first, let last = text.utf8.last else { return false }
    return (0x21...0x7E).contains(first) && (0x21...0x7E).contains(last)
  }

  /// Whether `text` holds a C0 control character or DEL (each one UTF-8 byte, which no other
  /// character's encoding uses).
  static func hasControlCharacters(_ text: String) -> Bool {
    text.utf8.contains { $0 < 0x20 || $0 == 0x7F }
  }

}
