import FuzzSupport
import ICalendar

/// Both readers (libical's parser and the Swift ICalendarReader that upcoming and convert use)
/// and the model read from their components: DATE/DATE-TIME values, durations, UTC offsets, TEXT
/// unescaping, RRULEs (and the first instances of each from its DTSTART), VTIMEZONE offsets, and
/// a print → parse round trip of each top-level component. Bytes that are not UTF-8 are decoded
/// with replacement characters for libical's parser (it takes a String); the reader takes them
/// as they are.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParse(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  _ = FuzzHarness.configured
  let bytes = FuzzHarness.bytes(data, size)
  let read = (try? ICalendarReader.read(bytes)) ?? []
  let text = String(decoding: bytes, as: UTF8.self)
  let parsed = (try? ICalendarParser.parse(text)) ?? []
  for component in read + parsed {
    extract(component)
    _ = try? ICalendarParser.parse(ICalendarPrinter.print(component))
  }
  return 0
}

/// Reads every value the library's callers read, recursively.
private func extract(_ component: ICalComponent) {
  _ = component.libicalLosses
  _ = component.calendarTimeZone
  var start: DateTimeValue?
  for property in component.properties {
    _ = property.text
    switch property.name.uppercased() {
    case "DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "EXDATE", "RDATE", "ACKNOWLEDGED",
      "DTSTAMP", "UNTIL", "TRIGGER":
      if let value = DateTimeValue(property: property) {
        _ = value.icalString
        if property.name.uppercased() == "DTSTART" { start = value }
      }
      if let tzid = property.parameter("TZID") {
        _ = TimeZoneNames.ianaIdentifier(forTZID: tzid)
      }
    default: break
    }
    switch property.name.uppercased() {
    case "DURATION", "TRIGGER":
      _ = ICalDuration(property.value)?.description
    case "TZOFFSETFROM", "TZOFFSETTO":
      _ = UTCOffsetText.parse(property.value).map(UTCOffsetText.format)
    default: break
    }
  }
  for property in component.properties(named: "RRULE") {
    guard let rule = try? RecurrenceRule(parsing: property.value) else { continue }
    _ = rule.text
    guard let start else { continue }
    var iterator = RecurrenceIterator(
      rule: rule, start: start.local, isDate: start.isDate, workLimit: 100_000)
    for _ in 0..<20 where iterator.next() != nil {}
  }
  if component.name == "VTIMEZONE", let rules = VTimezoneRules(component) {
    for seconds: Int64 in [0, 1_796_198_400, 4_102_444_800] {
      _ = rules.local(at: Instant(secondsSince1970: seconds))
    }
  }
  for child in component.components { extract(child) }
}
