import AlarmCal
import Foundation
import ICalendar

/// A JSON alarm list as its file holds it, to be edited record by record: the alarms and tasks
/// read from it, and where each alarm's record lies in the bytes, so a pull rewrites only the
/// records that changed and every other byte stays.
struct AlarmListFile {
  /// The file's bytes.
  let bytes: [UInt8]
  /// The file's alarms, in order.
  let alarms: [Alarm]
  /// The file's tasks.
  let tasks: [ToDo]
  /// The byte range of each alarm's record, in the order of ``alarms``.
  let records: [Range<Int>]
  /// The byte ranges of every element of the array that holds the alarms (tasks of a bare
  /// array among them), and the zone records without one are read in.
  private let elements: [Range<Int>]
  private let zone: String

  /// Why a list cannot be read or edited; each line ready to print.
  struct Failure: Error {
    let lines: [String]
  }

  /// What happens to one alarm's record.
  enum Edit: Equatable {
    /// The record takes this alarm's values; its other members stay, in their order.
    case replace(Alarm)
    /// The record leaves the list.
    case remove
  }

  /// The list in `bytes`, read as push reads it (`zone` for alarms that name none).
  static func read(_ bytes: [UInt8], file: String, zone: String) -> Result<Self, Failure> {
    let reader = AlarmFileReader(fileName: file, defaultTimeZone: zone)
    let list: AlarmList
    switch reader.readList(bytes) {
    case .success(let read): list = read
    case .failure(let failure): return .failure(Failure(lines: failure.problems.map { "\($0)" }))
    }
    guard let found = ListRecords(bytes) else {
      return .failure(Failure(lines: ["\(file): not a list of records this pull can edit"]))
    }
    let records = found.alarms
    guard records.count == list.alarms.count else {
      return .failure(Failure(lines: ["\(file): not a list of records this pull can edit"]))
    }
    return .success(
      AlarmListFile(
        bytes: bytes, alarms: list.alarms, tasks: list.tasks, records: records,
        elements: found.alarmArray, zone: zone))
  }

  /// The file's bytes with `edits` (by alarm index) made: the separators and every record not
  /// edited as they were.
  func edited(_ edits: [Int: Edit]) throws(PullCommand.UnreadableResource) -> [UInt8] {
    guard !edits.isEmpty, let first = elements.first, let last = elements.last else {
      return bytes
    }
    var editOfStart: [Int: Edit] = [:]
    for (offset, edit) in edits { editOfStart[records[offset].lowerBound] = edit }
    var out = Array(bytes[..<first.lowerBound])
    var previous: Range<Int>?
    var wroteAny = false
    for range in elements {
      defer { previous = range }
      let edit = editOfStart[range.lowerBound]
      if edit == .remove { continue }
      if wroteAny, let previous {
        // The separator that stood before this element.
        out += bytes[previous.upperBound..<range.lowerBound]
      }
      wroteAny = true
      if case .replace(let alarm) = edit {
        out += try replaced(range, with: alarm)
      } else {
        out += bytes[range]
      }
    }
    if !wroteAny {
      // Every element went: the array is empty, its brackets stay.
      while let end = out.last, end != UInt8(ascii: "[") { out.removeLast() }
    }
    out += bytes[last.upperBound...]
    return out
  }

  /// The keys a record may give a field under, of either shape (README, "The alarm file").
  private static let knownKeys: Set<String> = [
    "id", "uuid", "identifier", "creatTime", "time", "alarmTime", "at", "repeat", "weekdays",
    "repeatWeekdays", "repeatDays", "label", "name", "sound", "snooze", "snoozeEnabled",
    "snoozeMinutes", "enabled", "isEnabled", "timeZone", "alarmUid", "acknowledgedAt",
    "snoozedUntil", "snoozeUid",
  ]

  /// The keys of the iOS app record.
  private static let appKeys: Set<String> = [
    "alarmTime", "name", "repeatDays", "snoozeEnabled", "isEnabled", "creatTime",
  ]

  /// The record at `range` with each member whose value changed given its new value in place
  /// (one line, compact), new members after the last with the last one's indentation, and every
  /// other byte as it was; nil when a member goes (the record is then written anew).
  private func spliced(
    _ range: Range<Int>, members: [JSONMember], old: [JSONMember], added: [JSONMember]
  ) -> [UInt8]? {
    guard members.count == old.count, !bytes[range].isEmpty else { return nil }
    let outline = JSONOutline(bytes: bytes)
    let places = outline.members(ofObjectAt: range.lowerBound)
    guard places.count == old.count, let last = places.last else { return nil }
    let compact = JSONWriter(style: .compact)
    var edits: [(range: Range<Int>, text: [UInt8])] = []
    for (index, member) in members.enumerated() where member.value != old[index].value {
      edits.append((places[index].valueRange, Array(compact.string(from: member.value).utf8)))
    }
    if !added.isEmpty {
      // The blanks before the last member's key, from the line break before it.
      var start = last.keyRange.lowerBound
      while start > range.lowerBound,
        bytes[start - 1] == UInt8(ascii: " ") || bytes[start - 1] == 0x09
      {
        start -= 1
      }
      let lead =
        start > range.lowerBound && bytes[start - 1] == UInt8(ascii: "\n")
        ? "\n" + String(decoding: bytes[start..<last.keyRange.lowerBound], as: UTF8.self) : " "
      let text = added.map {
        lead + compact.string(from: .string($0.key)) + ": " + compact.string(from: $0.value)
      }
      let end = last.valueRange.upperBound
      edits.append((end..<end, Array(text.map { "," + $0 }.joined().utf8)))
    }
    var result: [UInt8] = []
    var cursor = range.lowerBound
    for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
      result += bytes[cursor..<edit.range.lowerBound]
      result += edit.text
      cursor = edit.range.upperBound
    }
    result += bytes[cursor..<range.upperBound]
    return result
  }

  /// The record at `range` with `alarm`'s values: a member the new record has takes its value
  /// in place, a field it no longer has goes, a member alarmcal does not know stays, and new
  /// fields follow. An iOS app record stays one; a record on one line stays on one line.
  private func replaced(_ range: Range<Int>, with alarm: Alarm)
    throws(PullCommand.UnreadableResource) -> [UInt8]
  {
    guard let old = (try? JSONParser().parse(Array(bytes[range])))?.objectValue else {
      throw PullCommand.UnreadableResource(message: "a record is not a JSON object")
    }
    let isApp = old.contains { Self.appKeys.contains($0.key) }
    let fresh: [JSONMember]?
    if isApp {
      let shaped = AlarmFileWriter.appShape([alarm], zone: zone).bytes
      fresh = (try? JSONParser().parse(shaped))?.arrayValue?.first?.objectValue
    } else {
      fresh = AlarmFileWriter.json(alarm).objectValue
    }
    guard let fresh else {
      throw PullCommand.UnreadableResource(message: "a record could not be written")
    }
    var members: [JSONMember] = []
    var used: Set<String> = []
    for member in old {
      if let value = fresh.first(where: { $0.key == member.key })?.value {
        members.append(JSONMember(member.key, value))
        used.insert(member.key)
      } else if !Self.knownKeys.contains(member.key) {
        members.append(member)
      }
    }
    let added = fresh.filter { !used.contains($0.key) }
    if let spliced = spliced(range, members: members, old: old, added: added) { return spliced }
    members += added
    if !bytes[range].contains(UInt8(ascii: "\n")) {
      let compact = JSONWriter(style: .compact)
      let text = members.map { member -> String in
        compact.string(from: .string(member.key)) + ": " + compact.string(from: member.value)
      }
      return Array(("{" + text.joined(separator: ", ") + "}").utf8)
    }
    // The record's own indentation: the blanks before it on its line.
    var start = range.lowerBound
    while start > 0, bytes[start - 1] == UInt8(ascii: " ") || bytes[start - 1] == 0x09 {
      start -= 1
    }
    let indent = String(decoding: bytes[start..<range.lowerBound], as: UTF8.self)
    let text = JSONWriter(style: .pretty).string(from: .object(members))
    return Array(text.replacingOccurrences(of: "\n", with: "\n" + indent).utf8)
  }
}
