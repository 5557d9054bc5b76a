// A stand-in for Apple's UserNotifications framework, which Linux does not have: the
// declarations Samples/PlanExample uses (and the siblings of the option sets it uses), with the signatures of Apple's documentation, so that
// `swiftc` type-checks the example here and the test runs its conversions. Bodies keep what
// they are given and do nothing else: this is no model of what iOS does with a request.
// Apple's optional delegate requirements have empty default implementations instead.
//
// PlanSampleTests builds it as the module `UserNotifications`; no package target includes it.

import Foundation

/// The options an app asks the user to allow.
public struct UNAuthorizationOptions: OptionSet, Sendable {
  /// The options' bits.
  public let rawValue: UInt
  /// The options of these bits.
  public init(rawValue: UInt) { self.rawValue = rawValue }
  /// Update the app icon's badge.
  public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
  /// Play a sound.
  public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
  /// Show an alert.
  public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
}

/// How a notification shows while the app is in the foreground.
public struct UNNotificationPresentationOptions: OptionSet, Sendable {
  /// The options' bits.
  public let rawValue: UInt
  /// The options of these bits.
  public init(rawValue: UInt) { self.rawValue = rawValue }
  /// Play a sound.
  public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
  /// Show in Notification Center.
  public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)
  /// Show a banner.
  public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)
}

/// How an action behaves.
public struct UNNotificationActionOptions: OptionSet, Sendable {
  /// The options' bits.
  public let rawValue: UInt
  /// The options of these bits.
  public init(rawValue: UInt) { self.rawValue = rawValue }
  /// Shown as destructive (red).
  public static let destructive = UNNotificationActionOptions(rawValue: 1 << 1)
}

/// How a category's notifications behave.
public struct UNNotificationCategoryOptions: OptionSet, Sendable {
  /// The options' bits.
  public let rawValue: UInt
  /// The options of these bits.
  public init(rawValue: UInt) { self.rawValue = rawValue }
  /// Tell the delegate when the user dismisses a notification.
  public static let customDismissAction = UNNotificationCategoryOptions(rawValue: 1 << 0)
}

/// The action identifier of a response in which the user opened the app.
public let UNNotificationDefaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
/// The action identifier of a response in which the user dismissed the notification.
public let UNNotificationDismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

/// A sound file's name in the app's bundle.
public struct UNNotificationSoundName: Hashable, RawRepresentable, Sendable {
  /// The file's name, with its extension.
  public let rawValue: String
  /// The sound file named `rawValue`.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// The sound file named `rawValue`.
  public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// The sound a notification plays.
open class UNNotificationSound: NSObject {
  /// The sound's file name; nil for the default sound. The stub's own (Apple's has no such
  /// property): PlanSampleTests reads which sound the example chose.
  public let stubName: UNNotificationSoundName?

  private init(stubName: UNNotificationSoundName?) { self.stubName = stubName }

  /// The default sound.
  open class var `default`: UNNotificationSound { UNNotificationSound(stubName: nil) }

  /// A sound file of the app's bundle.
  public convenience init(named name: UNNotificationSoundName) { self.init(stubName: name) }
}

/// A notification's content (read-only).
open class UNNotificationContent: NSObject {
  fileprivate var storedTitle = ""
  fileprivate var storedBody = ""
  fileprivate var storedSound: UNNotificationSound?
  fileprivate var storedCategoryIdentifier = ""
  fileprivate var storedThreadIdentifier = ""
  fileprivate var storedUserInfo: [AnyHashable: Any] = [:]

  open var title: String { storedTitle }
  open var body: String { storedBody }
  open var sound: UNNotificationSound? { storedSound }
  open var categoryIdentifier: String { storedCategoryIdentifier }
  open var threadIdentifier: String { storedThreadIdentifier }
  open var userInfo: [AnyHashable: Any] { storedUserInfo }
}

/// A notification's content, editable.
open class UNMutableNotificationContent: UNNotificationContent {
  open override var title: String {
    get { storedTitle }
    set { storedTitle = newValue }
  }
  open override var body: String {
    get { storedBody }
    set { storedBody = newValue }
  }
  open override var sound: UNNotificationSound? {
    get { storedSound }
    set { storedSound = newValue }
  }
  open override var categoryIdentifier: String {
    get { storedCategoryIdentifier }
    set { storedCategoryIdentifier = newValue }
  }
  open override var threadIdentifier: String {
    get { storedThreadIdentifier }
    set { storedThreadIdentifier = newValue }
  }
  open override var userInfo: [AnyHashable: Any] {
    get { storedUserInfo }
    set { storedUserInfo = newValue }
  }
}

/// When a notification is delivered.
open class UNNotificationTrigger: NSObject {
  /// Whether it is delivered again after each time.
  open var repeats: Bool { storedRepeats }
  fileprivate let storedRepeats: Bool

  fileprivate init(repeats: Bool) { storedRepeats = repeats }
}

/// A trigger at the next date and time matching date components.
open class UNCalendarNotificationTrigger: UNNotificationTrigger {
  /// The components matched.
  open var dateComponents: DateComponents { storedDateComponents }
  private let storedDateComponents: DateComponents

  /// A trigger at the date and time matching `dateComponents`, every time if `repeats`.
  public init(dateMatching dateComponents: DateComponents, repeats: Bool) {
    storedDateComponents = dateComponents
    super.init(repeats: repeats)
  }
}

/// A request to deliver a notification.
open class UNNotificationRequest: NSObject {
  /// Unique among the app's requests: adding one with a pending identifier replaces it.
  open var identifier: String { storedIdentifier }
  open var content: UNNotificationContent { storedContent }
  open var trigger: UNNotificationTrigger? { storedTrigger }
  private let storedIdentifier: String
  private let storedContent: UNNotificationContent
  private let storedTrigger: UNNotificationTrigger?

  /// A request to deliver `content` when `trigger` fires (at once when nil).
  public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
    storedIdentifier = identifier
    storedContent = content
    storedTrigger = trigger
  }
}

/// A button a notification offers.
open class UNNotificationAction: NSObject {
  open var identifier: String { storedIdentifier }
  open var title: String { storedTitle }
  open var options: UNNotificationActionOptions { storedOptions }
  private let storedIdentifier: String
  private let storedTitle: String
  private let storedOptions: UNNotificationActionOptions

  /// A button titled `title`; a response to it carries `identifier`.
  public init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
    storedIdentifier = identifier
    storedTitle = title
    storedOptions = options
  }
}

/// A kind of notification and the actions it offers.
open class UNNotificationCategory: NSObject {
  open var identifier: String { storedIdentifier }
  open var actions: [UNNotificationAction] { storedActions }
  open var intentIdentifiers: [String] { storedIntentIdentifiers }
  open var options: UNNotificationCategoryOptions { storedOptions }
  private let storedIdentifier: String
  private let storedActions: [UNNotificationAction]
  private let storedIntentIdentifiers: [String]
  private let storedOptions: UNNotificationCategoryOptions

  /// A category offering `actions`, in the order shown.
  public init(
    identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
    options: UNNotificationCategoryOptions = []
  ) {
    storedIdentifier = identifier
    storedActions = actions
    storedIntentIdentifiers = intentIdentifiers
    storedOptions = options
  }
}

/// A delivered notification.
open class UNNotification: NSObject {
  /// When it was delivered.
  open var date: Date { storedDate }
  open var request: UNNotificationRequest { storedRequest }
  private let storedDate: Date
  private let storedRequest: UNNotificationRequest

  init(date: Date, request: UNNotificationRequest) {
    storedDate = date
    storedRequest = request
  }
}

/// The user's answer to a delivered notification.
open class UNNotificationResponse: NSObject {
  open var notification: UNNotification { storedNotification }
  /// The chosen action's identifier, or the default or dismiss action's.
  open var actionIdentifier: String { storedActionIdentifier }
  private let storedNotification: UNNotification
  private let storedActionIdentifier: String

  init(notification: UNNotification, actionIdentifier: String) {
    storedNotification = notification
    storedActionIdentifier = actionIdentifier
  }
}

/// What the app does with notifications and their answers.
public protocol UNUserNotificationCenterDelegate: NSObjectProtocol {
  func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification
  ) async -> UNNotificationPresentationOptions
  func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async
}

extension UNUserNotificationCenterDelegate {
  /// Shows nothing while the app is in the foreground (Apple's default).
  public func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification
  ) async -> UNNotificationPresentationOptions { [] }
  /// Ignores the answer.
  public func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse
  ) async {}
}

/// The app's notifications: categories, pending requests, authorization.
open class UNUserNotificationCenter: NSObject {
  open weak var delegate: (any UNUserNotificationCenterDelegate)?

  /// The app's notification center.
  open class func current() -> UNUserNotificationCenter { UNUserNotificationCenter() }

  open func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool {
    true
  }

  open func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {}

  open func add(_ request: UNNotificationRequest) async throws {}

  open func pendingNotificationRequests() async -> [UNNotificationRequest] { [] }

  open func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {}
}
