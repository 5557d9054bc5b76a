/// A DATE or DATE-TIME value in the form it was written, RFC 5545 §3.3.4 and §3.3.5.
public enum DateTimeValue: Hashable, Sendable {
  /// `VALUE=DATE`: a whole day, floating.
  case date(LocalDate)
  /// A local time with no zone (form #1): the same wall clock wherever the reader is.
  case floating(LocalDateTime)
  /// A UTC time (form #2, trailing `Z`).
  case utc(LocalDateTime)
  /// A local time in a named zone (form #3, `TZID=`).
  case zoned(LocalDateTime, tzid: String)

  /// Reads the value of a DTSTART-like property: `VALUE=DATE`, a `Z` suffix or a `TZID`.
  public init?(property: ICalProperty) {
    let isDate = property.parameter(uppercased: "VALUE")?.asciiUppercased == "DATE"
    self.init(text: property.value, tzid: property.parameter(uppercased: "TZID"), isDate: isDate)
  }

  /// Reads `YYYYMMDD` (when `isDate` or when the text has no time) or `YYYYMMDDTHHMMSS[Z]`.
  public init?(text: String, tzid: String? = nil, isDate: Bool = false) {
    let utf8 = text.utf8
    let count = utf8.count
    var bytes = utf8.makeIterator()
    guard count == 8 || (!isDate && (count == 15 || count == 16)),
      let date = Self.date(&bytes)
    else { return nil }
    guard count > 8 else {
      self = .date(date)
      return
    }
    guard bytes.next() == UInt8(ascii: "T"), let hour = Self.number(&bytes, digits: 2),
      let minute = Self.number(&bytes, digits: 2), let second = Self.number(&bytes, digits: 2),
      let time = LocalTime(hour: hour, minute: minute, second: second)
    else { return nil }
    let local = LocalDateTime(date, time)
    if count == 16 {
      guard let last = bytes.next(), last == UInt8(ascii: "Z") || last == UInt8(ascii: "z") else {
        return nil
      }
      self = .utc(local)
    } else if let tzid, !tzid.isEmpty {
      self = .zoned(local, tzid: tzid)
    } else {
      self = .floating(local)
    }
  }

  /// The wall-clock reading as written (midnight for a DATE).
  public var local: LocalDateTime {
    switch self {
    case .date(let date): LocalDateTime(date, .midnight)
    case .floating(let local), .utc(let local), .zoned(let local, _): local
    }
  }

  /// Whether this is a DATE (all-day) value.
  public var isDate: Bool {
    if case .date = self { return true }
    return false
  }

  /// The value text as RFC 5545 writes it (`YYYYMMDD`, `YYYYMMDDTHHMMSS`, or with `Z`).
  public var icalString: String {
    switch self {
    case .date(let date): date.icalString
    case .floating(let local), .zoned(let local, _): local.icalString
    case .utc(let local): local.icalString + "Z"
    }
  }

  /// The property that carries this value, with `TZID` or `VALUE=DATE` as needed.
  public func property(_ name: String) -> ICalProperty {
    switch self {
    case .date: ICalProperty(name, icalString, parameters: [ICalParameter("VALUE", "DATE")])
    case .zoned(_, let tzid):
      ICalProperty(name, icalString, parameters: [ICalParameter("TZID", tzid)])
    case .floating, .utc: ICalProperty(name, icalString)
    }
  }

  private static func date(_ bytes: inout String.UTF8View.Iterator) -> LocalDate? {
    guard let year = number(&bytes, digits: 4), let month = number(&bytes, digits: 2),
      let day = number(&bytes, digits: 2)
    else { return nil }
    return LocalDate(year: year, month: month, day: day)
  }

  private static func number(_ bytes: inout String.UTF8View.Iterator, digits: Int) -> Int? {
    var value = 0
    for _ in 0..<digits {
      guard let byte = bytes.next(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
        return nil
      }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }
}
