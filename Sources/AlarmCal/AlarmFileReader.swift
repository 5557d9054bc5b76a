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
    guard let top = topLevel(root, problems: &problems) else {
      return .failure(AlarmFileProblems(problems))
    }
    let tasks = readTasks(top.taskRecords, zone: top.zone, problems: &problems)
    var warnings: [AlarmFileProblem] = []
    let (alarms, positions) = decodeAlarms(
      top.alarmRecords, zone: top.zone, problems: &problems, warnings: &warnings)
    reportRepeatedIDs(alarms, positions: positions, records: top.alarmRecords, problems: &problems)
    guard problems.isEmpty else { return .failure(AlarmFileProblems(problems)) }
    var list = AlarmList(alarms: alarms, tasks: tasks)
    list.warnings = warnings
    return .success(list)
  }

  /// What a list's top level holds: its alarm and task records, and the zone of alarms that
  /// name none.
  private struct TopLevel {
    var alarmRecords: [JSONValue] = []
    /// Each task record with its dictionary key in a to-do app's storage.
    var taskRecords: [(key: String?, record: JSONValue)] = []
    var zone: String
  }

  /// The records of `root` sorted into alarms and tasks, or nil when its shape leaves none to
  /// read (the problems say why).
  private func topLevel(_ root: JSONValue, problems: inout [AlarmFileProblem]) -> TopLevel? {
    var top = TopLevel(zone: defaultTimeZone)
    switch root {
    case .array(let items):
      for item in items {
        if TaskRecordDecoder.isTask(item) {
          top.taskRecords.append((nil, item))
        } else {
          top.alarmRecords.append(item)
        }
      }
      return top
    case .object(let members)
    where root["alarms"] == nil && root["tasks"] == nil && !members.isEmpty
      && members.allSatisfy({ TaskRecordDecoder.isTask($0.value) }):
      // A to-do app's storage: each task under its UUID.
      top.taskRecords = members.map { ($0.key, $0.value) }
      return top
    case .object(let members):
      return wrapped(root, members: members, problems: &problems)
    default:
      problems.append(
        problem(nil, nil, "the top level must be an object or an array, not \(root.typeName)"))
      return nil
    }
  }

  /// The records of alarmcal's own shape, `{"timeZone": ..., "alarms": [...], "tasks": [...]}`,
  /// or nil when it has neither array or one of them is not an array.
  private func wrapped(
    _ root: JSONValue, members: [JSONMember], problems: inout [AlarmFileProblem]
  ) -> TopLevel? {
    var top = TopLevel(zone: defaultTimeZone)
    for member in members {
      switch member.key {
      case "alarms", "tasks", "$schema": break
      case "timeZone":
        if let name = member.value.stringValue, TimeZoneRules(identifier: name) != nil {
          top.zone = name
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
      return nil
    }
    for key in ["alarms", "tasks"] {
      guard let list = root[key] else { continue }
      guard let items = list.arrayValue else {
        problems.append(problem(nil, nil, "\"\(key)\" must be an array, not \(list.typeName)"))
        return nil
      }
      if key == "alarms" {
        top.alarmRecords = items
      } else {
        top.taskRecords = items.map { (nil, $0) }
      }
    }
    return top
  }

  /// A problem for each alarm whose id an earlier alarm has; `positions` are the alarms'
  /// places in `records` (from 1).
  private func reportRepeatedIDs(
    _ alarms: [Alarm], positions: [Int], records: [JSONValue],
    problems: inout [AlarmFileProblem]
  ) {
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
      var decoder = AlarmRecordDecoder(
        reader: self, index: offset + 1, record: record, fields: AlarmRecordFields(record),
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
      // What ``AlarmRecordFields`` finds as the id, looked for without building the fields.
      let hasID = (record.objectValue ?? []).contains { AlarmRecordField.lookUp($0.key)?.0 == .id }
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
  public static let alarmFieldNames: Set<String> = Set(AlarmRecordField.names.keys)
  /// The keys only the iOS app's alarm record has (`alarmTime`, `name`, `repeatDays`, ...).
  public static let appAlarmFieldNames: Set<String> = Set(
    AlarmRecordField.names.filter { $0.value.isAppKey }.keys)
  /// The keys a task record gives its fields under (`UUID`, `title`, `deadline`, ...).
  public static let taskFieldNames: Set<String> = TaskRecordDecoder.keys
}
