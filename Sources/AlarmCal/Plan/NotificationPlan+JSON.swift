import ICalendar

extension NotificationPlan {
  /// The plan as JSON an app decodes into `UNNotificationRequest`s: keys in a fixed order, so
  /// the same plan gives the same bytes. Repeating triggers carry `weekday` (1 = Sunday),
  /// `hour`, `minute`, `second`; one-shot triggers a full date in `timeZone` UTC, so that no
  /// wall-clock reading can be ambiguous.
  public var json: JSONValue {
    .object([
      JSONMember("validUntil", validUntil.map { .string($0.description) } ?? .null),
      JSONMember("requests", .array(requests.map(\.json))),
      JSONMember(
        "categories",
        .array(
          categories.map { category in
            .object([
              JSONMember("identifier", .string(category.identifier)),
              JSONMember(
                "actions",
                .array(
                  category.actions.map { action in
                    .object([
                      JSONMember("identifier", .string(action.identifier)),
                      JSONMember("title", .string(action.title)),
                    ])
                  })),
            ])
          })),
    ])
  }
}

extension PlannedRequest {
  /// The request as JSON (see ``NotificationPlan/json``).
  var json: JSONValue {
    var info: [JSONMember] = [
      JSONMember("uid", .string(uid)),
      JSONMember("alarmUID", alarmUID.map { .string($0) } ?? .null),
      JSONMember("snoozeMinutes", .number(String(snoozeMinutes))),
    ]
    let components: [JSONMember]
    let repeats: Bool
    switch trigger {
    case .weekly(let weekday, let time):
      info.append(JSONMember("weekday", .string(weekday.icalCode)))
      info.append(JSONMember("time", .string(time.description)))
      components = [
        JSONMember("weekday", .number(String(PlannedTrigger.calendarWeekday(weekday)))),
        JSONMember("hour", .number(String(time.hour))),
        JSONMember("minute", .number(String(time.minute))),
        JSONMember("second", .number(String(time.second))),
      ]
      repeats = true
    case .once(let firingID, let instant):
      info.append(JSONMember("firingID", .string(firingID)))
      info.append(JSONMember("trigger", .string(instant.description)))
      let utc = instant.utc
      components = [
        JSONMember("timeZone", .string("UTC")),
        JSONMember("year", .number(String(utc.date.year))),
        JSONMember("month", .number(String(utc.date.month))),
        JSONMember("day", .number(String(utc.date.day))),
        JSONMember("hour", .number(String(utc.time.hour))),
        JSONMember("minute", .number(String(utc.time.minute))),
        JSONMember("second", .number(String(utc.time.second))),
      ]
      repeats = false
    }
    return .object([
      JSONMember("identifier", .string(identifier)),
      JSONMember("title", .string(title)),
      JSONMember("body", .string(body)),
      JSONMember("sound", .string(sound)),
      JSONMember("categoryIdentifier", .string(categoryIdentifier)),
      JSONMember("threadIdentifier", .string(threadIdentifier)),
      JSONMember("userInfo", .object(info)),
      JSONMember(
        "trigger",
        .object([
          JSONMember("dateComponents", .object(components)), JSONMember("repeats", .bool(repeats)),
        ])),
    ])
  }
}
