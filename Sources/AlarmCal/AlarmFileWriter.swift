import ICalendar

/// Writes alarms in alarmcal's own JSON format, every field explicit, in a fixed order.
public enum AlarmFileWriter {
  /// The JSON value of an alarm list.
  public static func json(_ alarms: [Alarm]) -> JSONValue {
    .object([JSONMember("alarms", .array(alarms.map(json)))])
  }

  /// The file text: pretty-printed JSON and a final newline.
  public static func text(_ alarms: [Alarm]) -> String {
    JSONWriter(style: .pretty).string(from: json(alarms)) + "\n"
  }

  /// The JSON object of one alarm.
  public static func json(_ alarm: Alarm) -> JSONValue {
    var members = [JSONMember("id", .string(alarm.id))]
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
    members += [
      JSONMember("snooze", .bool(alarm.snooze)),
      JSONMember("snoozeMinutes", .number(String(alarm.snoozeMinutes))),
      JSONMember("enabled", .bool(alarm.enabled)),
      JSONMember("timeZone", .string(alarm.timeZone)),
    ]
    return .object(members)
  }
}
