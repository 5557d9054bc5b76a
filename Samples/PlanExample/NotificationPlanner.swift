// How an iOS app keeps its pending notifications equal to the latest `alarmcal plan`.
//
// The plan is made where the alarm file lives (a Mac, a server, a relay the app talks to):
//
//     alarmcal plan alarms.json --now 2026-12-07T08:00:00Z --tz Europe/Berlin
//
// with the device's moment and zone, which the app sends along. The app then
// 1. registers the plan's categories and their actions,
// 2. removes the pending requests of an earlier plan that this one no longer holds,
// 3. adds this plan's requests (an identifier already pending is replaced),
// 4. plans again before `validUntil` (a plan made at `validUntil` would come too late for the
//    firing there), whenever the device's zone changes, and when it comes to the foreground
//    within a day of `validUntil` (a timer does not fire while the app is suspended, and the
//    app may not run again in time).

import Foundation
import UserNotifications

/// Schedules the requests of `alarmcal plan` and plans again when the plan says.
@MainActor
final class NotificationPlanner {
  /// The categories of alarmcal's plans start with this; other notifications of the app are
  /// never removed.
  static let categoryPrefix = "alarmcal."
  /// How long before `validUntil` the app plans again.
  static let renewalMargin: TimeInterval = 24 * 3600

  /// Asks where the alarm file lives for a plan made at this moment in this zone.
  typealias PlanSource = @Sendable (_ now: Date, _ zone: TimeZone) async throws -> Data

  private let fetchPlan: PlanSource
  private var replanTimer: Timer?
  private var zoneObserver: NSObjectProtocol?
  /// The current plan's `validUntil` and the zone it was made for.
  private(set) var validUntil: Date?
  private(set) var plannedZone: TimeZone?

  init(fetchPlan: @escaping PlanSource) {
    self.fetchPlan = fetchPlan
  }

  /// Asks for permission, plans, and plans again whenever the device's zone changes: the
  /// plan's repeating requests follow the wall clock of the zone they were planned in.
  func start() async throws {
    _ = try await UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound])
    zoneObserver = NotificationCenter.default.addObserver(
      forName: .NSSystemTimeZoneDidChange, object: nil, queue: .main
    ) { [weak self] _ in
      Task { @MainActor in try? await self?.planAgain() }
    }
    try await planAgain()
  }

  /// Call when the app comes to the foreground: plans again if the plan ends within
  /// ``renewalMargin`` or the zone changed while the app was suspended.
  func planIfDue(now: Date = Date()) async throws {
    let ending = validUntil.map { $0.timeIntervalSince(now) < Self.renewalMargin } ?? false
    if plannedZone?.identifier != TimeZone.current.identifier || ending {
      try await planAgain()
    }
  }

  /// Fetches a plan for this moment and zone and schedules it.
  func planAgain() async throws {
    let zone = TimeZone.current
    let plan = try AlarmPlan.decode(try await fetchPlan(Date(), zone))
    try await schedule(plan, plannedIn: zone)
    plannedZone = zone
  }

  /// Makes the pending requests of earlier plans equal to `plan`'s, made for `zone`.
  ///
  /// The center is fetched for each call rather than kept: the call then sends a value no
  /// other code holds, which Swift 6 allows whether or not the SDK marks the center Sendable.
  func schedule(_ plan: AlarmPlan, plannedIn zone: TimeZone) async throws {
    UNUserNotificationCenter.current().setNotificationCategories(
      Set(plan.categories.map(\.notificationCategory)))
    let kept = Set(plan.requests.map(\.identifier))
    // Stale ones first, so that the pending requests never exceed iOS's 64.
    let stale = await UNUserNotificationCenter.current().pendingNotificationRequests()
      .filter {
        $0.content.categoryIdentifier.hasPrefix(Self.categoryPrefix)
          && !kept.contains($0.identifier)
      }
      .map(\.identifier)
    UNUserNotificationCenter.current().removePendingNotificationRequests(withIdentifiers: stale)
    for request in plan.requests {
      try await UNUserNotificationCenter.current().add(request.notificationRequest(plannedIn: zone))
    }
    validUntil = plan.validUntil
    planAgain(at: plan.validUntil)
  }

  /// When to plan again: ``renewalMargin`` before `validUntil`, or halfway there when it is
  /// closer (a plan that holds less than a day is renewed without planning in a loop).
  static func renewal(before validUntil: Date, now: Date) -> Date {
    max(
      validUntil.addingTimeInterval(-renewalMargin),
      now.addingTimeInterval(validUntil.timeIntervalSince(now) / 2))
  }

  /// A timer before `validUntil` while the app runs; ``planIfDue(now:)`` covers a suspended
  /// app.
  private func planAgain(at validUntil: Date?) {
    replanTimer?.invalidate()
    replanTimer = nil
    guard let validUntil else { return }
    let fire = Self.renewal(before: validUntil, now: Date())
    let timer = Timer(fire: fire, interval: 0, repeats: false) { [weak self] _ in
      // A plan that cannot be fetched leaves the last one pending; the next foreground retries.
      Task { @MainActor in try? await self?.planAgain() }
    }
    RunLoop.main.add(timer, forMode: .common)
    replanTimer = timer
  }
}

extension AlarmPlan.Request {
  /// The `userInfo` key of the zone the plan was made for: an answer names it (`--tz`), since
  /// a repeating request's weekday and time are read in it.
  static let planZoneKey = "planZone"

  /// The request to add: a calendar trigger at the plan's date components.
  func notificationRequest(plannedIn zone: TimeZone) -> UNNotificationRequest {
    let content = UNMutableNotificationContent()
    content.title = title
    content.body = body
    content.sound = notificationSound
    content.categoryIdentifier = categoryIdentifier
    content.threadIdentifier = threadIdentifier
    content.userInfo = userInfo.dictionary.merging([Self.planZoneKey: zone.identifier]) { $1 }
    let calendarTrigger = UNCalendarNotificationTrigger(
      dateMatching: trigger.dateComponents.dateComponents, repeats: trigger.repeats)
    return UNNotificationRequest(identifier: identifier, content: content, trigger: calendarTrigger)
  }

  /// The named sound from the app's bundle (`Radar.caf` for "Radar"), or the default one.
  var notificationSound: UNNotificationSound {
    sound == "default"
      ? .default : UNNotificationSound(named: UNNotificationSoundName("\(sound).caf"))
  }
}

extension AlarmPlan.Category {
  /// The category to register; a dismissed notification is reported too (as Stop).
  var notificationCategory: UNNotificationCategory {
    UNNotificationCategory(
      identifier: identifier,
      actions: actions.map { action in
        UNNotificationAction(
          identifier: action.identifier, title: action.title,
          options: action.snoozeMinutes == nil ? [.destructive] : [])
      },
      intentIdentifiers: [], options: [.customDismissAction])
  }
}
