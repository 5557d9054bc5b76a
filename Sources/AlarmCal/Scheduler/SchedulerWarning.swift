import ICalendar

/// A problem the scheduler reports and works around (stderr, never fatal).
public struct SchedulerWarning: Equatable, Sendable, CustomStringConvertible {
  /// The file as given.
  public let file: String
  /// The line of the component's BEGIN, if known.
  public let line: Int?
  /// `event` for a VEVENT, `task` for a VTODO.
  public let kind: String
  /// The component's UID.
  public let uid: String
  /// What happened.
  public let message: String

  /// Creates a warning about the component `name` (VEVENT, VTODO).
  init(file: String, line: Int?, component name: String, uid: String, message: String) {
    self.file = file
    self.line = line
    kind = ComponentKind.noun(name)
    self.uid = uid
    self.message = message
  }

  /// `file:LINE: event "UID": message` (`task` for a VTODO).
  public var description: String {
    (line.map { "\(file):\($0)" } ?? file) + ": \(kind) \(quoted(uid)): \(message)"
  }
}

/// What messages call a component: `task` for a VTODO, `event` for a VEVENT.
enum ComponentKind {
  /// The noun for a component name.
  static func noun(_ name: String) -> String {
    name == "VTODO" ? "task" : "event"
  }
}
