import ICalendar

/// The local notifications an app should schedule so that its alarms ring as the calendar
/// says, within a budget of pending requests (iOS keeps 64 per app).
public struct NotificationPlan: Equatable, Sendable {
  /// The requests, repeating ones first (by weekday, time, identifier), then one-shots in
  /// time order.
  public let requests: [PlannedRequest]
  /// The categories the requests use, by identifier.
  public let categories: [PlannedCategory]
  /// The instant before which the app must plan again; nil when the plan rings everything
  /// forever.
  public let validUntil: Instant?
}

/// One notification request, as an app turns it into a `UNNotificationRequest`.
public struct PlannedRequest: Equatable, Sendable {
  /// Stays the same across plans: a one-shot's is its firing id; a repeating one's comes
  /// from its series, alarm, weekday and wall-clock time.
  public let identifier: String
  /// The series' summary, or "Alarm".
  public let title: String
  /// Empty: the title says what rings.
  public let body: String
  /// The sound's name, or "default".
  public let sound: String
  /// ``PlannedCategory/snoozeIdentifier`` or ``PlannedCategory/stopIdentifier``.
  public let categoryIdentifier: String
  /// The series' UID, so one series' notifications group together.
  public let threadIdentifier: String
  /// The series' UID.
  public let uid: String
  /// The RFC 9074 UID of the VALARM, if it has one.
  public let alarmUID: String?
  /// Minutes between snoozes.
  public let snoozeMinutes: Int
  /// When it rings.
  public let trigger: PlannedTrigger
}

/// When a request rings, as `UNCalendarNotificationTrigger` date components.
public enum PlannedTrigger: Equatable, Sendable {
  /// Every week on `weekday` at this wall-clock time in the plan's zone (`repeats: true`).
  case weekly(Weekday, LocalTime)
  /// Once, at this instant: the firing's id and instant (date components in UTC).
  case once(firingID: String, at: Instant)

  /// `Calendar`'s weekday number: 1 for Sunday through 7 for Saturday.
  public static func calendarWeekday(_ weekday: Weekday) -> Int { weekday.rawValue % 7 + 1 }
}

/// A notification category and its actions.
public struct PlannedCategory: Equatable, Sendable {
  /// The category of alarms that offer Snooze.
  public static let snoozeIdentifier = "alarmcal.snooze"
  /// The category of alarms that offer only Stop.
  public static let stopIdentifier = "alarmcal.stop"

  /// The category's identifier.
  public let identifier: String
  /// Its actions, in the order shown: (identifier, title).
  public let actions: [(identifier: String, title: String)]

  /// The clock app's offer: Snooze 5 minutes, 30 minutes, 1 hour, and Stop.
  public static let snooze = PlannedCategory(
    identifier: snoozeIdentifier,
    actions: [
      ("snooze-5", "Snooze 5 minutes"), ("snooze-30", "Snooze 30 minutes"),
      ("snooze-60", "Snooze 1 hour"), ("stop", "Stop"),
    ])
  /// Stop alone.
  public static let stop = PlannedCategory(identifier: stopIdentifier, actions: [("stop", "Stop")])

  /// Equal when identifiers and actions are.
  public static func == (a: PlannedCategory, b: PlannedCategory) -> Bool {
    a.identifier == b.identifier && a.actions.map(\.identifier) == b.actions.map(\.identifier)
      && a.actions.map(\.title) == b.actions.map(\.title)
  }
}
