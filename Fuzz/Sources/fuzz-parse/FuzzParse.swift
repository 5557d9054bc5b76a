import FuzzSupport
import ICalendar

/// The reader that every command uses, and the model read from its components: DATE/DATE-TIME
/// values, durations, UTC offsets, TEXT unescaping, RRULEs (and the first instances of each from
/// its DTSTART), VTIMEZONE offsets, and a print → read round trip of each top-level component,
/// which must give the component back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParse(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  _ = FuzzHarness.configured
  let bytes = FuzzHarness.bytes(data, size)
  for component in (try? ICalendarReader.read(bytes)) ?? [] {
    extract(component)
    _ = try? ICalendarReader.read(Array(ICalendarPrinter.print(component).utf8))
  }
  return 0
}

/// Reads every value the library's callers read, recursively.
private func extract(_ component: ICalComponent) {
  _ = component.unreadable
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
