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
  let sink: any TextSink
  private var count = 0
  /// Output is gathered and written in blocks: one write per firing would cost a system call
  /// each.
  private var pending: ByteWriter
  private var json: FiringJSONWriter
  private var text: FiringTextWriter

  init(format: FiringFormat, zone: TimeZoneRules, now: Instant, colour: Bool, sink: any TextSink) {
    self.format = format
    self.sink = sink
    json = FiringJSONWriter(zone: zone)
    text = FiringTextWriter(zone: zone, now: now, colour: colour)
    pending = ByteWriter(capacity: Self.blockSize + 4_096)
  }

  /// The size of the blocks written.
  private static let blockSize = 1 << 19

  mutating func begin() {
    if format == .json { emit("[") }
  }

  private mutating func emit(_ text: StaticString) {
    pending.append(text)
    flushWhenFull()
  }

  private mutating func flushWhenFull() {
    if pending.count >= Self.blockSize { flush() }
  }

  /// Writes what has been gathered.
  mutating func flush() {
    guard pending.count > 0 else { return }
    if let file = sink as? FileHandleSink {
      file.write(pending)
    } else {
      sink.write(bytes: pending.bytes)
    }
    pending.removeAll()
  }

  /// Prints the firing at `index` of `batch`; JSON writes what the firings of one alarm share
  /// once, and copies it after.
  mutating func print(_ batch: FiringBatch, at index: Int) {
    switch format {
    case .json, .ndjson:
      json.write(batch, at: index, to: &pending, first: count == 0, ndjson: format == .ndjson)
    case .text:
      text.add(batch[index])
      if text.heldRows >= FiringTextWriter.blockRows { text.write(to: &pending) }
    }
    flushWhenFull()
    count += 1
  }

  /// Closes the output; an empty text table says so when `sayWhenEmpty`.
  mutating func end(sayWhenEmpty: Bool = true) {
    switch format {
    case .json: emit(count == 0 ? "]\n" : "\n]\n")
    case .ndjson: break
    case .text:
      text.write(to: &pending)
      if count == 0 && sayWhenEmpty { emit("No alarms in this window.\n") }
    }
    flush()
  }
}

/// Writes firings as rows of the table for people, its columns aligned.
///
/// Rows are held and written a block at a time (``blockRows``), each column as wide as its
/// widest cell so far, so a block's rows line up, and a later block's with it unless it holds a
/// wider cell: holding every row would hold a year of firings in memory for one table.
struct FiringTextWriter {
  let zone: TimeZoneRules
  let now: Instant
  let colour: Bool

  /// The most rows held before they are written.
  static let blockRows = 1_024
  /// The padded columns (weekday and date, time, how long until, label, action) and the last,
  /// unpadded one (the file and the row's marks).
  private static let paddedColumns = 5
  private static let columns = paddedColumns + 1
  /// The index of the time column, written bold on a terminal.
  private static let timeColumn = 1

  /// The held rows' cells, one after another.
  private var cells: [UInt8] = []
  /// Where each held cell ends in `cells`, ``columns`` per row.
  private var cellEnds: [Int] = []
  /// The display width of each held cell.
  private var cellWidths: [Int] = []
  /// The width of each padded column so far: at least a time with seconds (`06:15:05`) and
  /// twelve columns for how far off it is (`in 2d 23h`), so most tables keep the columns they
  /// always had.
  private var widths = [0, 8, 12, 0, 0]

  init(zone: TimeZoneRules, now: Instant, colour: Bool) {
    self.zone = zone
    self.now = now
    self.colour = colour
  }

  /// How many rows are held.
  var heldRows: Int { cellEnds.count / Self.columns }

  /// Holds the row of `firing`: `Thu 2026-12-03`, `07:00` (with its seconds when they are not
  /// zero: a snooze at 06:15:05), `in 22h 59m`, the label, the action, and the file, then
  /// `(snooze)` for a snooze and `(acknowledged)` for a row that `--include-acknowledged` lists.
  mutating func add(_ firing: Firing) {
    let local = zone.local(at: firing.trigger)
    var cell = ByteWriter(capacity: 64)
    cell.append(Self.name(of: local.date.weekday))
    cell.append(UInt8(ascii: " "))
    Self.appendDate(local.date, to: &cell)
    end(cell: &cell)
    Self.appendTime(local.time, to: &cell)
    end(cell: &cell)
    Self.appendRelative(firing.trigger.secondsSince1970 - now.secondsSince1970, to: &cell)
    end(cell: &cell)
    Self.appendPrintable(firing.summary ?? "(no title)", to: &cell)
    end(cell: &cell)
    cell.appendUTF8(firing.action)
    end(cell: &cell)
    cell.appendUTF8(firing.file)
    if firing.isSnooze { cell.append("  (snooze)") }
    if firing.acknowledged { cell.append("  (acknowledged)") }
    end(cell: &cell)
  }

  /// Ends the cell written in `cell`: keeps its bytes and width and empties it.
  private mutating func end(cell: inout ByteWriter) {
    let bytes = cell.bytes
    cells += bytes
    cellEnds.append(cells.count)
    cellWidths.append(TerminalWidth.of(bytes))
    let column = cellWidths.count % Self.columns - 1
    if column >= 0 && column < Self.paddedColumns {
      widths[column] = max(widths[column], cellWidths[cellWidths.count - 1])
    }
    cell.removeAll()
  }

  /// Appends the held rows, aligned, each ending in a new line, and lets them go.
  mutating func write(to output: inout ByteWriter) {
    var start = 0
    for (index, end) in cellEnds.enumerated() {
      let column = index % Self.columns
      let bold = colour && column == Self.timeColumn
      if bold { output.append("\u{1B}[1m") }
      output.append(cells[start..<end])
      if bold { output.append("\u{1B}[0m") }
      if column < Self.paddedColumns {
        output.appendSpaces(widths[column] - cellWidths[index] + 2)
      } else {
        output.append(UInt8(ascii: "\n"))
      }
      start = end
    }
    cells.removeAll(keepingCapacity: true)
    cellEnds.removeAll(keepingCapacity: true)
    cellWidths.removeAll(keepingCapacity: true)
  }

  private static func name(of weekday: Weekday) -> StaticString {
    switch weekday {
    case .monday: "Mon"
    case .tuesday: "Tue"
    case .wednesday: "Wed"
    case .thursday: "Thu"
    case .friday: "Fri"
    case .saturday: "Sat"
    case .sunday: "Sun"
    }
  }

  /// Appends ``LocalDate/description``.
  private static func appendDate(_ date: LocalDate, to output: inout ByteWriter) {
    if (0...9999).contains(date.year) {
      output.appendDate(date)
    } else {
      output.appendUTF8(date.description)
    }
  }

  /// Appends `HH:MM`, or `HH:MM:SS` when the seconds are not zero.
  private static func appendTime(_ time: LocalTime, to output: inout ByteWriter) {
    output.appendTwoDigits(time.hour)
    output.append(UInt8(ascii: ":"))
    output.appendTwoDigits(time.minute)
    if time.second != 0 {
      output.append(UInt8(ascii: ":"))
      output.appendTwoDigits(time.second)
    }
  }

  /// Appends `in 2h 05m`, `in 3d 04h`, `in 45s`, or `… ago`.
  static func appendRelative(_ seconds: Int64, to output: inout ByteWriter) {
    let magnitude = abs(seconds)
    let days = magnitude / 86_400
    let hours = Int(magnitude / 3600 % 24)
    let minutes = Int(magnitude / 60 % 60)
    if seconds >= 0 { output.append("in ") }
    if days > 0 {
      output.appendDecimal(Int(days))
      output.append("d ")
      output.appendTwoDigits(hours)
      output.append(UInt8(ascii: "h"))
    } else if hours > 0 {
      output.appendDecimal(hours)
      output.append("h ")
      output.appendTwoDigits(minutes)
      output.append(UInt8(ascii: "m"))
    } else if minutes > 0 {
      output.appendDecimal(minutes)
      output.append(UInt8(ascii: "m"))
    } else {
      output.appendDecimal(Int(magnitude))
      output.append(UInt8(ascii: "s"))
    }
    if seconds < 0 { output.append(" ago") }
  }

  /// Appends ``printable(_:)`` of `text`, which is `text` itself unless it holds a control
  /// character (C0, DEL, or C1, whose UTF-8 starts with 0xC2).
  static func appendPrintable(_ text: String, to output: inout ByteWriter) {
    if text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) {
      output.appendUTF8(printable(text))
    } else {
      output.appendUTF8(text)
    }
  }
}

/// Writes firings as JSON objects.
struct FiringJSONWriter {
  let zone: TimeZoneRules
  /// The last day written of each kind of reading, with its date: the trigger's and its
  /// instance's start alternate between days, so each kind remembers its own.
  private var triggerDays = ReadingDigits()
  private var startDays = ReadingDigits()
  private var localDays = ReadingDigits()
  /// The shared text of each alarm printed so far, its place in `shared`, and their bytes.
  private var sharedPlace: [FiringSource: Int] = [:]
  private var shared: [SharedJSON] = []
  private var sharedBytes: [UInt8] = []
  /// The last offset written, and its `+HH:MM`.
  private var lastOffset = Int.min
  private var offsetWord: UInt64 = 0

  init(zone: TimeZoneRules) {
    self.zone = zone
  }

  /// Appends one firing: in a JSON array after `,` and a new line and indented (`first`: no
  /// comma), or as an NDJSON line.
  mutating func write(_ firing: Firing, to output: inout ByteWriter, first: Bool, ndjson: Bool) {
    if !ndjson { output.append(first ? "\n  " : ",\n  ") }
    writeJSON(firing, to: &output)
    if ndjson { output.append(UInt8(ascii: "\n")) }
  }

  /// ``write(_:to:first:ndjson:)`` for the firing at `index` of `batch`: the text its source's
  /// firings share is written once, then copied.
  mutating func write(
    _ batch: FiringBatch, at index: Int, to output: inout ByteWriter, first: Bool, ndjson: Bool
  ) {
    guard let (source, own) = batch.sharedSource(at: index) else {
      write(batch[index], to: &output, first: first, ndjson: ndjson)
      return
    }
    let place: Int
    if let known = sharedPlace[source] {
      place = known
    } else {
      place = shared.count
      shared.append(SharedJSON(batch[index], into: &sharedBytes))
      sharedPlace[source] = place
    }
    if !ndjson { output.append(first ? "\n  " : ",\n  ") }
    writeJSON(own, shared: shared[place], in: sharedBytes, to: &output)
    if ndjson { output.append(UInt8(ascii: "\n")) }
  }

  /// The JSON object of one firing, compact: `trigger`, `local`, `uid`, `component`,
  /// `recurrenceId`, `eventStart`, `summary`, `action`, `repeat`, `acknowledged`, `alarmUid`,
  /// `isSnooze`, `snoozeOf`, `sound`, `snooze`, `snoozeMinutes`, `file` and `id`, in that order.
  mutating func writeJSON(_ firing: Firing, to output: inout ByteWriter) {
    var bytes: [UInt8] = []
    let text = SharedJSON(firing, into: &bytes)
    writeJSON(firing.ownValues, shared: text, in: bytes, to: &output)
  }

  /// The JSON object of a firing from its own values and the text it shares with its alarm's
  /// (whose runs are in `bytes`).
  private mutating func writeJSON(
    _ own: FiringOwnValues, shared text: SharedJSON, in bytes: [UInt8],
    to output: inout ByteWriter
  ) {
    output.append(#"{"trigger":""#)
    triggerDays.append(own.trigger.secondsSince1970, to: &output)
    output.append(#"Z","local":""#)
    appendLocalISO(own.trigger, to: &output)
    output.append(bytes[text.uidToRecurrenceID])
    switch own.recurrenceID {
    case .instant(let instant):
      output.append(UInt8(ascii: "\""))
      startDays.append(instant.secondsSince1970, to: &output)
      output.append(#"Z""#)
    case .date(let date): output.appendJSONString(date.description)
    case nil: output.append("null")
    }
    output.append(#","eventStart":""#)
    startDays.append(own.eventStart.secondsSince1970, to: &output)
    output.append(#"Z","summary":"#)
    output.append(bytes[text.summaryToRepeat])
    output.appendDecimal(own.repeatIndex)
    output.append(own.acknowledged ? #","acknowledged":true"# : #","acknowledged":false"#)
    output.append(bytes[text.alarmUIDToID])
    Self.appendID(
      text.idSeed.id(recurrenceID: own.recurrenceID, repeatIndex: own.repeatIndex), to: &output)
    output.append(#""}"#)
  }

  /// Appends a JSON string, or `null`.
  static func appendOptionalString(_ text: String?, to output: inout ByteWriter) {
    if let text {
      output.appendJSONString(text)
    } else {
      output.append("null")
    }
  }

  /// What the JSON of every firing of one alarm of one series shares: three runs of bytes in
  /// a store, and what its ids hash.
  struct SharedJSON {
    /// `","uid":…,"component":…,"recurrenceId":`
    let uidToRecurrenceID: Range<Int>
    /// `…,"action":…,"repeat":` (after `"summary":`)
    let summaryToRepeat: Range<Int>
    /// `,"alarmUid":…,"isSnooze":…,"snoozeOf":…,"sound":…,"snooze":…,"snoozeMinutes":…,`
    /// `"file":…,"id":"`
    let alarmUIDToID: Range<Int>
    let idSeed: FiringIDSeed

    /// Writes `firing`'s shared runs at the end of `store`.
    init(_ firing: Firing, into store: inout [UInt8]) {
      var runs = ByteWriter(capacity: 256)
      runs.append(#"","uid":"#)
      runs.appendJSONString(firing.uid)
      runs.append(#","component":"#)
      runs.appendJSONString(firing.component)
      runs.append(#","recurrenceId":"#)
      let first = runs.count
      FiringJSONWriter.appendOptionalString(firing.summary, to: &runs)
      runs.append(#","action":"#)
      runs.appendJSONString(firing.action)
      runs.append(#","repeat":"#)
      let second = runs.count
      runs.append(#","alarmUid":"#)
      FiringJSONWriter.appendOptionalString(firing.alarmUID, to: &runs)
      runs.append(
        firing.isSnooze ? #","isSnooze":true,"snoozeOf":"# : #","isSnooze":false,"snoozeOf":"#)
      FiringJSONWriter.appendOptionalString(firing.snoozeOf, to: &runs)
      let settings = firing.settings
      runs.append(#","sound":"#)
      FiringJSONWriter.appendOptionalString(settings.sound, to: &runs)
      runs.append(settings.offersSnooze ? #","snooze":true"# : #","snooze":false"#)
      runs.append(#","snoozeMinutes":"#)
      runs.appendDecimal(settings.snoozeMinutes)
      runs.append(#","file":"#)
      runs.appendJSONString(firing.file)
      runs.append(#","id":""#)
      let base = store.count
      store += runs.bytes
      uidToRecurrenceID = base..<base + first
      summaryToRepeat = base + first..<base + second
      alarmUIDToID = base + second..<store.count
      idSeed = firing.idSeed
    }
  }

  /// Appends the id as ``FiringID/description`` writes it: `8-4-4-4-12` upper-case hex digits,
  /// the third group skipping the four bits before it (the version's place is in the text).
  static func appendID(_ id: FiringID, to output: inout ByteWriter) {
    output.appendUUID(id.high, id.low)
  }

  /// Appends ISO 8601 in the display zone with its offset, e.g. `2026-12-03T07:00:00+01:00`
  /// (an offset's seconds, found only in zones' local mean times, are left out).
  mutating func appendLocalISO(_ instant: Instant, to output: inout ByteWriter) {
    let offset = zone.offset(at: instant)
    localDays.append(instant.secondsSince1970 + Int64(offset), to: &output)
    if offset != lastOffset {
      let magnitude = abs(offset)
      offsetWord =
        UInt64(UInt8(ascii: offset < 0 ? "-" : "+"))
        | ByteWriter.twoDigits(magnitude / 3600 % 100) << 8
        | UInt64(UInt8(ascii: ":")) << 24 | ByteWriter.twoDigits(magnitude / 60 % 60) << 32
      lastOffset = offset
    }
    output.appendWord(offsetWord, count: 6)
  }
}

/// Writes wall-clock readings as `YYYY-MM-DDTHH:MM:SS`, remembering the last reading's bytes:
/// firings in time order write many readings of one day and many of one moment, and working
/// a day number out into a date is most of the cost of writing one.
struct ReadingDigits {
  private var day = Int64.min
  private var second = -1
  /// `DDT` of the last day.
  private var dayWord: UInt64 = 0
  /// The last reading's 19 bytes: `YYYY-MM-`, `DDTHH:MM`, `:SS`.
  private var words: (UInt64, UInt64, UInt64) = (0, 0, 0)

  /// Appends the reading `seconds` after 1970-01-01T00:00:00 (the year's last four digits).
  mutating func append(_ seconds: Int64, to output: inout ByteWriter) {
    let days = (seconds >= 0 ? seconds : seconds - 86_399) / 86_400
    let secondOfDay = Int(seconds - days * 86_400)
    if days != day || secondOfDay != second {
      if days != day {
        let date = LocalDate(daysSince1970: Int(days))
        words.0 = ByteWriter.yearAndMonth(date)
        dayWord = ByteWriter.twoDigits(date.day) | UInt64(UInt8(ascii: "T")) << 16
        day = days
      }
      let time = ByteWriter.timeOfDay(secondOfDay)
      words.1 = dayWord | time << 24
      words.2 = time >> 40
      second = secondOfDay
    }
    output.appendWord(words.0, count: 8)
    output.appendWord(words.1, count: 8)
    output.appendWord(words.2, count: 3)
  }
}

/// How many columns of a terminal text takes: a wide (East Asian) or emoji character two, a
/// combining mark, a zero-width joiner or a variation selector none, any other one.
enum TerminalWidth {
  /// The width of UTF-8 `bytes`.
  static func of(_ bytes: [UInt8]) -> Int {
    guard bytes.contains(where: { $0 >= 0x80 }) else { return bytes.count }
    return String(decoding: bytes, as: UTF8.self).unicodeScalars.reduce(0) { $0 + of($1) }
  }

  /// The width of one scalar.
  static func of(_ scalar: Unicode.Scalar) -> Int {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if scalar.properties.isEmojiPresentation { return 2 }
    return wide.contains { $0.contains(scalar.value) } ? 2 : 1
  }

  /// The East Asian Wide and Fullwidth blocks (Unicode Standard Annex #11).
  private static let wide: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
    0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]
}
