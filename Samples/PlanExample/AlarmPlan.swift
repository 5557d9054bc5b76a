// The JSON of `alarmcal plan`, decoded: what an iOS app turns into UNNotificationRequests
// (NotificationPlanner.swift) and its notification categories. Foundation only.
//
// The field-by-field reference is docs/plan.md.

import Foundation

/// One plan: the requests to keep pending, the categories they use, and until when it holds.
struct AlarmPlan: Decodable, Sendable {
  /// Repeating requests first, then one-shots in time order; never more than the budget.
  let requests: [Request]
  /// The categories the requests use, with their actions in the order shown.
  let categories: [Category]
  /// The app must plan again before this instant; nil when the plan rings everything for ever.
  let validUntil: Date?

  /// Reads `alarmcal plan` output (its `validUntil` is an ISO 8601 instant in UTC).
  static func decode(_ data: Data) throws -> AlarmPlan {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try decoder.decode(AlarmPlan.self, from: data)
  }

  /// One notification request; its identifier stays the same from one plan to the next.
  struct Request: Decodable, Sendable {
    let identifier: String
    let title: String
    let body: String
    /// A sound's name, or "default".
    let sound: String
    let categoryIdentifier: String
    let threadIdentifier: String
    let userInfo: UserInfo
    let trigger: Trigger
  }

  /// What a delivered notification carries back to the app.
  struct UserInfo: Decodable, Sendable {
    /// The calendar item's UID.
    let uid: String
    /// The RFC 9074 UID of the alarm, when it has one.
    let alarmUID: String?
    /// The alarm's own snooze length.
    let snoozeMinutes: Int
    /// A repeating request's weekday ("MO".."SU") and wall-clock time ("HH:MM:SS").
    let weekday: String?
    let time: String?
    /// A one-shot's firing id (as `upcoming` prints it) and instant.
    let firingID: String?
    let trigger: String?

    /// The dictionary `UNNotificationContent.userInfo` holds (property-list values only).
    var dictionary: [AnyHashable: Any] {
      var info: [AnyHashable: Any] = ["uid": uid, "snoozeMinutes": snoozeMinutes]
      let optional: [(String, String?)] = [
        ("alarmUID", alarmUID), ("weekday", weekday), ("time", time), ("firingID", firingID),
        ("trigger", trigger),
      ]
      for (key, value) in optional {
        if let value { info[key] = value }
      }
      return info
    }
  }

  /// When a request rings: `UNCalendarNotificationTrigger(dateMatching:repeats:)`'s arguments.
  struct Trigger: Decodable, Sendable {
    let dateComponents: Components
    let repeats: Bool
  }

  /// Date components as the plan writes them. A repeating trigger has `weekday` (1 = Sunday,
  /// as `Calendar` counts), `hour`, `minute` and `second` on the device's wall clock; a
  /// one-shot has a full date and time with `timeZone` "UTC".
  struct Components: Decodable, Sendable {
    let timeZone: String?
    let year: Int?
    let month: Int?
    let day: Int?
    let weekday: Int?
    let hour: Int
    let minute: Int
    let second: Int

    /// The components a calendar trigger matches.
    var dateComponents: DateComponents {
      DateComponents(
        timeZone: timeZone.flatMap(TimeZone.init(identifier:)), year: year, month: month,
        day: day, hour: hour, minute: minute, second: second, weekday: weekday)
    }
  }

  /// A notification category and the actions it offers.
  struct Category: Decodable, Sendable {
    let identifier: String
    let actions: [Action]
  }

  /// One action: "snooze-5", "snooze-30", "snooze-60" or "stop", with its title.
  struct Action: Decodable, Sendable {
    let identifier: String
    let title: String

    /// The snooze length a Snooze action offers; nil for Stop.
    var snoozeMinutes: Int? {
      identifier.hasPrefix("snooze-") ? Int(identifier.dropFirst("snooze-".count)) : nil
    }
  }
}
