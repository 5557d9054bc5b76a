// How an iOS app sends the user's answer to a delivered alarm back to the alarm file.
//
// A notification carries its request's identifier and the moment it was delivered. Where the
// file lives, the answer becomes
//
//     alarmcal snooze alarms.json --request ID --delivered ISO --minutes 5 --now ISO --tz ZONE
//     alarmcal dismiss alarms.json --request ID --delivered ISO --now ISO --tz ZONE
//
// which picks the latest firing of that request at or before the delivery (a late delivery
// included): for a repeating request, the week's firing that rang. ZONE is the zone the plan
// was made for, which the request carries in its userInfo.

import Foundation
import UserNotifications

/// The user's answer to one delivered alarm notification.
struct NotificationAnswer: Codable, Equatable, Sendable {
  /// What the user chose.
  enum Choice: Codable, Equatable, Sendable {
    case snooze(minutes: Int)
    case stop
  }

  let requestIdentifier: String
  let delivered: Date
  let answered: Date
  let choice: Choice
  /// The zone the plan was made for (an IANA name).
  let zone: String

  /// The answer to `response`, or nil when the user only opened the app.
  init?(response: UNNotificationResponse, answered: Date) {
    let action = response.actionIdentifier
    if action == UNNotificationDismissActionIdentifier || action == "stop" {
      choice = .stop
    } else if let minutes = AlarmPlan.Action(identifier: action, title: "").snoozeMinutes {
      choice = .snooze(minutes: minutes)
    } else {
      return nil  // UNNotificationDefaultActionIdentifier: the app was opened.
    }
    let request = response.notification.request
    requestIdentifier = request.identifier
    delivered = response.notification.date
    self.answered = answered
    zone =
      request.content.userInfo[AlarmPlan.Request.planZoneKey] as? String
      ?? TimeZone.current.identifier
  }

  /// The `alarmcal` arguments that write this answer into `file`.
  func alarmcalArguments(file: String) -> [String] {
    let iso = ISO8601DateFormatter()
    let firing = ["--request", requestIdentifier, "--delivered", iso.string(from: delivered)]
    let now = ["--now", iso.string(from: answered), "--tz", zone]
    switch choice {
    case .snooze(let minutes):
      return ["snooze", file] + firing + ["--minutes", String(minutes)] + now
    case .stop:
      return ["dismiss", file] + firing + now
    }
  }
}

/// The notification center's delegate: shows alarms while the app is in the foreground, and
/// hands each answer to `send` (which passes it to where the alarm file lives).
final class NotificationAnswers: NSObject, UNUserNotificationCenterDelegate {
  private let send: @Sendable (NotificationAnswer) async -> Void

  init(send: @escaping @Sendable (NotificationAnswer) async -> Void) {
    self.send = send
  }

  /// Call before the app finishes launching, so that an answer that launches the app is not
  /// missed, and keep `self`: the center holds its delegate weakly.
  func becomeDelegate() {
    UNUserNotificationCenter.current().delegate = self
  }

  func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification
  ) async -> UNNotificationPresentationOptions {
    [.banner, .list, .sound]
  }

  func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse
  ) async {
    guard let answer = NotificationAnswer(response: response, answered: Date()) else { return }
    await send(answer)
  }
}
