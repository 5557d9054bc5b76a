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
  private let pendingOutput = ByteBuffer(capacity: 1 << 20)
  private var json: FiringJSONWriter
  /// The second run of firings of a round, formatted on another thread; kept for its capacity.
  private let secondRunText = ByteBuffer(capacity: 1 << 20)

  /// The fewest firings a window must hold to be formatted on two threads.
  private let twoThreadsFrom: Int
  /// The most firings each thread formats in one round: about 2.7 MB of NDJSON held back.
  private let roundRun: Int

  init(
    format: FiringFormat, zone: TimeZoneRules, now: Instant, colour: Bool, sink: any TextSink,
    twoThreadsFrom: Int = 4_096, roundRun: Int = 8_192
  ) {
    self.format = format
    self.twoThreadsFrom = max(twoThreadsFrom, 2)
    self.roundRun = max(roundRun, 1)
    self.zone = zone
    self.now = now
    self.colour = colour
    self.sink = sink
    json = FiringJSONWriter(zone: zone)
  }

  mutating func begin() {
    if format == .json { emit("[") }
  }

  private func emit(_ text: String) {
    pendingOutput.append(utf8: text)
    flushWhenFull()
  }

  private func flushWhenFull() {
    if pendingOutput.count >= 1 << 19 { flush() }
  }

  /// Writes what has been gathered.
  func flush() {
    guard !pendingOutput.isEmpty else { return }
    pendingOutput.withBytes { sink.write(bytes: $0) }
    pendingOutput.removeAll()
  }

  mutating func print(_ firing: Firing) {
    switch format {
    case .json, .ndjson:
      json.write(firing, to: pendingOutput, first: count == 0, ndjson: format == .ndjson)
      flushWhenFull()
    case .text:
      emit(textLine(firing) + "\n")
    }
    count += 1
  }

  /// Prints a window of firings. A large window in JSON is formatted in rounds of two runs of
  /// firings, the second run on another thread, each round written in order: the same bytes
  /// as one firing at a time, with at most one run's text held back.
  mutating func print(_ window: FiringWindow) {
    guard format != .text, window.count >= twoThreadsFrom else {
      window.forEach(in: 0..<window.count) { print($0) }
      return
    }
    let second = SecondRunBuffer(secondRunText)
    let (zone, ndjson) = (zone, format == .ndjson)
    var start = 0
    while window.count - start >= twoThreadsFrom {
      let run = min(roundRun, (window.count - start) / 2)
      let (firstRun, secondRun) = (start..<start + run, start + run..<start + 2 * run)
      _ = TwoThreads.run(
        { window.forEach(in: firstRun) { print($0) } },
        alongside: {
          var json = FiringJSONWriter(zone: zone)
          second.buffer.removeAll()
          window.forEach(in: secondRun) {
            json.write($0, to: second.buffer, first: false, ndjson: ndjson)
          }
        })
      flush()
      secondRunText.withBytes { sink.write(bytes: $0) }
      count += run
      start = secondRun.upperBound
    }
    window.forEach(in: start..<window.count) { print($0) }
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

/// Writes firings as JSON objects; each writer remembers the last day it wrote, so two threads
/// each use their own.
struct FiringJSONWriter {
  let zone: TimeZoneRules
  /// Timestamps of UTC and of the display zone, each remembering its last day's digits.
  private var utcClock = ReadingWriter()
  private var localClock = ReadingWriter()

  init(zone: TimeZoneRules) {
    self.zone = zone
  }

  /// Appends one firing: in a JSON array after `,` and a new line and indented (`first`: no
  /// comma), or as an NDJSON line.
  mutating func write(_ firing: Firing, to output: ByteBuffer, first: Bool, ndjson: Bool) {
    if !ndjson { output.append(first ? "\n  " : ",\n  ") }
    writeJSON(firing, to: output)
    if ndjson { output.append(UInt8(ascii: "\n")) }
  }

  /// The JSON object of one firing, compact, written straight into the output: `trigger`,
  /// `local`, `uid`, `recurrenceId`, `eventStart`, `summary`, `action`, `repeat`,
  /// `acknowledged`, `file` and `id`, in that order.
  mutating func writeJSON(_ firing: Firing, to output: ByteBuffer) {
    // Keys and punctuation (134 bytes), timestamps, the id, the integer and a DATE recurrence id
    // (escaped as a string) take under 330 bytes; 400 leaves a margin. Strings take their own.
    var room = 400 + JSONCursor.maximumLength(of: firing.uid)
    room += JSONCursor.maximumLength(of: firing.action) + JSONCursor.maximumLength(of: firing.file)
    if let summary = firing.summary { room += JSONCursor.maximumLength(of: summary) }
    output.appendJSON(maximumCount: room) { json in
      json.literal(#"{"trigger":""#)
      json.ascii(count: Instant.descriptionLength) { writeUTC(firing.trigger, to: $0) }
      json.literal(#"","local":""#)
      json.ascii(count: Self.localISOLength) { writeLocalISO(firing.trigger, to: $0) }
      json.literal(#"","uid":"#)
      json.string(firing.uid)
      json.literal(#","recurrenceId":"#)
      switch firing.recurrenceID {
      case .instant(let instant):
        json.literal("\"")
        json.ascii(count: Instant.descriptionLength) { writeUTC(instant, to: $0) }
        json.literal("\"")
      case .date(let date): json.string(date.description)
      case nil: json.literal("null")
      }
      json.literal(#","eventStart":""#)
      json.ascii(count: Instant.descriptionLength) { writeUTC(firing.eventStart, to: $0) }
      json.literal(#"","summary":"#)
      if let summary = firing.summary { json.string(summary) } else { json.literal("null") }
      json.literal(#","action":"#)
      json.string(firing.action)
      json.literal(#","repeat":"#)
      json.integer(firing.repeatIndex)
      json.literal(firing.acknowledged ? #","acknowledged":true"# : #","acknowledged":false"#)
      json.literal(#","file":"#)
      json.string(firing.file)
      json.literal(#","id":""#)
      json.ascii(count: Firing.idLength) { firing.writeID(to: $0, clock: &utcClock) }
      json.literal(#""}"#)
    }
  }

  /// Stores ``Instant/description``'s bytes at `start`.
  private mutating func writeUTC(_ instant: Instant, to start: UnsafeMutablePointer<UInt8>) {
    utcClock.write(secondsSince1970: instant.secondsSince1970, to: start)
    start[LocalDateTime.descriptionLength] = UInt8(ascii: "Z")
  }

  /// The length of ``writeLocalISO(_:to:)``'s text.
  static let localISOLength = LocalDateTime.descriptionLength + 6

  /// Stores ISO 8601 in the display zone with its offset, e.g. `2026-12-03T07:00:00+01:00` (an
  /// offset's seconds, found only in zones' local mean times, are left out).
  mutating func writeLocalISO(_ instant: Instant, to start: UnsafeMutablePointer<UInt8>) {
    let offset = zone.offset(at: instant)
    localClock.write(secondsSince1970: instant.secondsSince1970 + Int64(offset), to: start)
    let magnitude = abs(offset)
    let hours = magnitude / 3600 % 100
    let minutes = magnitude / 60 % 60
    let sign = start + LocalDateTime.descriptionLength
    sign[0] = UInt8(ascii: offset < 0 ? "-" : "+")
    sign[1] = UInt8(ascii: "0") + UInt8(hours / 10)
    sign[2] = UInt8(ascii: "0") + UInt8(hours % 10)
    sign[3] = UInt8(ascii: ":")
    sign[4] = UInt8(ascii: "0") + UInt8(minutes / 10)
    sign[5] = UInt8(ascii: "0") + UInt8(minutes % 10)
  }
}

/// The buffer a second thread formats into.
///
/// `@unchecked Sendable`: only the second thread touches the buffer until ``TwoThreads`` has
/// joined it; then only the printer.
private struct SecondRunBuffer: @unchecked Sendable {
  let buffer: ByteBuffer

  init(_ buffer: ByteBuffer) {
    self.buffer = buffer
  }
}
