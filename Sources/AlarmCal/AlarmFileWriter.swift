import ICalendar

/// Writes alarms in alarmcal's own JSON format, every field explicit, in a fixed order.
public enum AlarmFileWriter {
  /// The JSON value of an alarm list.
  public static func json(_ alarms: [Alarm]) -> JSONValue {
    .object([JSONMember("alarms", .array(alarms.map(json)))])
  }

  /// The file text: pretty-printed JSON and a final newline.
  public static func text(_ alarms: [Alarm]) -> String {
    String(decoding: bytes(alarms), as: UTF8.self)
  }

  /// The file text as UTF-8: what `JSONWriter(style: .pretty)` writes for the list's `json`
  /// and a final newline, written straight from the alarms without making the JSON value.
  public static func bytes(_ alarms: [Alarm], tasks: [ToDo] = []) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.append(literal: "{\n  \"alarms\": ")
    appendObjects(alarms, to: &bytes, write)
    if !tasks.isEmpty {
      bytes.append(literal: ",\n  \"tasks\": ")
      appendObjects(tasks, to: &bytes, write)
    }
    bytes.append(literal: "\n}\n")
    return bytes
  }

  /// Appends `[]`, or an array with one object per item, each written by `write`.
  private static func appendObjects<Item>(
    _ items: [Item], to bytes: inout [UInt8], _ write: (Item, inout [UInt8]) -> Void
  ) {
    guard !items.isEmpty else {
      bytes.append(literal: "[]")
      return
    }
    bytes.append(UInt8(ascii: "["))
    for (offset, item) in items.enumerated() {
      bytes.append(literal: offset == 0 ? "\n    {" : ",\n    {")
      write(item, &bytes)
      bytes.append(literal: "\n    }")
    }
    bytes.append(literal: "\n  ]")
  }

  /// Writes the members of a task's object: `UUID`, `title`, `deadline` (as the record spelled
  /// it, else a local date-time or a date), `completed`, `notes` (when there are any),
  /// `remindMinutesBefore` (null for no reminder), `timeZone` (not for a date deadline, which is
  /// floating), its reminder's RFC 9074 state, then the record's fields alarmcal does not know.
  private static func write(_ task: ToDo, to bytes: inout [UInt8]) {
    bytes.append(literal: "\n      \"UUID\": ")
    JSONWriter.appendString(task.id, to: &bytes)
    bytes.append(literal: ",\n      \"title\": ")
    JSONWriter.appendString(task.title, to: &bytes)
    bytes.append(literal: ",\n      \"deadline\": ")
    JSONWriter(style: .pretty).write(
      TaskDeadlineSpelling.value(of: task, natural: .local), depth: 3, to: &bytes)
    bytes.append(
      literal: task.completed ? ",\n      \"completed\": true" : ",\n      \"completed\": false")
    if let notes = task.notes {
      bytes.append(literal: ",\n      \"notes\": ")
      JSONWriter.appendString(notes, to: &bytes)
    }
    bytes.append(literal: ",\n      \"remindMinutesBefore\": ")
    bytes += (task.remindMinutesBefore.map(String.init) ?? "null").utf8
    if case .at = task.deadline {
      bytes.append(literal: ",\n      \"timeZone\": ")
      JSONWriter.appendString(task.timeZone, to: &bytes)
    }
    appendMembers(taskState(task), depth: 3, to: &bytes)
    appendMembers(task.extraFields, depth: 3, to: &bytes)
  }

  /// The list in the record shape iOS alarm apps store (a bare array of `alarmTime`, `name`,
  /// `repeatDays`, `sound`, `snoozeEnabled`, `isEnabled`, `creatTime`), so an app can read its
  /// alarms back after a calendar round trip; and a note for each alarm whose fields that shape
  /// cannot hold (a one-shot date, a snooze length, a zone other than `zone`). The RFC 9074
  /// state follows a record's other members, as `snooze` and `dismiss` write it.
  public static func appShape(_ alarms: [Alarm], zone: String) -> (
    bytes: [UInt8], omissions: [String]
  ) {
    var bytes: [UInt8] = []
    var omissions: [String] = []
    bytes.append(literal: alarms.isEmpty ? "[" : "[\n")
    for (offset, alarm) in alarms.enumerated() {
      let time: LocalTime
      var days: Set<Weekday> = []
      switch alarm.schedule {
      case .time(let clock, let repeatDays):
        time = clock
        days = repeatDays
      case .at(let local):
        time = local.time
      }
      if let lost = appShapeLoss(of: alarm, zone: zone) {
        omissions.append("alarm \(offset + 1) \(lost)")
      }
      bytes.append(literal: "  {\n    \"alarmTime\": \"")
      appendClock(time, to: &bytes)
      bytes.append(literal: "\",\n    \"name\": ")
      JSONWriter.appendString(alarm.label, to: &bytes)
      bytes.append(literal: ",\n    \"repeatDays\": [")
      let sundayFirst: [Weekday] = [
        .sunday, .monday, .tuesday, .wednesday, .thursday, .friday, .saturday,
      ]
      for (index, day) in sundayFirst.enumerated() {
        if index > 0 { bytes.append(literal: ", ") }
        bytes.append(literal: days.contains(day) ? "true" : "false")
      }
      bytes.append(literal: "]")
      // The app's decoder needs the key: no sound is the empty name, as the app writes it.
      bytes.append(literal: ",\n    \"sound\": ")
      JSONWriter.appendString(alarm.sound ?? "", to: &bytes)
      bytes.append(
        literal: alarm.snooze ? ",\n    \"snoozeEnabled\": true" : ",\n    \"snoozeEnabled\": false"
      )
      bytes.append(
        literal: alarm.enabled ? ",\n    \"isEnabled\": true" : ",\n    \"isEnabled\": false")
      bytes.append(literal: ",\n    \"creatTime\": ")
      JSONWriter.appendString(alarm.id, to: &bytes)
      appendExtraFields(alarm, depth: 2, to: &bytes)
      appendMembers(alarmState(alarm), depth: 2, to: &bytes)
      bytes.append(literal: offset == alarms.count - 1 ? "\n  }\n" : "\n  },\n")
    }
    bytes.append(literal: "]\n")
    return (bytes, omissions)
  }

  /// What the iOS app record cannot hold of `alarm` (a one-shot date, a snooze length, a zone
  /// other than `zone`), as `("label"): the ios shape has no place for ...`; nil when nothing.
  public static func appShapeLoss(of alarm: Alarm, zone: String) -> String? {
    var lost: [String] = []
    if case .at(let local) = alarm.schedule {
      lost.append(
        "its date \(local.date) (the shape rings at the next \(AlarmTextFormats.clockString(local.time)))"
      )
    }
    if alarm.snoozeMinutes != Alarm.defaultSnoozeMinutes {
      lost.append("snoozeMinutes \(alarm.snoozeMinutes)")
    }
    if alarm.timeZone != zone { lost.append("timeZone \(alarm.timeZone) (read in \(zone))") }
    guard !lost.isEmpty else { return nil }
    return
      "(\(quoted(alarm.label))): the ios shape has no place for \(lost.joined(separator: ", "))"
  }

  /// The list in the shape the apps store: the alarms as ``appShape(_:zone:)`` writes them, and
  /// the tasks as a to-do app stores them, each record with the keys it came with, in its order
  /// (for a task from another calendar: `UUID`, `title`, `deadline`, then `completed` when
  /// done, `notes` when there are any, `remindMinutesBefore` unless 0), its deadline as it came
  /// (else a Foundation `Date` number, or a date). Tasks alone are the app's dictionary keyed
  /// by UUID; beside alarms, they follow the alarms in the one array (the layout the reader
  /// takes for a mixed list, each task with its `UUID`). A note for each record whose fields
  /// the shape cannot hold.
  public static func appShape(_ alarms: [Alarm], tasks: [ToDo], zone: String) -> (
    bytes: [UInt8], omissions: [String]
  ) {
    var shaped = appShape(alarms, zone: zone)
    guard !tasks.isEmpty else { return shaped }
    let inArray = !alarms.isEmpty
    if inArray {
      // Reopen the alarms' array after its last record: `\n]\n` off, `,` on.
      shaped.bytes.removeLast(3)
      shaped.bytes.append(UInt8(ascii: ","))
    } else {
      shaped.bytes = [UInt8(ascii: "{")]
    }
    let writer = JSONWriter(style: .pretty)
    for (offset, task) in tasks.enumerated() {
      if offset > 0 { shaped.bytes.append(UInt8(ascii: ",")) }
      shaped.bytes.append(literal: "\n  ")
      if !inArray {
        JSONWriter.appendString(task.id, to: &shaped.bytes)
        shaped.bytes.append(literal: ": ")
      }
      shaped.bytes.append(UInt8(ascii: "{"))
      for (index, member) in appRecord(task, inArray: inArray, zone: zone).enumerated() {
        shaped.bytes.append(literal: index == 0 ? "\n    " : ",\n    ")
        JSONWriter.appendString(member.key, to: &shaped.bytes)
        shaped.bytes.append(literal: ": ")
        writer.write(member.value, depth: 2, to: &shaped.bytes)
      }
      shaped.bytes.append(literal: "\n  }")
    }
    shaped.bytes.append(literal: inArray ? "\n]\n" : "\n}\n")
    return shaped
  }

  /// The members of a task's app record.
  private static func appRecord(_ task: ToDo, inArray: Bool, zone: String) -> [JSONMember] {
    var keys = task.recordKeys
    if keys.isEmpty { keys = ["UUID", "title", "deadline"] }
    // In the array the id has no dictionary key to live in.
    if inArray, !keys.contains(where: TaskRecordDecoder.idKeys.contains) {
      keys.insert("UUID", at: 0)
    }
    // A date deadline is written as a date in any form.
    let deadline = TaskDeadlineSpelling.value(of: task, natural: .dateNumber)
    // A value the record's keys cannot hold gets its key.
    if task.completed, !keys.contains("completed") { keys.append("completed") }
    if task.notes != nil, !keys.contains("notes") { keys.append("notes") }
    if task.remindMinutesBefore != 0, !keys.contains("remindMinutesBefore") {
      keys.append("remindMinutesBefore")
    }
    if case .string(let text) = deadline, AlarmTextFormats.localDateTime(text) != nil,
      task.timeZone != zone, !keys.contains("timeZone")
    {
      keys.append("timeZone")
    }
    // The reminder's state follows the record's members, where `snooze` and `dismiss` add it.
    let state = taskState(task)
    for member in state where !keys.contains(member.key) { keys.append(member.key) }
    var extras = task.extraFields
    var members: [JSONMember] = []
    var written = Set<String>()
    for key in keys {
      let value: JSONValue
      switch key {
      case _ where !TaskRecordDecoder.keys.contains(key):
        guard let index = extras.firstIndex(where: { $0.key == key }) else { continue }
        value = extras.remove(at: index).value
      case _ where !written.insert(key).inserted: continue
      case "title": value = .string(task.title)
      case "deadline": value = deadline
      case "completed": value = .bool(task.completed)
      case "notes": value = task.notes.map(JSONValue.string) ?? .null
      case "remindMinutesBefore":
        value = task.remindMinutesBefore.map { .number(String($0)) } ?? .null
      case "timeZone": value = .string(task.timeZone)
      case _ where TaskRecordDecoder.stateKeys.contains(key):
        guard let member = state.first(where: { $0.key == key }) else { continue }
        value = member.value
      default: value = .string(task.id)
      }
      members.append(JSONMember(key, value))
    }
    return members + extras
  }

  /// A record's RFC 9074 state as members: `alarmUid`, `acknowledgedAt`, `snoozedUntil` and
  /// (with a snooze) `snoozeUid`, each when it has one.
  private static func stateMembers(
    alarmUID: String? = nil, acknowledgedAt: Instant?, snoozedUntil: Instant?,
    snoozeUID: String?
  ) -> [JSONMember] {
    var members: [JSONMember] = []
    if let uid = alarmUID { members.append(JSONMember("alarmUid", .string(uid))) }
    if let acknowledged = acknowledgedAt {
      members.append(JSONMember("acknowledgedAt", .string(acknowledged.description)))
    }
    if let snoozed = snoozedUntil {
      members.append(JSONMember("snoozedUntil", .string(snoozed.description)))
      if let uid = snoozeUID { members.append(JSONMember("snoozeUid", .string(uid))) }
    }
    return members
  }

  /// A task's RFC 9074 state as record members.
  private static func taskState(_ task: ToDo) -> [JSONMember] {
    stateMembers(
      acknowledgedAt: task.acknowledgedAt, snoozedUntil: task.snoozedUntil,
      snoozeUID: task.snoozeUID)
  }

  /// An alarm's RFC 9074 state as record members: in the app's shape after its last member,
  /// where `snooze` and `dismiss` add it (members the app's decoder passes over, and alarmcal
  /// reads back), in alarmcal's after `timeZone`.
  private static func alarmState(_ alarm: Alarm) -> [JSONMember] {
    stateMembers(
      alarmUID: alarm.alarmUID, acknowledgedAt: alarm.acknowledgedAt,
      snoozedUntil: alarm.snoozedUntil, snoozeUID: alarm.snoozeUID)
  }

  /// Writes the members of an alarm's object, each on its own line.
  private static func write(_ alarm: Alarm, to bytes: inout [UInt8]) {
    bytes.append(literal: "\n      \"id\": ")
    JSONWriter.appendString(alarm.id, to: &bytes)
    switch alarm.schedule {
    case .time(let time, let days):
      bytes.append(literal: ",\n      \"time\": \"")
      appendClock(time, to: &bytes)
      bytes.append(literal: "\",\n      \"repeat\": [")
      if days.isEmpty {
        bytes.append(literal: "]")
      } else {
        let ringDays = days.reduce(0) { $0 | 1 << $1.rawValue }
        var first = true
        for day in Weekday.allCases where ringDays & 1 << day.rawValue != 0 {
          bytes.append(literal: first ? "\n        \"" : ",\n        \"")
          bytes.append(text: AlarmTextFormats.name(of: day))
          bytes.append(UInt8(ascii: "\""))
          first = false
        }
        bytes.append(literal: "\n      ]")
      }
    case .at(let local):
      bytes.append(literal: ",\n      \"at\": \"")
      let year = local.date.year
      if (0...9999).contains(year) {
        appendDigits(year / 100, to: &bytes)
        appendDigits(year % 100, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(local.date.month, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(local.date.day, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendClock(local.time, to: &bytes)
      } else {
        bytes += AlarmTextFormats.localDateTimeString(local).utf8
      }
      bytes.append(UInt8(ascii: "\""))
    }
    bytes.append(literal: ",\n      \"label\": ")
    JSONWriter.appendString(alarm.label, to: &bytes)
    if let sound = alarm.sound {
      bytes.append(literal: ",\n      \"sound\": ")
      JSONWriter.appendString(sound, to: &bytes)
    }
    bytes.append(literal: alarm.snooze ? ",\n      \"snooze\": true" : ",\n      \"snooze\": false")
    bytes.append(literal: ",\n      \"snoozeMinutes\": ")
    if (0..<100).contains(alarm.snoozeMinutes) {
      if alarm.snoozeMinutes >= 10 { appendDigit(alarm.snoozeMinutes / 10, to: &bytes) }
      appendDigit(alarm.snoozeMinutes % 10, to: &bytes)
    } else {
      bytes += String(alarm.snoozeMinutes).utf8
    }
    bytes.append(
      literal: alarm.enabled ? ",\n      \"enabled\": true" : ",\n      \"enabled\": false")
    bytes.append(literal: ",\n      \"timeZone\": ")
    JSONWriter.appendString(alarm.timeZone, to: &bytes)
    appendMembers(alarmState(alarm), depth: 3, to: &bytes)
    appendExtraFields(alarm, depth: 3, to: &bytes)
  }

  /// Appends the record's members that alarmcal does not know, as they came, as members
  /// `depth` levels deep.
  private static func appendExtraFields(_ alarm: Alarm, depth: Int, to bytes: inout [UInt8]) {
    appendMembers(alarm.extraFields, depth: depth, to: &bytes)
  }

  /// Appends `members`, each after a comma on a line of its own, `depth` levels deep.
  private static func appendMembers(_ members: [JSONMember], depth: Int, to bytes: inout [UInt8]) {
    let writer = JSONWriter(style: .pretty)
    for member in members {
      bytes.append(UInt8(ascii: ","))
      bytes.append(UInt8(ascii: "\n"))
      bytes += repeatElement(UInt8(ascii: " "), count: 2 * depth)
      JSONWriter.appendString(member.key, to: &bytes)
      bytes.append(literal: ": ")
      writer.write(member.value, depth: depth, to: &bytes)
    }
  }

  /// Appends ``AlarmTextFormats/clockString(_:)``'s `HH:mm` or `HH:mm:ss`.
  private static func appendClock(_ time: LocalTime, to bytes: inout [UInt8]) {
    appendDigits(time.hour, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(time.minute, to: &bytes)
    if time.second != 0 {
      bytes.append(UInt8(ascii: ":"))
      appendDigits(time.second, to: &bytes)
    }
  }

  /// Appends 0 ... 99 as two digits.
  private static func appendDigits(_ value: Int, to bytes: inout [UInt8]) {
    appendDigit(value / 10, to: &bytes)
    appendDigit(value % 10, to: &bytes)
  }

  private static func appendDigit(_ value: Int, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
  }

  /// The JSON object of one alarm.
  public static func json(_ alarm: Alarm) -> JSONValue {
    var members: [JSONMember] = []
    members.reserveCapacity(9)
    members.append(JSONMember("id", .string(alarm.id)))
    switch alarm.schedule {
    case .time(let time, let days):
      members.append(JSONMember("time", .string(AlarmTextFormats.clockString(time))))
      let names = days.sorted().compactMap { AlarmTextFormats.weekdayNames[$0] }
      members.append(JSONMember("repeat", .array(names.map(JSONValue.string))))
    case .at(let local):
      members.append(JSONMember("at", .string(AlarmTextFormats.localDateTimeString(local))))
    }
    members.append(JSONMember("label", .string(alarm.label)))
    if let sound = alarm.sound { members.append(JSONMember("sound", .string(sound))) }
    members.append(JSONMember("snooze", .bool(alarm.snooze)))
    members.append(JSONMember("snoozeMinutes", .number(String(alarm.snoozeMinutes))))
    members.append(JSONMember("enabled", .bool(alarm.enabled)))
    members.append(JSONMember("timeZone", .string(alarm.timeZone)))
    members += alarmState(alarm)
    members += alarm.extraFields
    return .object(members)
  }
}

extension [UInt8] {
  /// Appends a literal's UTF-8 in one copy.
  fileprivate mutating func append(literal: StaticString) {
    literal.withUTF8Buffer { append(contentsOf: $0) }
  }

  /// Appends text's UTF-8, in one copy where the string holds it contiguously.
  fileprivate mutating func append(text: String) {
    let copied: Void? = text.utf8.withContiguousStorageIfAvailable { append(contentsOf: $0) }
    if copied == nil { append(contentsOf: text.utf8) }
  }
}
