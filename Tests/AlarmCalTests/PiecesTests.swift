import AlarmCal
import Foundation
import Testing

@testable import ICalendar

/// `upcoming`, `convert` and `validate` work on a large calendar in pieces at once; what
/// they give must not depend on that. Run under `scripts/sanitize thread` in CI.
@Suite struct PiecesTests {
  /// A calendar of `count` weekly events, several revisions of one UID spread through it, and
  /// every seventh event without DTSTAMP (an error at its BEGIN line).
  static func calendar(_ count: Int) -> (text: String, missingStampLines: [Int], begins: [Int]) {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//alarmcal//pieces//EN"]
    var missing: [Int] = []
    var begins: [Int] = []
    for index in 0..<count {
      begins.append(lines.count + 1)
      let uid = index % 1_000 == 999 ? "revised" : "event-\(index)"
      missing += index % 7 == 3 ? [lines.count + 1] : []
      lines += ["BEGIN:VEVENT", "UID:\(uid)", "SEQUENCE:\(index / 1_000)"]
      lines += index % 7 == 3 ? [] : ["DTSTAMP:20260101T000000Z"]
      lines += [
        "DTSTART:202601\(String(format: "%02d", 1 + index % 28))T\(String(format: "%02d", index % 24))0000Z",
        "RRULE:FREQ=WEEKLY;BYDAY=\(["MO", "TU", "WE", "TH", "FR", "SA", "SU"][index % 7])",
        "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(index)", "TRIGGER:-PT\(index % 50)M",
        "END:VALARM", "END:VEVENT",
      ]
    }
    lines.append("END:VCALENDAR")
    return (lines.joined(separator: "\r\n") + "\r\n", missing, begins)
  }

  @Test("a calendar read in pieces gives each event's firings and ids, as each read alone")
  func upcomingInPieces() throws {
    let count = 12_000
    let (text, _, _) = Self.calendar(count)
    let schedule = try FiringSchedule.reading(text, name: "p.ics", zone: .utc)
    var whole: [Firing] = []
    var window = schedule.firings(
      from: testNow, to: testNow.adding(seconds: 7 * 86_400), limit: nil)
    while let firing = window.next() { whole.append(firing) }
    let warnings = window.lateWarnings
    #expect(warnings.isEmpty)
    #expect(schedule.warnings.count == count / 1_000 - 1)  // older revisions of "revised"
    // Each event alone, in a calendar of its own: the same firings, merged in time order.
    let events = text.components(separatedBy: "BEGIN:VEVENT").dropFirst()
    var alone: [Firing] = []
    var kept: [String: String] = [:]
    for event in events {
      let body = "BEGIN:VEVENT" + event.replacingOccurrences(of: "END:VCALENDAR\r\n", with: "")
      let uid = body.components(separatedBy: "\r\n")[1]
      kept[uid] = body  // the latest revision of "revised" is the last one
    }
    for body in kept.values {
      let one = try FiringSchedule.reading(
        "BEGIN:VCALENDAR\r\n\(body)END:VCALENDAR\r\n", name: "p.ics", zone: .utc)
      for firing in one.firings(from: testNow, to: testNow.adding(seconds: 7 * 86_400), limit: nil)
      {
        alone.append(firing)
      }
    }
    #expect(whole.count == alone.count)
    #expect(Set(whole.map(\.id)) == Set(alone.map(\.id)))
    #expect(zip(whole, whole.dropFirst()).allSatisfy { $0.trigger <= $1.trigger })
  }

  /// A large calendar of daily events at 09:00 in "Custom/Nine" (UTC+9, known only from its
  /// VTIMEZONE) and floating ones at 09:00 in the calendar's X-WR-TIMEZONE, Asia/Tokyo; the
  /// VTIMEZONE and X-WR-TIMEZONE before the events or after them, and `header` lines between
  /// the calendar's properties and its first event.
  static func zoned(_ count: Int, zonesFirst: Bool, header: [String] = []) -> String {
    let zone = [
      "BEGIN:VTIMEZONE", "TZID:Custom/Nine", "BEGIN:STANDARD", "DTSTART:19700101T000000",
      "TZOFFSETFROM:+0900", "TZOFFSETTO:+0900", "END:STANDARD", "END:VTIMEZONE",
    ]
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//alarmcal//pieces//EN"]
    if zonesFirst { lines += ["X-WR-TIMEZONE:Asia/Tokyo"] + zone }
    lines += header
    for index in 0..<count {
      let start = index % 2 == 0 ? "DTSTART;TZID=Custom/Nine:" : "DTSTART:"
      lines += [
        "BEGIN:VEVENT", "UID:zoned-\(index)", "DTSTAMP:20260101T000000Z",
        start + "20260101T090000", "RRULE:FREQ=DAILY", "BEGIN:VALARM", "ACTION:DISPLAY",
        "DESCRIPTION:\(index)", "TRIGGER:-PT\(index % 50)M", "END:VALARM", "END:VEVENT",
      ]
    }
    if !zonesFirst { lines += ["X-WR-TIMEZONE:Asia/Tokyo"] + zone }
    lines.append("END:VCALENDAR")
    return lines.joined(separator: "\r\n") + "\r\n"
  }

  /// Each firing's id and trigger in a day from `testNow`, and the schedule's warnings.
  static func day(of text: String) throws -> (firings: [String], warnings: [String]) {
    let schedule = try FiringSchedule.reading(text, name: "z.ics", zone: .utc)
    var found: [String] = []
    for firing in schedule.firings(from: testNow, to: testNow.adding(seconds: 86_400), limit: nil) {
      found.append("\(firing.id) \(firing.trigger)")
    }
    return (found, schedule.warnings.map(\.description))
  }

  @Test("a VTIMEZONE or X-WR-TIMEZONE after a large calendar's events still places them")
  func zonesAfterTheEvents() throws {
    let count = 6_000
    let first = try Self.day(of: Self.zoned(count, zonesFirst: true))
    let last = try Self.day(of: Self.zoned(count, zonesFirst: false))
    #expect(first.warnings.isEmpty)
    #expect(first.firings.count == count)
    // Every event rings at 00:00 UTC (09:00 at +09:00) less its trigger's minutes.
    #expect(first.firings.allSatisfy { $0.hasSuffix("T00:00:00Z") || $0.contains("T23:") })
    #expect(last.warnings.count == 0)
    let sameFirings = last.firings == first.firings
    #expect(sameFirings)
  }

  @Test("an event before a large calendar's first BEGIN:VEVENT line is read too")
  func eventBeforeTheFirstCut() throws {
    let count = 6_000
    let early = [
      "begin:vevent", "UID:early", "DTSTAMP:20260101T000000Z", "DTSTART:20261202T120000Z",
      "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:early", "TRIGGER:PT0S", "END:VALARM",
      "end:vevent",
    ]
    let read = try Self.day(of: Self.zoned(count, zonesFirst: true, header: early))
    #expect(read.warnings.isEmpty)
    #expect(read.firings.count == count + 1)
    #expect(read.firings.contains { $0.hasSuffix("2026-12-02T12:00:00Z") })
  }

  @Test("a large calendar read in pieces is the tree a reading in one pass gives")
  func readInPieces() throws {
    let bytes = Array(Self.calendar(12_000).text.utf8)
    let inPieces = try ICalendarReader.read(bytes)
    #expect(inPieces == (try ICalendarReader.read(bytes, segmentBytes: Int.max)))
    #expect(inPieces.first?.components.count == 12_000)
  }

  @Test("import maps a large calendar in runs and gives its alarms and reports in file order")
  func importInPieces() throws {
    let count = 12_000
    let (text, _, begins) = Self.calendar(count)
    let importer = AlarmImporter(fileName: "p.ics", defaultTimeZone: "UTC", now: testNow)
    let result = try importer.importAlarms(fromText: text)
    // Every UID once; "revised" at the place of its latest revision, the last event.
    let expected = (0..<count).filter { $0 % 1_000 != 999 }.map { "event-\($0)" } + ["revised"]
    #expect(result.alarms.map(\.id) == expected)
    // The older revisions of "revised", each named at its BEGIN line.
    let older = result.warnings.filter { $0.message.contains("older revision") }
    #expect(older.map(\.line) == (0..<11).map { begins[999 + 1_000 * $0] })
    // The calendar loses nothing; its reports are the 11 warnings, in file order.
    #expect(result.losses.isEmpty)
    #expect(result.warnings.map { $0.line ?? 0 } == result.warnings.map { $0.line ?? 0 }.sorted())
  }

  @Test("validate checks a calendar in runs at once and reports in file order")
  func validateInPieces() throws {
    let (text, missing, _) = Self.calendar(12_000)
    let found = Validator.validate(Array(text.utf8), file: "p.ics").filter {
      $0.message.contains("DTSTAMP")
    }
    #expect(found.map(\.line) == missing)
    let duplicates = Validator.validate(Array(text.utf8), file: "p.ics").filter {
      $0.rule == "semantic.duplicate-uid"
    }
    #expect(duplicates.count == 11)
  }

  /// An alarm list of `count` records: every 500th without an id, all of those alike (twins
  /// spread over the runs), and a bad time at each of `badAt` (places from 1).
  static func alarmList(_ count: Int, badAt: Set<Int> = []) -> String {
    let records = (1...count).map { place -> String in
      if badAt.contains(place) { return #"{"id":"a-\#(place)","time":"25:00"}"# }
      if place % 500 == 0 { return #"{"time":"06:30","label":"Twin"}"# }
      let days = #"["mon","wed"]"#
      return #"{"id":"a-\#(place)","time":"07:\#(place % 50 + 10)","repeat":\#(days)}"#
    }
    return #"{"alarms":["# + records.joined(separator: ",") + "]}"
  }

  @Test("an alarm list read in runs gives each alarm, id and problem as a reading in turn")
  func alarmListInRuns() throws {
    let reader = AlarmFileReader(fileName: "a.json", defaultTimeZone: "UTC")
    let alarms = try reader.read(Array(Self.alarmList(5_000).utf8)).get()
    #expect(alarms.count == 5_000)
    #expect(alarms[0].id == "a-1" && alarms[4_998].id == "a-4999")
    // The twins' ids depend only on their content and order, not on the runs they fell in:
    // the same ten records alone get the same ten ids.
    let twins = stride(from: 499, to: 5_000, by: 500).map { alarms[$0].id }
    let twin = #"{"time":"06:30","label":"Twin"}"#
    let alone = #"{"alarms":["# + Array(repeating: twin, count: 10).joined(separator: ",") + "]}"
    #expect(try reader.read(Array(alone.utf8)).get().map(\.id) == twins)
    #expect(Set(twins).count == 10)
    // Problems come in record order, each naming its record.
    let bad: Set = [7, 2_600, 4_999]
    let problems = try #require(
      reader.read(Array(Self.alarmList(5_000, badAt: bad).utf8)).failure?.problems)
    #expect(problems.map(\.alarmIndex) == [7, 2_600, 4_999])
    #expect(problems.allSatisfy { $0.message.contains("\"25:00\" is not a valid HH:mm time") })
  }

  @Test("a long alarm list exported in runs prints each event as the alarm alone does")
  func exportInRuns() throws {
    let reader = AlarmFileReader(fileName: "a.json", defaultTimeZone: "Europe/Berlin")
    let alarms = try reader.read(Array(Self.alarmList(5_000).utf8)).get()
    let exporter = AlarmExporter(now: testNow, timestamp: testNow)
    let events = Self.events(try exporter.text(alarms))
    #expect(events.count == 5_000)
    for index in stride(from: 0, to: 5_000, by: 249) {
      #expect(events[index] == Self.events(try exporter.text([alarms[index]])).first)
    }
  }

  /// The VEVENTs of a calendar's text, each from its BEGIN line to its END line.
  static func events(_ text: String) -> [Substring] {
    var found: [Substring] = []
    var rest = text[...]
    while let begin = rest.range(of: "BEGIN:VEVENT\r\n"),
      let end = rest.range(of: "END:VEVENT\r\n", range: begin.upperBound..<rest.endIndex)
    {
      found.append(rest[begin.lowerBound..<end.upperBound])
      rest = rest[end.upperBound...]
    }
    return found
  }
}

extension Result {
  /// The error, if it is a failure.
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
