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
  /// dozens, and the bound keeps a hostile list's memory bounded (BENCHMARKS.md, README).
  public static let maximumAlarms = 100_000

  /// The alarms in `bytes`, or every problem found.
  public func read(_ bytes: [UInt8]) -> Result<[Alarm], AlarmFileProblems> {
    let root: JSONValue
    do {
      root = try JSONParser(maximumElements: Self.maximumAlarms).parse(bytes)
    } catch {
      return .failure(AlarmFileProblems([problem(nil, nil, "not valid JSON: \(error)")]))
    }
    var problems: [AlarmFileProblem] = []
    var zone = defaultTimeZone
    let records: [JSONValue]
    switch root {
    case .array(let items):
      records = items
    case .object(let members):
      for member in members {
        switch member.key {
        case "alarms", "$schema": break
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
      guard let list = root["alarms"] else {
        problems.append(problem(nil, nil, "no \"alarms\" array at the top level"))
        return .failure(AlarmFileProblems(problems))
      }
      guard let items = list.arrayValue else {
        problems.append(problem(nil, nil, "\"alarms\" must be an array, not \(list.typeName)"))
        return .failure(AlarmFileProblems(problems))
      }
      records = items
    default:
      return .failure(
        AlarmFileProblems([
          problem(nil, nil, "the top level must be an object or an array, not \(root.typeName)")
        ]))
    }
    var alarms: [Alarm] = []
    alarms.reserveCapacity(records.count)
    var identical: [String: Int] = [:]
    var knownZones: [String] = []
    var positions: [Int] = []
    positions.reserveCapacity(records.count)
    for (offset, record) in records.enumerated() {
      let fields = RecordFields(record)
      var derivedID = ""
      if fields[.id] == nil, fields[.creatTime] == nil {
        // Same content, same id, on every run; identical records are told apart by their order.
        let content = JSONWriter(style: .compact).string(from: record)
        let occurrence = identical[content, default: 0]
        identical[content] = occurrence + 1
        derivedID = AlarmIdentifier.derived(from: "\(content)\u{0}\(occurrence)")
      }
      var decoder = RecordDecoder(
        reader: self, index: offset + 1, record: record, fields: fields, zone: zone,
        derivedID: derivedID, problems: [], knownZones: knownZones)
      if let alarm = decoder.decode() {
        alarms.append(alarm)
        positions.append(offset + 1)
      }
      problems += decoder.problems
      knownZones = decoder.knownZones
    }
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
    return problems.isEmpty ? .success(alarms) : .failure(AlarmFileProblems(problems))
  }

  func problem(_ index: Int?, _ name: String?, _ message: String) -> AlarmFileProblem {
    AlarmFileProblem(file: fileName, alarmIndex: index, alarmName: name, message: message)
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

/// A field of either record shape: alarmcal's own or the iOS app's.
private enum Field: Int, CaseIterable {
  // alarmcal's own record.
  case id, time, at, repeats, label, sound, snooze, snoozeMinutes, enabled, timeZone
  // Its RFC 9074 state.
  case alarmUid, acknowledgedAt, snoozedUntil
  // The app's record (which has `sound` too).
  case alarmTime, name, repeatDays, snoozeEnabled, isEnabled, creatTime

  /// The member key.
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
    case .alarmTime: "alarmTime"
    case .name: "name"
    case .repeatDays: "repeatDays"
    case .snoozeEnabled: "snoozeEnabled"
    case .isEnabled: "isEnabled"
    case .creatTime: "creatTime"
    }
  }

  /// The two shapes of a record.
  enum Shape {
    case own, app
  }

  /// Whether a record of `shape` has this field.
  func belongs(to shape: Shape) -> Bool {
    switch shape {
    case .own: rawValue <= Field.snoozedUntil.rawValue
    case .app: self == .sound || rawValue >= Field.alarmTime.rawValue
    }
  }

  /// The field a member key names, if any.
  init?(key: String) {
    // Most keys differ in length, which is quicker to compare than their text: the length
    // leaves at most three candidates.
    let field: Field
    switch key.utf8.count {
    case 2: field = key == "id" ? .id : .at
    case 4: field = key == "time" ? .time : .name
    case 5: field = key == "label" ? .label : .sound
    case 6: field = key == "repeat" ? .repeats : .snooze
    case 7: field = .enabled
    case 8: field = key == "timeZone" ? .timeZone : .alarmUid
    case 9: field = key == "alarmTime" ? .alarmTime : key == "isEnabled" ? .isEnabled : .creatTime
    case 10: field = .repeatDays
    case 12: field = .snoozedUntil
    case 13: field = key == "snoozeMinutes" ? .snoozeMinutes : .snoozeEnabled
    case 14: field = .acknowledgedAt
    default: return nil
    }
    guard field.key == key else { return nil }
    self = field
  }
}

/// A record's members found by field: each key is compared with the field names once.
private struct RecordFields {
  /// The members, or none when the record is not an object.
  let members: [JSONMember]
  /// Where each field's first member is, by the field's raw value; -1 where there is none.
  private var firstMember: [Int]
  /// Whether a member's key names no field of either shape.
  private var hasUnknownKeys = false
  /// The members whose field an earlier member already is, in order.
  private var repeatedFields: [Int] = []
  /// How many members are fields of alarmcal's own record, and of the app's.
  private(set) var ownCount = 0
  private(set) var appCount = 0

  init(_ record: JSONValue) {
    members = record.objectValue ?? []
    firstMember = [Int](repeating: -1, count: Field.allCases.count)
    for (index, member) in members.enumerated() {
      guard let field = Field(key: member.key) else {
        hasUnknownKeys = true
        continue
      }
      if firstMember[field.rawValue] < 0 {
        firstMember[field.rawValue] = index
      } else {
        repeatedFields.append(index)
      }
      if field.belongs(to: .own) { ownCount += 1 }
      if field.belongs(to: .app) { appCount += 1 }
    }
  }

  /// The value of the first member that is `field`.
  subscript(field: Field) -> JSONValue? {
    let index = firstMember[field.rawValue]
    return index < 0 ? nil : members[index].value
  }

  /// The keys of the members that are not fields of `shape`, in order.
  func keys(outside shape: Field.Shape) -> [String] {
    guard (shape == .own ? ownCount : appCount) < members.count else { return [] }
    return members.map(\.key).filter { Field(key: $0)?.belongs(to: shape) != true }
  }

  /// Every key that an earlier member already has, in order.
  var keysGivenTwice: [String] {
    guard !hasUnknownKeys else { return repeatedKeys(members) }
    // Every key names a field: a repeated key is a field seen before.
    return repeatedFields.map { members[$0].key }
  }
}

/// Decodes one alarm record, collecting a problem per bad field.
private struct RecordDecoder {
  let reader: AlarmFileReader
  let index: Int
  let record: JSONValue
  let fields: RecordFields
  let zone: String
  let derivedID: String
  var problems: [AlarmFileProblem]
  /// Zone names already found to be IANA zones: a list names a few zones many times.
  var knownZones: [String]

  private var name: String? {
    fields[.label]?.stringValue ?? fields[.name]?.stringValue
  }

  mutating func decode() -> Alarm? {
    guard case .object = record else {
      fail("must be an object, not \(record.typeName)")
      return nil
    }
    // The shape whose fields the record uses most; alarmTime always means the app's record.
    let isAppRecord = fields[.alarmTime] != nil || fields.appCount > fields.ownCount
    let (required, shape, shapeName): ([Field], Field.Shape, String) =
      isAppRecord
      ? ([.alarmTime], .app, "an app alarm record")
      : ([.time, .at], .own, "an alarm")
    // Without its time, a record is named once, with what it lacks and what it has instead,
    // rather than with a line per field the other shape would have known.
    guard required.contains(where: { fields[$0] != nil }) else {
      let unknown = fields.keys(outside: shape)
      let needs =
        isAppRecord ? "needs \"alarmTime\"" : "needs either \"time\" (with \"repeat\") or \"at\""
      let extra =
        unknown.isEmpty
        ? ""
        : "; \(unknown.map(quoted).joined(separator: ", ")) \(unknown.count == 1 ? "is not a field" : "are not fields") of \(shapeName)"
      fail("\(needs)\(extra)")
      return nil
    }
    return isAppRecord ? decodeAppRecord() : decodeOwn()
  }

  /// A field given twice is ambiguous (JSON readers disagree on which one wins).
  private mutating func failOnRepeatedKeys() {
    for key in fields.keysGivenTwice {
      fail("field \(quoted(key)) is given twice")
    }
  }

  private mutating func fail(_ message: String) {
    problems.append(reader.problem(index, name, message))
  }

  // MARK: alarmcal's own record

  private mutating func decodeOwn() -> Alarm? {
    for key in fields.keys(outside: .own) {
      fail("unknown field \(quoted(key))")
    }
    failOnRepeatedKeys()
    let before = problems.count
    let id = identifier(.id) ?? derivedID
    let schedule = ownSchedule()
    let label = labelText(.label) ?? Alarm.defaultLabel
    let sound = soundName(.sound)
    let snooze = bool(.snooze) ?? true
    let snoozeMinutes = snoozeInterval(.snoozeMinutes)
    let enabled = bool(.enabled) ?? true
    let timeZone = zoneName(.timeZone)
    let alarmUID = fields[.alarmUid] == nil ? nil : identifier(.alarmUid)
    let acknowledgedAt = instant(.acknowledgedAt)
    let snoozedUntil = instant(.snoozedUntil)
    guard problems.count == before, let schedule else { return nil }
    return Alarm(
      id: id, schedule: schedule, label: label, sound: sound, snooze: snooze,
      snoozeMinutes: snoozeMinutes, enabled: enabled, timeZone: timeZone,
      alarmUID: alarmUID == AlarmIdentifier.alarmUID(forAlarm: id) ? nil : alarmUID,
      acknowledgedAt: acknowledgedAt, snoozedUntil: snoozedUntil)
  }

  private mutating func ownSchedule() -> Alarm.Schedule? {
    switch (fields[.time], fields[.at]) {
    case (nil, nil):
      return nil  // decode() reported it
    case (.some, .some):
      fail("has both \"time\" and \"at\"; a one-shot reminder uses \"at\" alone")
      return nil
    case (.some(let value), nil):
      let days = weekdays()
      guard let time = clockTime(.time, value), let days else { return nil }
      return .time(time, repeat: days)
    case (nil, .some(let value)):
      if fields[.repeats] != nil {
        fail("\"repeat\" cannot be combined with \"at\" (a one-shot reminder rings once)")
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

  private mutating func weekdays() -> Set<Weekday>? {
    guard let value = fields[.repeats], value != .null else { return [] }
    guard let items = value.arrayValue else {
      fail("repeat must be an array of weekday names, not \(value.typeName)")
      return nil
    }
    var days = Set<Weekday>(minimumCapacity: min(items.count, 7))
    var ok = true
    for item in items {
      guard let text = item.stringValue, let day = AlarmTextFormats.weekday(named: text) else {
        let shown = item.stringValue.map(quoted) ?? item.typeName
        fail("repeat: \(shown) is not a weekday name (mon, tue, wed, thu, fri, sat, sun)")
        ok = false
        continue
      }
      if !days.insert(day).inserted {
        fail("repeat: \(quoted(text)) is listed twice")
        ok = false
      }
    }
    return ok ? days : nil
  }

  // MARK: the iOS app record

  private mutating func decodeAppRecord() -> Alarm? {
    for key in fields.keys(outside: .app) {
      fail("unknown field \(quoted(key)) in an app alarm record")
    }
    failOnRepeatedKeys()
    let before = problems.count
    let time = fields[.alarmTime].flatMap { clockTime(.alarmTime, $0) }
    let days = appRepeatDays()
    let label = labelText(.name) ?? Alarm.defaultLabel
    let sound = soundName(.sound)
    let snooze = bool(.snoozeEnabled) ?? true
    let enabled = bool(.isEnabled) ?? true
    let id: String
    switch fields[.creatTime] {
    case .string(let text)?: id = identifier(.creatTime) ?? text
    case .number(let literal)?: id = literal
    case nil: id = derivedID
    case let other?:
      fail("creatTime must be a string or a number, not \(other.typeName)")
      id = ""
    }
    guard problems.count == before, let time, let days else { return nil }
    return Alarm(
      id: id, schedule: .time(time, repeat: days), label: label, sound: sound, snooze: snooze,
      enabled: enabled, timeZone: zone)
  }

  private mutating func appRepeatDays() -> Set<Weekday>? {
    guard let value = fields[.repeatDays], value != .null else { return [] }
    guard let items = value.arrayValue, items.count == 7,
      items.allSatisfy({ $0.boolValue != nil })
    else {
      fail("repeatDays must be an array of 7 booleans, Sunday first")
      return nil
    }
    // Sunday first: index 0 is Sunday, 1 Monday, ... 6 Saturday.
    let sundayFirst: [Weekday] = [
      .sunday, .monday, .tuesday, .wednesday, .thursday, .friday, .saturday,
    ]
    return Set(zip(sundayFirst, items).filter { $0.1.boolValue == true }.map(\.0))
  }

  // MARK: fields

  private mutating func clockTime(_ field: Field, _ value: JSONValue) -> LocalTime? {
    guard let text = value.stringValue else {
      fail("\(field.key) must be a string, not \(value.typeName)")
      return nil
    }
    guard let time = AlarmTextFormats.clockTime(text) else {
      fail("\(field.key) \(quoted(text)) is not a valid HH:mm time")
      return nil
    }
    return time
  }

  private mutating func string(_ field: Field) -> String? {
    guard let value = fields[field] else { return nil }
    guard let text = value.stringValue else {
      fail("\(field.key) must be a string, not \(value.typeName)")
      return nil
    }
    return text
  }

  /// Labels lose surrounding white space (iCalendar readers such as libical drop it) and CR or
  /// CRLF becomes LF (TEXT has one line-break escape), so labels survive a round trip; other
  /// control characters are refused, as RFC 5545 §3.3.11 does not allow them in TEXT.
  static func normalizedLabel(_ text: String) -> String {
    // Most labels start and end with a visible ASCII character and hold no CR: nothing to do.
    if hasVisibleASCIIEnds(text), !text.utf8.contains(0x0D) {
      return text
    }
    let lines = text.replacingOccurrences(of: "\r\n", with: "\n")
    return lines.replacingOccurrences(of: "\r", with: "\n")
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Whether `text` starts and ends with visible ASCII, so trimming white space of any kind
  /// would leave it as it is (Foundation's trimming is slow enough to matter per record).
  static func hasVisibleASCIIEnds(_ text: String) -> Bool {
    guard let first = text.utf8.first, let last = text.utf8.last else { return false }
    return (0x21...0x7E).contains(first) && (0x21...0x7E).contains(last)
  }

  /// Whether `text` holds a C0 control character or DEL (each one UTF-8 byte, which no other
  /// character's encoding uses).
  static func hasControlCharacters(_ text: String) -> Bool {
    text.utf8.contains { $0 < 0x20 || $0 == 0x7F }
  }

  private mutating func labelText(_ field: Field) -> String? {
    guard let text = string(field) else { return nil }
    let label = Self.normalizedLabel(text)
    if label.utf8.contains(where: {
      ($0 < 0x20 && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\t")) || $0 == 0x7F
    }) {
      fail("\(field.key) \(quoted(text)) contains control characters")
      return nil
    }
    return label
  }

  private mutating func identifier(_ field: Field) -> String? {
    guard let text = string(field) else { return nil }
    if text.isEmpty
      || (!Self.hasVisibleASCIIEnds(text)
        && text != text.trimmingCharacters(in: .whitespacesAndNewlines))
      || Self.hasControlCharacters(text)
    {
      fail(
        "\(field.key) \(quoted(text)) must be non-empty, without surrounding spaces or control characters"
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
        "\(field.key) \(quoted(text)) must be a date-time with Z or an offset, such as 2026-12-02T06:39:00Z"
      )
      return nil
    }
    return instant
  }

  private mutating func soundName(_ field: Field) -> String? {
    if fields[field] == .null { return nil }
    guard let text = string(field) else { return nil }
    let trimmed =
      Self.hasVisibleASCIIEnds(text) ? text : text.trimmingCharacters(in: .whitespaces)
    if trimmed.isEmpty { return nil }
    if Self.hasControlCharacters(trimmed) {
      fail("\(field.key) \(quoted(text)) contains control characters")
      return nil
    }
    return trimmed
  }

  private mutating func bool(_ field: Field) -> Bool? {
    guard let value = fields[field] else { return nil }
    guard let flag = value.boolValue else {
      fail("\(field.key) must be true or false, not \(value.typeName)")
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
        "\(field.key) must be a whole number of minutes from \(Alarm.snoozeMinutesRange.lowerBound) to \(Alarm.snoozeMinutesRange.upperBound), not \(shown)"
      )
      return Alarm.defaultSnoozeMinutes
    }
    return minutes
  }

  private mutating func zoneName(_ field: Field) -> String {
    guard let value = fields[field] else { return zone }
    guard let name = value.stringValue, isKnownZone(name) else {
      fail(reader.zoneMessage(field.key, value))
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
