import ICalendar

/// What a record field means. Each has the names alarm apps write for it: alarmcal's own
/// first, then the synonyms (docs/formats.md).
enum AlarmRecordField: Int, CaseIterable {
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
  static let names: [String: (field: AlarmRecordField, isAppKey: Bool)] = [
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
  static func lookUp(_ key: String) -> (AlarmRecordField, isAppKey: Bool)? {
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
struct AlarmRecordFields {
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
    firstMember = [Int](repeating: -1, count: AlarmRecordField.allCases.count)
    for (index, member) in members.enumerated() {
      guard let (field, isAppKey) = AlarmRecordField.lookUp(member.key) else {
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
  subscript(field: AlarmRecordField) -> JSONValue? {
    let index = firstMember[field.rawValue]
    return index < 0 ? nil : members[index].value
  }

  /// The key the record gives `field` under (alarmcal's own when it gives none).
  func name(_ field: AlarmRecordField) -> String {
    let index = firstMember[field.rawValue]
    return index < 0 ? field.key : members[index].key
  }

  /// Whether the record is the iOS app's: it has `alarmTime`, or more of the app's keys than
  /// of alarmcal's.
  var isAppRecord: Bool {
    let index = firstMember[AlarmRecordField.time.rawValue]
    if index >= 0 { return members[index].key == "alarmTime" }
    return appCount > 0 && appCount * 2 >= members.count - unknownKeys.count
  }
}
