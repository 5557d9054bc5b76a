import ICalendar

/// Writes alarms in alarmcal's own JSON format, every field explicit, in a fixed order.
public enum AlarmFileWriter {
  /// The JSON value of an alarm list.
  public static func json(_ alarms: [Alarm]) -> JSONValue {
    .object([JSONMember("alarms", .array(alarms.map(json)))])
  }

  /// The file text: pretty-printed JSON and a final newline.
  public static func text(_ alarms: [Alarm]) -> String {
    var bytes = JSONWriter(style: .pretty).utf8(from: json(alarms))
    bytes.append(UInt8(ascii: "\n"))
    return String(decoding: bytes, as: UTF8.self)
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
    return .object(members)
  }
}
