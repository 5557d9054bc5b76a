import ICalendar

/// Decodes one task record as a to-do app stores it (`title`, `deadline`, `UUID`, and
/// optionally `completed`, `notes`, `remindMinutesBefore`, `timeZone`, and the reminder's RFC
/// 9074 state `acknowledgedAt`, `snoozedUntil`, `snoozeUid`), collecting a problem
/// per bad field. The record's key order, its spelling of the deadline and the fields alarmcal
/// does not know are kept on the task, so that it is written back as it came.
struct TaskRecordDecoder {
  let reader: AlarmFileReader
  /// The task's place in its list, 1-based, for messages.
  let index: Int
  let record: JSONValue
  /// The zone of a deadline without one.
  let zone: String
  /// The id for a record without `UUID` (or for a dictionary entry, its key).
  let fallbackID: String
  var problems: [AlarmFileProblem] = []

  /// The record keys a task has; `id` and `uuid` are other names of `UUID`.
  static let keys = Set([
    "title", "deadline", "completed", "notes", "remindMinutesBefore", "timeZone",
  ])
  .union(idKeys).union(stateKeys)

  /// The keys a task's id may be given under.
  static let idKeys: Set<String> = ["UUID", "id", "uuid"]

  /// The keys of the reminder's RFC 9074 state, which `snooze` and `dismiss` write.
  static let stateKeys: Set<String> = ["acknowledgedAt", "snoozedUntil", "snoozeUid"]

  /// What a record without an id is identified by: its members but its state, so that a
  /// snooze or dismissal written into it leaves its derived id as it was.
  static func identityContent(_ record: JSONValue) -> String {
    let members = record.objectValue?.filter { !stateKeys.contains($0.key) }
    return JSONWriter(style: .compact).string(from: members.map(JSONValue.object) ?? record)
  }

  /// Whether a record is a task's: it has a title and a deadline.
  static func isTask(_ record: JSONValue) -> Bool {
    record["title"] != nil && record["deadline"] != nil
  }

  mutating func decode() -> ToDo? {
    guard let members = record.objectValue else {
      fail("must be an object, not \(record.typeName)")
      return nil
    }
    let given = members.map(\.key).filter(Self.idKeys.contains)
    if given.count > 1 {
      fail(
        "\(given.map(quoted).joined(separator: " and ")) are all given; they name the same thing")
    }
    let before = problems.count
    var timeZone = zoneName()
    let id = identifier(given.first)
    let title = text("title", required: true) ?? ""
    let deadline = deadline(in: timeZone)
    // A date is floating: due on the reader's clock (RFC 5545 §3.3.4 gives a DATE no zone).
    if case .on? = deadline { timeZone = reader.defaultTimeZone }
    let completed = flag("completed") ?? false
    let notes = text("notes", required: false)
    let remind = minutesBefore()
    let acknowledgedAt = instant("acknowledgedAt")
    let snoozedUntil = instant("snoozedUntil")
    let snoozeUID = text("snoozeUid", required: false)
    guard problems.count == before, let deadline else { return nil }
    var task = ToDo(
      id: id, title: AlarmTextFormats.normalizedLabel(title), deadline: deadline,
      completed: completed, notes: notes.map(AlarmTextFormats.normalizedLabel),
      remindMinutesBefore: remind, timeZone: timeZone, deadlineLiteral: record["deadline"])
    // The record goes back with the keys it came with: those alarmcal knows and the app's own.
    task.recordKeys = members.map(\.key)
    task.extraFields = members.filter { !Self.keys.contains($0.key) }
    task.acknowledgedAt = acknowledgedAt
    task.snoozedUntil = snoozedUntil
    // A derived UID is not kept: the export derives it again.
    if snoozedUntil != nil, let snoozeUID, snoozeUID != task.exportedSnoozeUID {
      task.snoozeUID = snoozeUID
    }
    return task
  }

  private mutating func fail(_ message: String) {
    problems.append(reader.problem(index, record["title"]?.stringValue, message, noun: "task"))
  }

  private mutating func identifier(_ key: String?) -> String {
    guard let key, let value = record[key] else { return fallbackID }
    guard let text = value.stringValue, !text.isEmpty, !AlarmTextFormats.hasControlCharacters(text)
    else {
      fail("\(key) must be a non-empty string")
      return fallbackID
    }
    return text
  }

  private mutating func text(_ key: String, required: Bool) -> String? {
    guard let value = record[key], value != .null else {
      if required { fail("needs \(quoted(key))") }
      return nil
    }
    guard let text = value.stringValue else {
      fail("\(key) must be a string, not \(value.typeName)")
      return nil
    }
    return text
  }

  /// `acknowledgedAt` or `snoozedUntil`: a date-time with `Z` or an offset; null is none.
  private mutating func instant(_ key: String) -> Instant? {
    guard let text = text(key, required: false) else { return nil }
    guard let instant = AlarmTextFormats.instant(text) else {
      fail(
        "\(key) \(quoted(text)) must be a date-time with Z or an offset, such as 2026-12-02T06:39:00Z"
      )
      return nil
    }
    return instant
  }

  private mutating func flag(_ key: String) -> Bool? {
    guard let value = record[key] else { return nil }
    guard let flag = value.boolValue else {
      fail("\(key) must be true or false, not \(value.typeName)")
      return nil
    }
    return flag
  }

  private mutating func zoneName() -> String {
    guard let value = record["timeZone"] else { return zone }
    guard let name = value.stringValue, TimeZoneRules(identifier: name) != nil else {
      fail(reader.zoneMessage("timeZone", value))
      return zone
    }
    return name
  }

  /// `remindMinutesBefore`: absent is 0 (at the deadline), null is no reminder.
  private mutating func minutesBefore() -> Int? {
    guard let value = record["remindMinutesBefore"] else { return 0 }
    if value == .null { return nil }
    guard let minutes = value.intValue, ToDo.remindMinutesRange.contains(minutes) else {
      fail(
        "remindMinutesBefore must be a whole number of minutes from \(ToDo.remindMinutesRange.lowerBound) (a day after the deadline) to \(ToDo.remindMinutesRange.upperBound), or null"
      )
      return nil
    }
    return minutes
  }

  /// An ISO 8601 date-time (with `Z` or an offset: read on the task's wall clock), a local
  /// date-time in the task's zone, a date (`YYYY-MM-DD`: due that day), or a number:
  /// Foundation's default `Date` encoding, seconds since 2001-01-01T00:00:00Z.
  private mutating func deadline(in zone: String) -> ToDo.Deadline? {
    guard let value = record["deadline"] else {
      fail("needs \"deadline\"")
      return nil
    }
    let rules = TimeZoneRules(identifier: zone) ?? .utc
    if case .number(let literal) = value {
      guard let instant = AlarmTextFormats.foundationDate(literal) else {
        fail("deadline \(literal) is not a Date (seconds since 2001-01-01T00:00:00Z)")
        return nil
      }
      return .at(rules.local(at: instant))
    }
    guard let text = value.stringValue else {
      fail("deadline must be a string or a number, not \(value.typeName)")
      return nil
    }
    if let date = AlarmTextFormats.localDate(text) { return .on(date) }
    if let local = AlarmTextFormats.localDateTime(text) { return .at(local) }
    if let instant = AlarmTextFormats.instant(text) { return .at(rules.local(at: instant)) }
    fail(
      "deadline \(quoted(text)) is not an ISO 8601 date-time (2026-12-07T17:00, with Z or an offset) or a date (2026-12-07)"
    )
    return nil
  }
}
