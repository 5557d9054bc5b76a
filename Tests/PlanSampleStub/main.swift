// Decodes `alarmcal plan` JSON files with Samples/PlanExample's own types, turns them into the
// requests and categories the example registers, and prints what those hold as one JSON array
// (one object per file), for PlanSampleTests to compare with the plan's JSON.
//
// Usage: decode-plan ZONE FILE...   (ZONE: the zone the plans were made for)

import Foundation
import UserNotifications

guard CommandLine.arguments.count > 1, let zone = TimeZone(identifier: CommandLine.arguments[1])
else { fatalError("usage: decode-plan ZONE FILE...") }
var plans: [[String: Any]] = []
for path in CommandLine.arguments.dropFirst(2) {
  let plan = try AlarmPlan.decode(Data(contentsOf: URL(fileURLWithPath: path)))
  var requests: [[String: Any]] = []
  for request in plan.requests.map({ $0.notificationRequest(plannedIn: zone) }) {
    guard let trigger = request.trigger as? UNCalendarNotificationTrigger else {
      fatalError("\(request.identifier): no calendar trigger")
    }
    let parts = trigger.dateComponents
    let fields: [(String, Int?)] = [
      ("year", parts.year), ("month", parts.month), ("day", parts.day),
      ("weekday", parts.weekday), ("hour", parts.hour), ("minute", parts.minute),
      ("second", parts.second),
    ]
    var components: [String: Int] = [:]
    for (name, value) in fields {
      if let value { components[name] = value }
    }
    requests.append([
      "identifier": request.identifier, "repeats": trigger.repeats, "components": components,
      // Foundation may rename a zone ("UTC" becomes "GMT"); its offset says what it is.
      "zoneOffset": parts.timeZone.map { $0.secondsFromGMT() as Any } ?? NSNull(),
      "title": request.content.title, "sound": request.content.sound?.stubName?.rawValue ?? "",
      "categoryIdentifier": request.content.categoryIdentifier,
      "threadIdentifier": request.content.threadIdentifier,
      "userInfoUID": request.content.userInfo["uid"] as? String ?? "",
      "planZone": request.content.userInfo[AlarmPlan.Request.planZoneKey] as? String ?? "",
    ])
  }
  let categories: [[String: Any]] = plan.categories.map(\.notificationCategory).map { category in
    [
      "identifier": category.identifier, "actions": category.actions.map(\.identifier),
      "customDismissAction": category.options.contains(.customDismissAction),
    ]
  }
  plans.append([
    "requests": requests, "categories": categories,
    "validUntil": plan.validUntil.map { ISO8601DateFormatter().string(from: $0) } ?? NSNull(),
  ])
}
let output = try JSONSerialization.data(withJSONObject: plans, options: [.sortedKeys])
print(String(decoding: output, as: UTF8.self))
