import AlarmCal
import ICalendar

/// How `upcoming` prints firings: JSON, NDJSON, or a table for people.
enum FiringFormat: String {
  case text
  case json
  case ndjson
}

/// Renders firings; JSON objects carry the same fields in every format.
struct FiringPrinter {
  let format: FiringFormat
  let zone: TimeZoneRules
  let now: Instant
  let colour: Bool
  let sink: any TextSink
  private var count = 0
  /// Output is gathered and written in blocks: one write per firing would cost a system call each.
  private var pendingOutput = JSONObjectWriter()

  init(format: FiringFormat, zone: TimeZoneRules, now: Instant, colour: Bool, sink: any TextSink) {
    self.format = format
    self.zone = zone
    self.now = now
    self.colour = colour
    self.sink = sink
  }

  mutating func begin() {
    if format == .json { emit("[") }
  }

  private mutating func emit(_ text: String) {
    pendingOutput.bytes.append(contentsOf: text.utf8)
    flushWhenFull()
  }

  private mutating func flushWhenFull() {
    if pendingOutput.bytes.count >= 1 << 16 { flush() }
  }

  /// Writes what has been gathered.
  mutating func flush() {
    guard !pendingOutput.bytes.isEmpty else { return }
    sink.write(String(decoding: pendingOutput.bytes, as: UTF8.self))
    pendingOutput.bytes.removeAll(keepingCapacity: true)
  }

  mutating func print(_ firing: Firing) {
    switch format {
    case .json, .ndjson:
      // Moved out while written to, so the buffer stays uniquely referenced (no copy per append).
      var output = pendingOutput
      pendingOutput = JSONObjectWriter()
      if format == .json { output.append(count == 0 ? "\n  " : ",\n  ") }
      writeJSON(firing, into: &output)
      if format == .ndjson { output.append("\n") }
      pendingOutput = output
      flushWhenFull()
    case .text:
      emit(textLine(firing) + "\n")
    }
    count += 1
  }

  /// The JSON object of one firing, written straight into the output.
  func writeJSON(_ firing: Firing, into writer: inout JSONObjectWriter) {
    writer.beginObject()
    writer.member("trigger", unescaped: firing.trigger.appendDescription)
    writer.member("local") { appendLocalISO(firing.trigger, to: &$0) }
    writer.member("uid", firing.uid)
    switch firing.recurrenceID {
    case .instant(let instant): writer.member("recurrenceId", unescaped: instant.appendDescription)
    case .date(let date): writer.member("recurrenceId", date.description)
    case nil: writer.member("recurrenceId", literal: "null")
    }
    writer.member("eventStart", unescaped: firing.eventStart.appendDescription)
    writer.member("summary", firing.summary)
    writer.member("action", firing.action)
    writer.member("repeat", integer: firing.repeatIndex)
    writer.member("acknowledged", literal: firing.acknowledged ? "true" : "false")
    writer.member("file", firing.file)
    writer.member("id", unescaped: firing.appendID)
    writer.endObject()
  }

  mutating func end() {
    switch format {
    case .json: emit(count == 0 ? "]\n" : "\n]\n")
    case .ndjson: break
    case .text: if count == 0 { emit("No alarms in this window.\n") }
    }
    flush()
  }

  /// ISO 8601 in the display zone with its offset, e.g. `2026-12-03T07:00:00+01:00` (an
  /// offset's seconds, found only in zones' local mean times, are left out).
  func appendLocalISO(_ instant: Instant, to bytes: inout [UInt8]) {
    let offset = zone.offset(at: instant)
    instant.utc.adding(seconds: Int64(offset)).appendDescription(to: &bytes)
    let magnitude = abs(offset)
    bytes.append(UInt8(ascii: offset < 0 ? "-" : "+"))
    let hours = magnitude / 3600 % 100
    let minutes = magnitude / 60 % 60
    bytes.append(UInt8(ascii: "0") + UInt8(hours / 10))
    bytes.append(UInt8(ascii: "0") + UInt8(hours % 10))
    bytes.append(UInt8(ascii: ":"))
    bytes.append(UInt8(ascii: "0") + UInt8(minutes / 10))
    bytes.append(UInt8(ascii: "0") + UInt8(minutes % 10))
  }

  private static let weekdayNames: [Weekday: String] = [
    .monday: "Mon", .tuesday: "Tue", .wednesday: "Wed", .thursday: "Thu", .friday: "Fri",
    .saturday: "Sat", .sunday: "Sun",
  ]

  /// `Thu 2026-12-03  07:00  in 22h 59m  Label  AUDIO  file.ics`.
  func textLine(_ firing: Firing) -> String {
    let local = zone.local(at: firing.trigger)
    let day = Self.weekdayNames[local.date.weekday] ?? ""
    var time = "\(pad2(local.time.hour)):\(pad2(local.time.minute))"
    if colour { time = "\u{1B}[1m\(time)\u{1B}[0m" }
    let label = printable(firing.summary ?? "(no title)")
    let relative = Self.relative(firing.trigger.secondsSince1970 - now.secondsSince1970)
    return
      "\(day) \(local.date)  \(time)  \(relative.padding(12))  \(label)  \(firing.action)  \(firing.file)"
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
