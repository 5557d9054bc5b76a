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
  /// The byte range of each task's record, in the order of ``tasks`` (empty when they cannot
  /// be told apart).
  let taskRecords: [Range<Int>]
  /// The byte ranges of every element of the array that holds the alarms (tasks of a bare
  /// array among them), of every entry of the container that holds the tasks, and the zone
  /// records without one are read in.
  private let elements: [Range<Int>]
  private let taskEntries: [Range<Int>]
  private let zone: String

  /// Why a list cannot be read or edited; each line ready to print.
  struct Failure: Error {
    let lines: [String]
  }

  /// What happens to one alarm's or task's record.
  enum Edit<Item> {
    /// The record takes this item's values; its other members stay, in their order.
    case replace(Item)
    /// The record leaves the list.
    case remove
  }

  /// What becomes of one entry of a container.
  private enum Change {
    case replace([UInt8])
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
    let tasks = found.tasks.count == list.tasks.count ? found.tasks : []
    return .success(
      AlarmListFile(
        bytes: bytes, alarms: list.alarms, tasks: list.tasks, records: records,
        taskRecords: tasks, elements: found.alarmArray,
        taskEntries: tasks.isEmpty ? [] : found.taskEntries, zone: zone))
  }

  /// The file's bytes with `edits` (by alarm index) and `taskEdits` (by task index) made: the
  /// separators and every record not edited as they were.
  func edited(_ edits: [Int: Edit<Alarm>], tasks taskEdits: [Int: Edit<ToDo>] = [:])
    throws(CollectionCalendar.UnreadableResource) -> [UInt8]
  {
    guard !edits.isEmpty || !taskEdits.isEmpty else { return bytes }
    // Changes by the start of the entry they change.
    var changes: [Int: Change] = [:]
    for (offset, edit) in edits {
      let range = records[offset]
      switch edit {
      case .replace(let alarm):
        changes[range.lowerBound] = .replace(try replaced(range, with: alarm))
      case .remove: changes[range.lowerBound] = .remove
      }
    }
    for (offset, edit) in taskEdits {
      guard taskRecords.indices.contains(offset) else { continue }
      let range = taskRecords[offset]
      // The task's entry: a dictionary's starts at its key, which stays.
      let entry = taskEntries.first { $0.upperBound == range.upperBound } ?? range
      switch edit {
      case .replace(let task):
        changes[entry.lowerBound] = .replace(
          Array(bytes[entry.lowerBound..<range.lowerBound]) + (try replaced(range, with: task)))
      case .remove: changes[entry.lowerBound] = .remove
      }
    }
    var out = TextEdits(bytes)
    for entries in Set([elements, taskEntries]) where !entries.isEmpty {
      if let region = rebuilt(entries, changes) { out.replace(region.range, with: region.text) }
    }
    return out.applied()
  }

  /// The entries of one container from its first to its last with `changes` made, the
  /// separators that stood between kept ones kept; nil when nothing in it changes. A container
  /// left empty keeps only its brackets.
  private func rebuilt(_ entries: [Range<Int>], _ changes: [Int: Change])
    -> (range: Range<Int>, text: [UInt8])?
  {
    guard let first = entries.first, let last = entries.last,
      entries.contains(where: { changes[$0.lowerBound] != nil })
    else { return nil }
    var out: [UInt8] = []
    var previous: Range<Int>?
    var wroteAny = false
    for range in entries {
      defer { previous = range }
      let change = changes[range.lowerBound]
      if case .remove = change { continue }
      if wroteAny, let previous {
        // The separator that stood before this entry.
        out += bytes[previous.upperBound..<range.lowerBound]
      }
      wroteAny = true
      if case .replace(let text) = change { out += text } else { out += bytes[range] }
    }
    guard wroteAny else {
      // Every entry went: from just after the opening bracket.
      var start = first.lowerBound
      while start > 0, bytes[start - 1] != UInt8(ascii: "["), bytes[start - 1] != UInt8(ascii: "{")
      {
        start -= 1
      }
      return (start..<last.upperBound, [])
    }
    return (first.lowerBound..<last.upperBound, out)
  }

  /// Whether the record of alarm `offset` already says what `alarm` would write into it: for
  /// an app record, `alarm` as that shape holds it (no date, snooze length or other zone) and
  /// read back is the record's alarm; for alarmcal's, the two are equal.
  func holds(_ alarm: Alarm, atRecord offset: Int) -> Bool {
    if alarm == alarms[offset] { return true }
    guard isAppRecord(offset) else { return false }
    let shaped = AlarmFileWriter.appShape([alarm], zone: zone).bytes
    guard
      case .success(let back) = AlarmFileReader(fileName: "", defaultTimeZone: zone).readList(
        shaped),
      back.alarms.count == 1
    else { return false }
    return back.alarms[0] == alarms[offset]
  }

  /// Whether alarm `offset`'s record is in the iOS app's shape.
  private func isAppRecord(_ offset: Int) -> Bool {
    guard let old = (try? JSONParser().parse(Array(bytes[records[offset]])))?.objectValue
    else { return false }
    return old.contains { AlarmFileReader.appAlarmFieldNames.contains($0.key) }
  }

  /// What the record of alarm `offset` cannot hold of `alarm`, one line each: an app record has
  /// no place for a date, a snooze length or another zone (``AlarmFileWriter/appShape(_:zone:)``).
  func omissions(ofRecord offset: Int, for alarm: Alarm) -> [String] {
    guard isAppRecord(offset) else { return [] }
    return AlarmFileWriter.appShapeLoss(of: alarm, zone: zone).map { [$0] } ?? []
  }

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
    // The record's own bytes, edited: offsets shifted to the record's start.
    var edits = TextEdits(Array(bytes[range]))
    let shift = { (place: Range<Int>) in
      (place.lowerBound - range.lowerBound)..<(place.upperBound - range.lowerBound)
    }
    for (index, member) in members.enumerated() where member.value != old[index].value {
      edits.replace(
        shift(places[index].valueRange), with: Array(compact.string(from: member.value).utf8))
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
      edits.replace(shift(end..<end), with: Array(text.map { "," + $0 }.joined().utf8))
    }
    return edits.applied()
  }

  /// The record at `range` with `task`'s values, in the record's shape (the app's when it
  /// has a `UUID` or is a dictionary's value, else alarmcal's): as for an alarm.
  private func replaced(_ range: Range<Int>, with task: ToDo)
    throws(CollectionCalendar.UnreadableResource) -> [UInt8]
  {
    guard let old = (try? JSONParser().parse(Array(bytes[range])))?.objectValue else {
      throw CollectionCalendar.UnreadableResource(message: "a record is not a JSON object")
    }
    let inDictionary = taskEntries.contains { $0.upperBound == range.upperBound && $0 != range }
    let isApp = inDictionary || old.contains { $0.key == "UUID" }
    let fresh: [JSONMember]?
    if isApp {
      let shaped = AlarmFileWriter.appShape([], tasks: [task], zone: zone).bytes
      fresh = (try? JSONParser().parse(shaped))?.objectValue?.first?.value.objectValue
    } else {
      let written = AlarmFileWriter.bytes([], tasks: [task])
      fresh = (try? JSONParser().parse(written))?["tasks"]?.arrayValue?.first?.objectValue
    }
    guard let fresh else {
      throw CollectionCalendar.UnreadableResource(message: "a record could not be written")
    }
    return record(range, old: old, fresh: fresh, known: AlarmFileReader.taskFieldNames)
  }

  /// The record at `range` with `alarm`'s values: a member the new record has takes its value
  /// in place, a field it no longer has goes, a member alarmcal does not know stays, and new
  /// fields follow. An iOS app record stays one; a record on one line stays on one line.
  private func replaced(_ range: Range<Int>, with alarm: Alarm)
    throws(CollectionCalendar.UnreadableResource) -> [UInt8]
  {
    guard let old = (try? JSONParser().parse(Array(bytes[range])))?.objectValue else {
      throw CollectionCalendar.UnreadableResource(message: "a record is not a JSON object")
    }
    let isApp = old.contains { AlarmFileReader.appAlarmFieldNames.contains($0.key) }
    let fresh: [JSONMember]?
    if isApp {
      let shaped = AlarmFileWriter.appShape([alarm], zone: zone).bytes
      fresh = (try? JSONParser().parse(shaped))?.arrayValue?.first?.objectValue
    } else {
      fresh = AlarmFileWriter.json(alarm).objectValue
    }
    guard let fresh else {
      throw CollectionCalendar.UnreadableResource(message: "a record could not be written")
    }
    return record(range, old: old, fresh: fresh, known: AlarmFileReader.alarmFieldNames)
  }

  /// The record at `range`, whose members are `old`, with the values of `fresh`: a member
  /// `fresh` has takes its value in place, a `known` field it lacks goes, a member alarmcal
  /// does not know stays, and new fields follow. A record on one line stays on one line.
  private func record(
    _ range: Range<Int>, old: [JSONMember], fresh: [JSONMember], known: Set<String>
  ) -> [UInt8] {
    var members: [JSONMember] = []
    var used: Set<String> = []
    for member in old {
      if let value = fresh.first(where: { $0.key == member.key })?.value {
        members.append(JSONMember(member.key, value))
        used.insert(member.key)
      } else if !known.contains(member.key) {
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
