import Foundation
import ICalendar

/// Reads alarm lists: alarmcal's own format and the record shape iOS alarm apps persist.
///
/// Every problem is collected, so one run reports them all; nothing is returned on any problem.
public struct AlarmFileReader: Sendable {
  /// The file name used in messages.
  public let fileName: String
  /// The zone for alarms that name none and sit in a file without a default.
  public let defaultTimeZone: String

  /// Creates a reader.
  public init(fileName: String, defaultTimeZone: String) {
    self.fileName = fileName
    self.defaultTimeZone = defaultTimeZone
  }

  /// The most alarms (and elements of any JSON array) a list may hold: a clock app keeps
  /// dozens, and the bound keeps a hostile list's memory bounded (docs/limits.md).
  public static let maximumAlarms = 100_000

  /// The alarms in `bytes` (tasks beside them are left to ``readList(_:)``), or every problem
  /// found.
  public func read(_ bytes: [UInt8]) -> Result<[Alarm], AlarmFileProblems> {
    readList(bytes).map(\.alarms)
  }

  /// The alarms and tasks in `bytes`, or every problem found: `{"alarms": [...], "tasks":
  /// [...]}`, a bare list of records (a record with `title` and `deadline` is a task), or a
  /// to-do app's own storage, a dictionary of tasks keyed by their UUID.
  public func readList(_ bytes: [UInt8]) -> Result<AlarmList, AlarmFileProblems> {
    let root: JSONValue
    do {
      root = try JSONParser(maximumElements: Self.maximumAlarms).parse(bytes)
    } catch {
      return .failure(AlarmFileProblems([problem(nil, nil, "not valid JSON: \(error)")]))
    }
    var problems: [AlarmFileProblem] = []
    var zone = defaultTimeZone
    var records: [JSONValue] = []
    var taskRecords: [(key: String?, record: JSONValue)] = []
    switch root {
    case .array(let items):
      for item in items {
        if TaskRecordDecoder.isTask(item) {
          taskRecords.append((nil, item))
        } else {
          records.append(item)
        }
      }
    case .object(let members)
    where root["alarms"] == nil && root["tasks"] == nil && !members.isEmpty
      && members.allSatisfy({ TaskRecordDecoder.isTask($0.value) }):
      // A to-do app's storage: each task under its UUID.
      taskRecords = members.map { ($0.key, $0.value) }
    case .object(let members):
      for member in members {
        switch member.key {
        case "alarms", "tasks", "$schema": break
        case "timeZone":
          if let name = member.value.stringValue, TimeZoneRules(identifier: name) != nil {
            zone = name
          } else {
            problems.append(problem(nil, nil, zoneMessage("timeZone", member.value)))
          }
        default:
          problems.append(problem(nil, nil, "unknown top-level field \(quoted(member.key))"))
        }
      }
      for key in repeatedKeys(members) {
        problems.append(problem(nil, nil, "top-level field \(quoted(key)) is given twice"))
      }
      guard root["alarms"] != nil || root["tasks"] != nil else {
        problems.append(problem(nil, nil, "no \"alarms\" array at the top level"))
        return .failure(AlarmFileProblems(problems))
      }
      for key in ["alarms", "tasks"] {
        guard let list = root[key] else { continue }
        guard let items = list.arrayValue else {
          problems.append(problem(nil, nil, "\"\(key)\" must be an array, not \(list.typeName)"))
          return .failure(AlarmFileProblems(problems))
        }
        if key == "alarms" { records = items } else { taskRecords = items.map { (nil, $0) } }
      }
    default:
      return .failure(
        AlarmFileProblems([
          problem(nil, nil, "the top level must be an object or an array, not \(root.typeName)")
        ]))
    }
    let tasks = readTasks(taskRecords, zone: zone, problems: &problems)
    var warnings: [AlarmFileProblem] = []
    let (alarms, positions) = decodeAlarms(
      records, zone: zone, problems: &problems, warnings: &warnings)
    var seen: [String: Int] = [:]
    seen.reserveCapacity(alarms.count)
    for (alarm, position) in zip(alarms, positions) {
      if let first = seen[alarm.id] {
        let name =
          records[position - 1]["label"]?.stringValue ?? records[position - 1]["name"]?.stringValue
        problems.append(
          problem(position, name, "id \(quoted(alarm.id)) is already used by alarm \(first)"))
      } else {
        seen[alarm.id] = position
      }
    }
    guard problems.isEmpty else { return .failure(AlarmFileProblems(problems)) }
    var list = AlarmList(alarms: alarms, tasks: tasks)
    list.warnings = warnings
    return .success(list)
  }

  /// The alarms of `records` and each one's place in them (from 1), each record decoded on its
  /// own.
  private func decodeAlarms(
    _ records: [JSONValue], zone: String, problems: inout [AlarmFileProblem],
    warnings: inout [AlarmFileProblem]
  ) -> (alarms: [Alarm], positions: [Int]) {
    let derivedIDs = derivedIDs(records)
    var alarms: [Alarm] = []
    var positions: [Int] = []
    alarms.reserveCapacity(records.count)
    positions.reserveCapacity(records.count)
    var knownZones: [String] = []
    for (offset, record) in records.enumerated() {
      var decoder = RecordDecoder(
        reader: self, index: offset + 1, record: record, fields: RecordFields(record),
        zone: zone, derivedID: derivedIDs[offset] ?? "", problems: [], knownZones: knownZones)
      if let alarm = decoder.decode() {
        alarms.append(alarm)
        positions.append(offset + 1)
      }
      problems += decoder.problems
      warnings += decoder.warnings
      knownZones = decoder.knownZones
    }
    return (alarms, positions)
  }

  /// The id of each record that has none, derived from its content (nil for the others): the
  /// same content gives the same id on every run, and identical records are told apart by
  /// their order.
  private func derivedIDs(_ records: [JSONValue]) -> [String?] {
    var identical: [String: Int] = [:]
    return records.map { record in
      // What ``RecordFields`` finds as the id, looked for without building the fields.
      let hasID = (record.objectValue ?? []).contains { Field.lookUp($0.key)?.0 == .id }
      guard !hasID else { return nil }
      let content = JSONWriter(style: .compact).string(from: record)
      let occurrence = identical[content, default: 0]
      identical[content] = occurrence + 1
      return AlarmIdentifier.derived(from: "\(content)\u{0}\(occurrence)")
    }
  }

  /// The tasks of `records`, each id given once; a record without a UUID gets its dictionary
  /// key, else an id derived from its content.
  private func readTasks(
    _ records: [(key: String?, record: JSONValue)], zone: String,
    problems: inout [AlarmFileProblem]
  ) -> [ToDo] {
    var tasks: [ToDo] = []
    var seen: [String: Int] = [:]
    for (offset, entry) in records.enumerated() {
      let content = TaskRecordDecoder.identityContent(entry.record)
      var decoder = TaskRecordDecoder(
        reader: self, index: offset + 1, record: entry.record, zone: zone,
        fallbackID: entry.key ?? AlarmIdentifier.derived(from: "task\u{0}\(content)\u{0}\(offset)"))
      if let task = decoder.decode() {
        if let first = seen[task.id] {
          problems.append(
            problem(
              offset + 1, task.title, "id \(quoted(task.id)) is already used by task \(first)",
              noun: "task"))
        } else {
          seen[task.id] = offset + 1
          tasks.append(task)
        }
      }
      problems += decoder.problems
    }
    return tasks
  }

  func problem(_ index: Int?, _ name: String?, _ message: String, noun: String = "alarm")
    -> AlarmFileProblem
  {
    AlarmFileProblem(
      file: fileName, alarmIndex: index, alarmName: name, message: message, noun: noun)
  }

  func zoneMessage(_ field: String, _ value: JSONValue) -> String {
    guard let name = value.stringValue else {
      return "\(field) must be a string, not \(value.typeName)"
    }
    return "\(field) \(quoted(name)) is not a known IANA time zone"
  }
}

/// Every problem found in one alarm file.
public struct AlarmFileProblems: Error, Equatable, Sendable {
  /// The problems in file order.
  public let problems: [AlarmFileProblem]

  /// Wraps problems.
  public init(_ problems: [AlarmFileProblem]) { self.problems = problems }
}

/// Every key of `members` that an earlier member already has, in order.
private func repeatedKeys(_ members: [JSONMember]) -> [String] {
  // A record has a dozen members: comparing each with those before it beats hashing them.
  guard members.count > 16 else {
    return members.indices.filter { index in
      members[..<index].contains { $0.key == members[index].key }
    }.map { members[$0].key }
  }
  var keys = Set<String>()
  return members.filter { !keys.insert($0.key).inserted }.map(\.key)
}

extension AlarmFileReader {
  /// The keys an alarm record gives its fields under, of either shape (`time`, `alarmTime`,
  /// `label`, `name`, ...).
  public static let alarmFieldNames: Set<String> = Set(Field.names.keys)
  /// The keys only the iOS app's alarm record has (`alarmTime`, `name`, `repeatDays`, ...).
  public static let appAlarmFieldNames: Set<String> = Set(
    Field.names.filter { $0.value.isAppKey }.keys)
  /// The keys a task record gives its fields under (`UUID`, `title`, `deadline`, ...).
  public static let taskFieldNames: Set<String> = TaskRecordDecoder.keys
}

/// What a record field means. Each has the names alarm apps write for it: alarmcal's own
/// first, then the synonyms (docs/formats.md).
private enum Field: Int, CaseIterable {
  case id, time, at, repeats, label, sound, snooze, snoozeMinutes, enabled, timeZone
  // The RFC 9074 state.
  case alarmUid, acknowledgedAt, snoozedUntil, snoozeUid

  /// alarmcal's own key.
  var key: String {
    switch self {
    case .id: "id"
    case .time: "time"
    case .at: "at"
    case .repeats: "repeat"
    case .label: "label"
    case .sound: "sound"
    case .snooze: "snooze"
    case .snoozeMinutes: "snoozeMinutes"
    case .enabled: "enabled"
    case .timeZone: "timeZone"
    case .alarmUid: "alarmUid"
    case .acknowledgedAt: "acknowledgedAt"
    case .snoozedUntil: "snoozedUntil"
    case .snoozeUid: "snoozeUid"
    }
  }

  /// Every key a record may give a field under: alarmcal's own, the synonyms, and the iOS app
  /// record's (`isAppKey`).
  static let names: [String: (field: Field, isAppKey: Bool)] = [
    "id": (.id, false), "uuid": (.id, false), "identifier": (.id, false),
    "creatTime": (.id, true), "time": (.time, false), "alarmTime": (.time, true),
    "at": (.at, false), "repeat": (.repeats, false), "weekdays": (.repeats, false),
    "repeatWeekdays": (.repeats, false), "repeatDays": (.repeats, true),
    "label": (.label, false), "name": (.label, true), "sound": (.sound, false),
    "snooze": (.snooze, false), "snoozeEnabled": (.snooze, true),
    "snoozeMinutes": (.snoozeMinutes, false), "enabled": (.enabled, false),
    "isEnabled": (.enabled, true), "timeZone": (.timeZone, false),
    "alarmUid": (.alarmUid, false), "acknowledgedAt": (.acknowledgedAt, false),
    "snoozedUntil": (.snoozedUntil, false), "snoozeUid": (.snoozeUid, false),
  ]

  /// ``names``' keys in order, so a near miss names the same field on every run.
  private static let sortedNames = names.keys.sorted()

  /// The field a key names and whether the key is one of the iOS app record's.
  static func lookUp(_ key: String) -> (Field, isAppKey: Bool)? {
    names[key].map { ($0.field, $0.isAppKey) }
  }

  /// The known key that `key` is one typing slip away from (one letter added, left out,
  /// changed, or two neighbours swapped), if any: `lable` for `label`.
  static func nearMiss(_ key: String) -> String? {
    let typed = Array(key.unicodeScalars)
    return sortedNames.first { isOneSlip(typed, Array($0.unicodeScalars)) }
  }

  private static func isOneSlip(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
    guard a != b, abs(a.count - b.count) <= 1, min(a.count, b.count) >= 2 else { return false }
    var start = 0
    while start < min(a.count, b.count), a[start] == b[start] { start += 1 }
    var endA = a.count
    var endB = b.count
    while endA > start, endB > start, a[endA - 1] == b[endB - 1] {
      endA -= 1
      endB -= 1
    }
    let (left, right) = (endA - start, endB - start)
    if left + right == 1 || (left == 1 && right == 1) { return true }
    return left == 2 && right == 2 && a[start] == b[start + 1] && a[start + 1] == b[start]
  }
}

/// A record's members found by field: each key is compared with the field names once.
private struct RecordFields {
  /// The members, or none when the record is not an object.
  let members: [JSONMember]
  /// Where each field's first member is, by the field's raw value; -1 where there is none.
  private var firstMember: [Int]
  /// Members whose key names no field, in order.
  private(set) var unknownKeys: [String] = []
  /// Members whose field an earlier member already gave, in order: the same key twice, or
  /// two names of one field (`label` and `name`).
  private(set) var repeated: [(key: String, earlier: String)] = []
  /// How many members are keys only the iOS app record has.
  private(set) var appCount = 0

  init(_ record: JSONValue) {
    members = record.objectValue ?? []
    firstMember = [Int](repeating: -1, count: Field.allCases.count)
    for (index, member) in members.enumerated() {
      guard let (field, isAppKey) = Field.lookUp(member.key) else {
        unknownKeys.append(member.key)
        continue
      }
      if isAppKey { appCount += 1 }
      let first = firstMember[field.rawValue]
      if first < 0 {
        firstMember[field.rawValue] = index
      } else {
        repeated.append((member.key, members[first].key))
      }
    }
  }

  /// The value of the first member that is `field`.
  subscript(field: Field) -> JSONValue? {
    let index = firstMember[field.rawValue]
    return index < 0 ? nil : members[index].value
  }

  /// The key the record gives `field` under (alarmcal's own when it gives none).
  func name(_ field: Field) -> String {
    let index = firstMember[field.rawValue]
    return index < 0 ? field.key : members[index].key
  }

  /// Whether the record is the iOS app's: it has `alarmTime`, or more of the app's keys than
  /// of alarmcal's.
  var isAppRecord: Bool {
    let index = firstMember[Field.time.rawValue]
    if index >= 0 { return members[index].key == "alarmTime" }
    return appCount > 0 && appCount * 2 >= members.count - unknownKeys.count
  }
}

/// Decodes one alarm record of any accepted shape, collecting a problem per bad field.
private struct RecordDecoder {
  let reader: AlarmFileReader
  let index: Int
  let record: JSONValue
  let fields: RecordFields
  let zone: String
  let derivedID: String
  var problems: [AlarmFileProblem]
  /// What is kept but worth a look (a field one slip away from a known name).
  var warnings: [AlarmFileProblem] = []
  /// Zone names already found to be IANA zones: a list names a few zones many times.
  var knownZones: [String]

  private var name: String? { fields[.label]?.stringValue }

  mutating func decode() -> Alarm? {
    guard case .object = record else {
      fail("must be an object, not \(record.typeName)")
      return nil
    }
    let isAppRecord = fields.isAppRecord
    let shapeName = isAppRecord ? "an app alarm record" : "an alarm"
    // Without its time, a record is named once, with what it lacks and what it has instead,
    // rather than with a line per field the other shape would have known.
    guard fields[.time] != nil || fields[.at] != nil else {
      let unknown = fields.unknownKeys
      let needs =
        isAppRecord ? "needs \"alarmTime\"" : "needs either \"time\" (with \"repeat\") or \"at\""
      let extra =
        unknown.isEmpty
        ? ""
        : "; \(unknown.map(quoted).joined(separator: ", ")) \(unknown.count == 1 ? "is not a field" : "are not fields") of \(shapeName)"
      fail("\(needs)\(extra)")
      return nil
    }
    for key in fields.unknownKeys {
      if let known = Field.nearMiss(key) {
        warnings.append(
          reader.problem(
            index, name,
            "field \(quoted(key)) is not one alarmcal knows; did you mean \(quoted(known))? It is kept as it is"
          ))
      }
    }
    for (key, earlier) in fields.repeated {
      fail(
        key == earlier
          ? "field \(quoted(key)) is given twice"
          : "\(quoted(earlier)) and \(quoted(key)) are both given; they name the same thing")
    }
    let before = problems.count
    let timeZone = zoneName(.timeZone)
    let id = alarmID()
    let schedule = alarmSchedule(in: timeZone)
    let label = labelText(.label) ?? Alarm.defaultLabel
    let sound = soundName(.sound)
    let snooze = bool(.snooze) ?? true
    let snoozeMinutes = snoozeInterval(.snoozeMinutes)
    let enabled = bool(.enabled) ?? true
    let alarmUID = fields[.alarmUid] == nil ? nil : identifier(.alarmUid)
    let acknowledgedAt = instant(.acknowledgedAt)
    let snoozedUntil = instant(.snoozedUntil)
    // null is none: a dismissal leaves it so.
    let snoozeUID =
      fields[.snoozeUid] == nil || fields[.snoozeUid] == .null ? nil : identifier(.snoozeUid)
    guard problems.count == before, let schedule else { return nil }
    var alarm = Alarm(
      id: id, schedule: schedule, label: label, sound: sound, snooze: snooze,
      snoozeMinutes: snoozeMinutes, enabled: enabled, timeZone: timeZone,
      alarmUID: alarmUID.flatMap { $0 == AlarmIdentifier.alarmUID(forAlarm: id) ? nil : $0 },
      acknowledgedAt: acknowledgedAt, snoozedUntil: snoozedUntil)
    alarm.extraFields = fields.members.filter { Field.lookUp($0.key) == nil }
    if snoozedUntil != nil, let snoozeUID, snoozeUID != alarm.exportedSnoozeUID {
      alarm.snoozeUID = snoozeUID
    }
    return alarm
  }

  private mutating func fail(_ message: String) {
    problems.append(reader.problem(index, name, message))
  }

  /// The id: a string, or a number (the app's `creatTime` may be one); derived when absent.
  private mutating func alarmID() -> String {
    switch fields[.id] {
    case .string?: return identifier(.id) ?? ""
    case .number(let literal)?: return literal
    case nil: return derivedID
    case let other?:
      fail("\(fields.name(.id)) must be a string or a number, not \(other.typeName)")
      return ""
    }
  }

  private mutating func alarmSchedule(in zone: String) -> Alarm.Schedule? {
    switch (fields[.time], fields[.at]) {
    case (nil, nil):
      return nil  // decode() reported it
    case (.some, .some):
      fail("has both \"\(fields.name(.time))\" and \"at\"; a one-shot reminder uses \"at\" alone")
      return nil
    case (.some(let value), nil):
      let days = weekdays()
      guard let time = timeOfDay(value, in: zone), let days else { return nil }
      return .time(time, repeat: days)
    case (nil, .some(let value)):
      if fields[.repeats] != nil {
        fail(
          "\"\(fields.name(.repeats))\" cannot be combined with \"at\" (a one-shot reminder rings once)"
        )
      }
      guard let text = value.stringValue else {
        fail("at must be a string, not \(value.typeName)")
        return nil
      }
      guard let local = AlarmTextFormats.localDateTime(text) else {
        fail("at \(quoted(text)) is not a valid local date-time (YYYY-MM-DDTHH:mm)")
        return nil
      }
      return .at(local)
    }
  }

  /// A time of day: `HH:mm`, `H:mm` (with `:ss`), an ISO 8601 date-time (its reading in the
  /// alarm's zone when it has `Z` or an offset), or a number: Foundation's `Date`, seconds
  /// since 2001-01-01T00:00:00Z, read in the alarm's zone.
  private mutating func timeOfDay(_ value: JSONValue, in zone: String) -> LocalTime? {
    let key = fields.name(.time)
    if case .number(let literal) = value {
      guard let instant = AlarmTextFormats.foundationDate(literal),
        let rules = TimeZoneRules(identifier: zone)
      else {
        fail("\(key) \(literal) is not a Date (seconds since 2001-01-01T00:00:00Z)")
        return nil
      }
      guard Self.plausibleDates.contains(instant) else {
        fail(
          "\(key) \(literal) read as a Date (seconds since 2001-01-01T00:00:00Z) is \(instant), outside 2001-01-02 to 2100; \(Self.likelyIntent(literal))"
        )
        return nil
      }
      return rules.local(at: instant).time
    }
    guard let text = value.stringValue else {
      fail("\(key) must be a string or a number, not \(value.typeName)")
      return nil
    }
    let utf8 = text.utf8
    let padded = (utf8.count == 4 || utf8.count == 7) && utf8.dropFirst().first == UInt8(ascii: ":")
    if let time = AlarmTextFormats.clockTime(padded ? "0" + text : text) { return time }
    if text.contains("T") {
      if let local = AlarmTextFormats.localDateTime(text) { return local.time }
      if let instant = AlarmTextFormats.instant(text), let rules = TimeZoneRules(identifier: zone) {
        return rules.local(at: instant).time
      }
    }
    fail("\(key) \(quoted(text)) is not a valid HH:mm time")
    return nil
  }

  /// The `Date` numbers an app may have stored for an alarm: 2001-01-02 up to 2100. One
  /// outside is a different value typed as a number.
  static let plausibleDates =
    Instant(secondsSince1970: 978_393_600)..<Instant(secondsSince1970: 4_102_444_800)

  /// What a number that is no plausible `Date` was probably meant to be.
  static func likelyIntent(_ literal: String) -> String {
    if let number = Int(literal), (0...2359).contains(number), number % 100 < 60 {
      let text = String(number)
      let padded = String(repeating: "0", count: 4 - text.count) + text
      return
        "if it is the clock time \(padded.prefix(2)):\(padded.suffix(2)), write it as the string \"\(padded.prefix(2)):\(padded.suffix(2))\""
    }
    return "write the time as a string such as \"07:30\""
  }

  /// Weekdays, under any of the field's names: names (`mon`, `Mon`, `monday`), Calendar
  /// weekday numbers (1 = Sunday ... 7 = Saturday), or seven booleans, Sunday first.
  private mutating func weekdays() -> Set<Weekday>? {
    guard let value = fields[.repeats], value != .null else { return [] }
    let key = fields.name(.repeats)
    guard let items = value.arrayValue else {
      fail("\(key) must be an array of weekday names, not \(value.typeName)")
      return nil
    }
    if items.contains(where: { $0.boolValue != nil }) {
      guard items.count == 7, items.allSatisfy({ $0.boolValue != nil }) else {
        fail("\(key) must be an array of 7 booleans, Sunday first")
        return nil
      }
      let sundayFirst: [Weekday] = [
        .sunday, .monday, .tuesday, .wednesday, .thursday, .friday, .saturday,
      ]
      return Set(zip(sundayFirst, items).filter { $0.1.boolValue == true }.map(\.0))
    }
    var days = Set<Weekday>(minimumCapacity: min(items.count, 7))
    var ok = true
    for item in items {
      var day: Weekday?
      if let text = item.stringValue {
        day = AlarmTextFormats.weekday(named: text)
      } else if let number = item.intValue, (1...7).contains(number) {
        // Calendar's weekday numbers: 1 is Sunday.
        day = Weekday(rawValue: number == 1 ? 7 : number - 1)
      }
      guard let day else {
        let shown: String
        if case .number(let literal) = item {
          shown = literal
        } else {
          shown = item.stringValue.map(quoted) ?? item.typeName
        }
        fail(
          "\(key): \(shown) is not a weekday name (mon, tue, wed, thu, fri, sat, sun) or number (1 = Sunday ... 7 = Saturday)"
        )
        ok = false
        continue
      }
      if !days.insert(day).inserted {
        fail("\(key): \(item.stringValue.map(quoted) ?? "\(day)") is listed twice")
        ok = false
      }
    }
    return ok ? days : nil
  }

  // MARK: fields

  private mutating func string(_ field: Field) -> String? {
    guard let value = fields[field] else { return nil }
    guard let text = value.stringValue else {
      fail("\(fields.name(field)) must be a string, not \(value.typeName)")
      return nil
    }
    return text
  }

  private mutating func labelText(_ field: Field) -> String? {
    guard let text = string(field) else { return nil }
    let label = AlarmTextFormats.normalizedLabel(text)
    if label.utf8.contains(where: {
      ($0 < 0x20 && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\t")) || $0 == 0x7F
    }) {
      fail("\(fields.name(field)) \(quoted(text)) contains control characters")
      return nil
    }
    return label
  }

  private mutating func identifier(_ field: Field) -> String? {
    guard let text = string(field) else { return nil }
    if text.isEmpty
      || (!AlarmTextFormats.hasVisibleASCIIEnds(text)
        && text != text.trimmingCharacters(in: .whitespacesAndNewlines))
      || AlarmTextFormats.hasControlCharacters(text)
    {
      fail(
        "\(fields.name(field)) \(quoted(text)) must be non-empty, without surrounding spaces or control characters"
      )
      return nil
    }
    return text
  }

  /// An instant written with `Z` or an offset (RFC 9074 times are UTC); null is none.
  private mutating func instant(_ field: Field) -> Instant? {
    if fields[field] == nil || fields[field] == .null { return nil }
    guard let text = string(field) else { return nil }
    guard let instant = AlarmTextFormats.instant(text) else {
      fail(
        "\(fields.name(field)) \(quoted(text)) must be a date-time with Z or an offset, such as 2026-12-02T06:39:00Z"
      )
      return nil
    }
    return instant
  }

  private mutating func soundName(_ field: Field) -> String? {
    if fields[field] == .null { return nil }
    guard let text = string(field) else { return nil }
    let trimmed =
      AlarmTextFormats.hasVisibleASCIIEnds(text) ? text : text.trimmingCharacters(in: .whitespaces)
    if trimmed.isEmpty { return nil }
    if AlarmTextFormats.hasControlCharacters(trimmed) {
      fail("\(fields.name(field)) \(quoted(text)) contains control characters")
      return nil
    }
    return trimmed
  }

  private mutating func bool(_ field: Field) -> Bool? {
    guard let value = fields[field] else { return nil }
    guard let flag = value.boolValue else {
      fail("\(fields.name(field)) must be true or false, not \(value.typeName)")
      return nil
    }
    return flag
  }

  private mutating func snoozeInterval(_ field: Field) -> Int {
    guard let value = fields[field] else { return Alarm.defaultSnoozeMinutes }
    var whole = value.intValue
    if whole == nil, case .number(let literal) = value, let number = Double(literal),
      number == number.rounded(), abs(number) < 1e9
    {
      whole = Int(number)
    }
    guard let minutes = whole, Alarm.snoozeMinutesRange.contains(minutes) else {
      let shown: String
      if case .number(let literal) = value { shown = literal } else { shown = value.typeName }
      fail(
        "\(fields.name(field)) must be a whole number of minutes from \(Alarm.snoozeMinutesRange.lowerBound) to \(Alarm.snoozeMinutesRange.upperBound), not \(shown)"
      )
      return Alarm.defaultSnoozeMinutes
    }
    return minutes
  }

  private mutating func zoneName(_ field: Field) -> String {
    guard let value = fields[field] else { return zone }
    guard let name = value.stringValue, isKnownZone(name) else {
      fail(reader.zoneMessage(fields.name(field), value))
      return zone
    }
    return name
  }

  private mutating func isKnownZone(_ name: String) -> Bool {
    // Comparing with the few names already found beats hashing the name; a list naming more
    // zones than that looks the others up each time.
    let length = name.utf8.count
    if knownZones.contains(where: { $0.utf8.count == length && $0 == name }) { return true }
    guard TimeZoneRules(identifier: name) != nil else { return false }
    if knownZones.count < 32 { knownZones.append(name) }
    return true
  }
}
