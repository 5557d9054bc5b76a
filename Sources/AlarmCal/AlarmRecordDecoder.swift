import ICalendar

/// Decodes one alarm record of any accepted shape, collecting a problem per bad field.
struct AlarmRecordDecoder {
  let reader: AlarmFileReader
  let index: Int
  let record: JSONValue
  let fields: AlarmRecordFields
  let zone: String
  let derivedID: String
  var problems: [AlarmFileProblem]
  /// What is kept but worth a look (a field one slip away from a known name).
  var warnings: [AlarmFileProblem] = []
  /// Zone names already found to be IANA zones: a list names a few zones many times.
  var knownZones: [String]

  private var name: String? { fields[.label]?.stringValue }

  /// The record's alarm, or nil with a problem for each field that is wrong.
  mutating func decode() -> Alarm? {
    guard case .object = record else {
      fail("must be an object, not \(record.typeName)")
      return nil
    }
    guard hasTime() else { return nil }
    warnOfNearMisses()
    reportRepeatedFields()
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
    alarm.extraFields = fields.members.filter { AlarmRecordField.lookUp($0.key) == nil }
    if snoozedUntil != nil, let snoozeUID, snoozeUID != alarm.exportedSnoozeUID {
      alarm.snoozeUID = snoozeUID
    }
    return alarm
  }

  /// Whether the record has its time (`time` or `at`). Without it, the record is named once,
  /// with what it lacks and what it has instead, rather than with a line per field the other
  /// shape would have known.
  private mutating func hasTime() -> Bool {
    guard fields[.time] == nil && fields[.at] == nil else { return true }
    let isAppRecord = fields.isAppRecord
    let shapeName = isAppRecord ? "an app alarm record" : "an alarm"
    let unknown = fields.unknownKeys
    let needs =
      isAppRecord ? "needs \"alarmTime\"" : "needs either \"time\" (with \"repeat\") or \"at\""
    let extra =
      unknown.isEmpty
      ? ""
      : "; \(unknown.map(quoted).joined(separator: ", ")) \(unknown.count == 1 ? "is not a field" : "are not fields") of \(shapeName)"
    fail("\(needs)\(extra)")
    return false
  }

  /// A warning for each unknown key one typing slip away from a known one (it is kept).
  private mutating func warnOfNearMisses() {
    for key in fields.unknownKeys {
      if let known = AlarmRecordField.nearMiss(key) {
        warnings.append(
          reader.problem(
            index, name,
            "field \(quoted(key)) is not one alarmcal knows; did you mean \(quoted(known))? It is kept as it is"
          ))
      }
    }
  }

  /// A problem for each field given twice, under one name or two.
  private mutating func reportRepeatedFields() {
    for (key, earlier) in fields.repeated {
      fail(
        key == earlier
          ? "field \(quoted(key)) is given twice"
          : "\(quoted(earlier)) and \(quoted(key)) are both given; they name the same thing")
    }
  }

  mutating func fail(_ message: String) {
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
}
