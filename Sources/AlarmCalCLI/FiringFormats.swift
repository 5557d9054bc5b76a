import AlarmCal
import ICalendar

/// How `upcoming` prints firings: JSON, NDJSON, or a table for people.
enum FiringFormat: String {
  case text
  case json
  case ndjson
}

/// Renders firings; JSON objects carry the same fields in every format.
struct FiringPrinter: ~Copyable {
  let format: FiringFormat
  let zone: TimeZoneRules
  let now: Instant
  let colour: Bool
  let sink: any TextSink
  private var count = 0
  /// Output is gathered and written in blocks: one write per firing would cost a system call
  /// each.
  private var pending: ByteWriter
  private var json: FiringJSONWriter

  init(format: FiringFormat, zone: TimeZoneRules, now: Instant, colour: Bool, sink: any TextSink) {
    self.format = format
    self.zone = zone
    self.now = now
    self.colour = colour
    self.sink = sink
    json = FiringJSONWriter(zone: zone)
    pending = ByteWriter(capacity: Self.blockSize + 4_096)
  }

  /// The size of the blocks written.
  private static let blockSize = 1 << 19

  mutating func begin() {
    if format == .json { emit("[") }
  }

  private mutating func emit(_ text: String) {
    pending.append(text)
    flushWhenFull()
  }

  private mutating func flushWhenFull() {
    if pending.count >= Self.blockSize { flush() }
  }

  /// Writes what has been gathered.
  mutating func flush() {
    guard pending.count > 0 else { return }
    sink.write(bytes: pending.bytes)
    pending.removeAll()
  }

  mutating func print(_ firing: Firing) {
    switch format {
    case .json, .ndjson:
      json.write(firing, to: &pending, first: count == 0, ndjson: format == .ndjson)
      flushWhenFull()
    case .text:
      emit(textLine(firing) + "\n")
    }
    count += 1
  }

  /// Closes the output; an empty text table says so when `sayWhenEmpty`.
  mutating func end(sayWhenEmpty: Bool = true) {
    switch format {
    case .json: emit(count == 0 ? "]\n" : "\n]\n")
    case .ndjson: break
    case .text: if count == 0 && sayWhenEmpty { emit("No alarms in this window.\n") }
    }
    flush()
  }

  private static let weekdayNames: [Weekday: String] = [
    .monday: "Mon", .tuesday: "Tue", .wednesday: "Wed", .thursday: "Thu", .friday: "Fri",
    .saturday: "Sat", .sunday: "Sun",
  ]

  /// `Thu 2026-12-03  07:00     in 22h 59m    Label  AUDIO  file.ics`: the time with its
  /// seconds when they are not zero (a snooze at 06:15:05), and `(acknowledged)` at the end of
  /// a row that `--include-acknowledged` lists.
  func textLine(_ firing: Firing) -> String {
    let local = zone.local(at: firing.trigger)
    let day = Self.weekdayNames[local.date.weekday] ?? ""
    var time = "\(pad2(local.time.hour)):\(pad2(local.time.minute))"
    if local.time.second != 0 { time += ":\(pad2(local.time.second))" }
    let padding = String(repeating: " ", count: 8 - time.count)
    if colour { time = "\u{1B}[1m\(time)\u{1B}[0m" }
    let label = printable(firing.summary ?? "(no title)")
    let relative = Self.relative(firing.trigger.secondsSince1970 - now.secondsSince1970)
    let mark = firing.acknowledged ? "  (acknowledged)" : ""
    return
      "\(day) \(local.date)  \(time)\(padding)  \(relative.padding(12))  \(label)  \(firing.action)  \(firing.file)\(mark)"
  }

  /// `in 2h 05m`, `in 3d 04h`, `in 45s`, or `… ago`.
  static func relative(_ seconds: Int64) -> String {
    let magnitude = abs(seconds)
    let days = magnitude / 86_400
    let hours = magnitude / 3600 % 24
    let minutes = magnitude / 60 % 60
    let body: String
    if days > 0 {
      body = "\(days)d \(pad2(Int(hours)))h"
    } else if hours > 0 {
      body = "\(hours)h \(pad2(Int(minutes)))m"
    } else if minutes > 0 {
      body = "\(minutes)m"
    } else {
      body = "\(magnitude)s"
    }
    return seconds >= 0 ? "in \(body)" : "\(body) ago"
  }
}

private func pad2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

extension String {
  func padding(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }

}

/// Writes firings as JSON objects.
struct FiringJSONWriter {
  let zone: TimeZoneRules
  /// The last day written in UTC and in the display zone, each with its date's digits.
  private var utcDays = ReadingDigits()
  private var localDays = ReadingDigits()

  /// The fixed parts of a firing's JSON, as bytes: appending an array copies it at once.
  private enum Keys {
    static let openTrigger: [UInt8] = Array(#"{"trigger":""#.utf8)
    static let local: [UInt8] = Array(#"","local":""#.utf8)
    static let uid: [UInt8] = Array(#"","uid":"#.utf8)
    static let recurrenceID: [UInt8] = Array(#","recurrenceId":"#.utf8)
    static let eventStart: [UInt8] = Array(#","eventStart":""#.utf8)
    static let summary: [UInt8] = Array(#"","summary":"#.utf8)
    static let action: [UInt8] = Array(#","action":"#.utf8)
    static let repeatKey: [UInt8] = Array(#","repeat":"#.utf8)
    static let file: [UInt8] = Array(#","file":"#.utf8)
    static let id: [UInt8] = Array(#","id":""#.utf8)
    static let close: [UInt8] = Array(#""}"#.utf8)
    static let firstInArray: [UInt8] = Array("\n  ".utf8)
    static let nextInArray: [UInt8] = Array(",\n  ".utf8)
    static let acknowledged: [UInt8] = Array(#","acknowledged":true"#.utf8)
    static let notAcknowledged: [UInt8] = Array(#","acknowledged":false"#.utf8)
    static let null: [UInt8] = Array("null".utf8)
  }

  init(zone: TimeZoneRules) {
    self.zone = zone
  }

  /// Appends one firing: in a JSON array after `,` and a new line and indented (`first`: no
  /// comma), or as an NDJSON line.
  mutating func write(_ firing: Firing, to output: inout ByteWriter, first: Bool, ndjson: Bool) {
    if !ndjson { output.append(first ? Keys.firstInArray : Keys.nextInArray) }
    writeJSON(firing, to: &output)
    if ndjson { output.append(UInt8(ascii: "\n")) }
  }

  /// The JSON object of one firing, compact: `trigger`, `local`, `uid`, `recurrenceId`,
  /// `eventStart`, `summary`, `action`, `repeat`, `acknowledged`, `file` and `id`, in that
  /// order.
  mutating func writeJSON(_ firing: Firing, to output: inout ByteWriter) {
    output.append(Keys.openTrigger)
    appendUTC(firing.trigger, to: &output)
    output.append(Keys.local)
    appendLocalISO(firing.trigger, to: &output)
    output.append(Keys.uid)
    output.appendJSONString(firing.uid)
    output.append(Keys.recurrenceID)
    switch firing.recurrenceID {
    case .instant(let instant):
      output.append(UInt8(ascii: "\""))
      appendUTC(instant, to: &output)
      output.append(UInt8(ascii: "\""))
    case .date(let date): output.appendJSONString(date.description)
    case nil: output.append(Keys.null)
    }
    output.append(Keys.eventStart)
    appendUTC(firing.eventStart, to: &output)
    output.append(Keys.summary)
    if let summary = firing.summary {
      output.appendJSONString(summary)
    } else {
      output.append(Keys.null)
    }
    output.append(Keys.action)
    output.appendJSONString(firing.action)
    output.append(Keys.repeatKey)
    output.append(String(firing.repeatIndex))
    output.append(firing.acknowledged ? Keys.acknowledged : Keys.notAcknowledged)
    output.append(Keys.file)
    output.appendJSONString(firing.file)
    output.append(Keys.id)
    var id: [UInt8] = []
    id.reserveCapacity(36)
    firing.id.appendDescription(to: &id)
    output.append(id)
    output.append(Keys.close)
  }

  /// Appends `YYYY-MM-DDTHH:MM:SSZ`.
  private mutating func appendUTC(_ instant: Instant, to output: inout ByteWriter) {
    utcDays.append(instant.secondsSince1970, to: &output)
    output.append(UInt8(ascii: "Z"))
  }

  /// Appends ISO 8601 in the display zone with its offset, e.g. `2026-12-03T07:00:00+01:00`
  /// (an offset's seconds, found only in zones' local mean times, are left out).
  mutating func appendLocalISO(_ instant: Instant, to output: inout ByteWriter) {
    let offset = zone.offset(at: instant)
    localDays.append(instant.secondsSince1970 + Int64(offset), to: &output)
    let magnitude = abs(offset)
    output.append(UInt8(ascii: offset < 0 ? "-" : "+"))
    output.appendTwoDigits(magnitude / 3600 % 100)
    output.append(UInt8(ascii: ":"))
    output.appendTwoDigits(magnitude / 60 % 60)
  }
}

/// Writes wall-clock readings as `YYYY-MM-DDTHH:MM:SS`, remembering the last day's date: firings
/// in time order write many readings of one day, and working a day number out into a date is
/// most of the cost of writing one.
struct ReadingDigits {
  private var day = Int64.min
  private var date: [UInt8] = []

  /// Appends the reading `seconds` after 1970-01-01T00:00:00 (the year's last four digits).
  mutating func append(_ seconds: Int64, to output: inout ByteWriter) {
    let days = (seconds >= 0 ? seconds : seconds - 86_399) / 86_400
    if days != day {
      date = []
      LocalDateTime(secondsSince1970: days * 86_400).appendDescription(to: &date)
      date.removeLast(9)  // THH:MM:SS
      day = days
    }
    output.append(date)
    output.appendTimeOfDay(Int(seconds - days * 86_400))
  }
}
