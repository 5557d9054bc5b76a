import ICalendar

extension NotificationPlan {
  /// The plan as JSON an app decodes into `UNNotificationRequest`s: keys in a fixed order, so
  /// the same plan gives the same bytes. Repeating triggers carry `weekday` (1 = Sunday),
  /// `hour`, `minute`, `second`; one-shot triggers a full date in `timeZone` UTC, so that no
  /// wall-clock reading can be ambiguous.
  public var json: JSONValue {
    .object([
      member("validUntil", validUntil.map { .string($0.description) } ?? .null),
      member("requests", .array(requests.map(\.json))),
      member(
        "categories",
        .array(
          categories.map { category in
            .object([
              member("identifier", .string(category.identifier)),
              member(
                "actions",
                .array(
                  category.actions.map { action in
                    .object([
                      member("identifier", .string(action.identifier)),
                      member("title", .string(action.title)),
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
      member("uid", .string(uid)),
      member("alarmUID", alarmUID.map { .string($0) } ?? .null),
      member("snoozeMinutes", .number(String(snoozeMinutes))),
    ]
    let components: [JSONMember]
    let repeats: Bool
    switch trigger {
    case .weekly(let weekday, let time):
      info.append(member("weekday", .string(weekday.icalCode)))
      info.append(member("time", .string(time.description)))
      components = [
        member("weekday", .number(String(PlannedTrigger.calendarWeekday(weekday)))),
        member("hour", .number(String(time.hour))),
        member("minute", .number(String(time.minute))),
        member("second", .number(String(time.second))),
      ]
      repeats = true
    case .once(let firingID, let instant):
      info.append(member("firingID", .string(firingID)))
      info.append(member("trigger", .string(instant.description)))
      let utc = instant.utc
      components = [
        member("timeZone", .string("UTC")),
        member("year", .number(String(utc.date.year))),
        member("month", .number(String(utc.date.month))),
        member("day", .number(String(utc.date.day))),
        member("hour", .number(String(utc.time.hour))),
        member("minute", .number(String(utc.time.minute))),
        member("second", .number(String(utc.time.second))),
      ]
      repeats = false
    }
    return .object([
      member("identifier", .string(identifier)),
      member("title", .string(title)),
      member("body", .string(body)),
      member("sound", .string(sound)),
      member("categoryIdentifier", .string(categoryIdentifier)),
      member("threadIdentifier", .string(threadIdentifier)),
      member("userInfo", .object(info)),
      member(
        "trigger",
        .object([member("dateComponents", .object(components)), member("repeats", .bool(repeats))])),
    ])
  }
}

private func member(_ key: String, _ value: JSONValue) -> JSONMember {
  JSONMember(key, value)
}
