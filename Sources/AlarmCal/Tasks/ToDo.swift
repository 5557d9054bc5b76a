import ICalendar

/// One task as a reminder app stores it: a title, a deadline, and when to be reminded.
public struct ToDo: Equatable, Sendable {
  /// When the task is due: a wall-clock date-time in ``timeZone``, or a whole day.
  public enum Deadline: Equatable, Sendable {
    /// A date-time on the task's wall clock.
    case at(LocalDateTime)
    /// A whole day.
    case on(LocalDate)
  }

  /// The stable identifier (the app's UUID).
  public var id: String
  /// What is to be done.
  public var title: String
  /// When it is due.
  public var deadline: Deadline
  /// Whether it is done; a done task never reminds.
  public var completed: Bool
  /// Free text, if any.
  public var notes: String?
  /// Minutes before the deadline the reminder rings: 0 at the deadline, negative after it
  /// (-540: 09:00 on a date deadline's day, as Apple Reminders rings it); nil for none.
  public var remindMinutesBefore: Int?
  /// The IANA zone whose wall clock a date-time deadline is read on. A date deadline is
  /// floating (a whole day on the clock of whoever reads it), so its zone is the reader's.
  public var timeZone: String
  /// The deadline as the record wrote it: a Foundation `Date` number with its fraction, or an
  /// ISO 8601 string with its `Z`, offset or seconds. JSON output writes it back while it still
  /// names ``deadline`` (else the deadline in the same form); nil: the shape's natural form.
  public var deadlineLiteral: JSONValue?
  /// The record's keys in its order (empty for a task that came from no record), so the app's
  /// shape writes back the keys the app wrote, `"remindMinutesBefore": 0` and all.
  public var recordKeys: [String] = []
  /// The record's members that alarmcal does not know, as they came.
  public var extraFields: [JSONMember] = []
  /// When its reminder was last dismissed or snoozed (RFC 9074 ACKNOWLEDGED): rings up to
  /// then are done.
  public var acknowledgedAt: Instant?
  /// When a pending snooze of its reminder rings again (an RFC 9074 snooze alarm).
  public var snoozedUntil: Instant?
  /// The RFC 9074 UID of the pending snooze's VALARM when a client gave it one other than the
  /// one derived from ``reminderUID`` and ``snoozedUntil``; nil otherwise.
  public var snoozeUID: String?

  /// Creates a task; a reminder rings at the deadline unless told otherwise.
  public init(
    id: String, title: String, deadline: Deadline, completed: Bool = false, notes: String? = nil,
    remindMinutesBefore: Int? = 0, timeZone: String, deadlineLiteral: JSONValue? = nil
  ) {
    self.id = id
    self.title = title
    self.deadline = deadline
    self.completed = completed
    self.notes = notes
    self.remindMinutesBefore = remindMinutesBefore
    self.timeZone = timeZone
    self.deadlineLiteral = deadlineLiteral
  }

  /// Whether two tasks are the same task: every field but how a record spelled it
  /// (``deadlineLiteral``, ``recordKeys``), so the same task read from two shapes is equal.
  public static func == (lhs: ToDo, rhs: ToDo) -> Bool {
    lhs.id == rhs.id && lhs.title == rhs.title && lhs.deadline == rhs.deadline
      && lhs.completed == rhs.completed && lhs.notes == rhs.notes
      && lhs.remindMinutesBefore == rhs.remindMinutesBefore && lhs.timeZone == rhs.timeZone
      && lhs.extraFields == rhs.extraFields && lhs.acknowledgedAt == rhs.acknowledgedAt
      && lhs.snoozedUntil == rhs.snoozedUntil && lhs.snoozeUID == rhs.snoozeUID
  }

  /// The UID its reminder's VALARM is exported with.
  public var reminderUID: String { AlarmIdentifier.alarmUID(forAlarm: id) }

  /// The UID its pending snooze's VALARM is exported with, if it has one.
  public var exportedSnoozeUID: String? {
    snoozedUntil.map { snoozeUID ?? AlarmIdentifier.snoozeUID(ofAlarm: reminderUID, until: $0) }
  }

  /// How early a reminder may ring: up to four weeks before its deadline, or up to a day after
  /// it (the time on a date deadline's day).
  public static let remindMinutesRange = -1_440...40_320
}

/// What an alarm file holds: alarms and tasks.
public struct AlarmList: Equatable, Sendable {
  /// The alarms, in file order.
  public var alarms: [Alarm]
  /// The tasks, in file order.
  public var tasks: [ToDo]
  /// What reading kept but the user should look at, in file order.
  public var warnings: [AlarmFileProblem] = []

  /// A list of both.
  public init(alarms: [Alarm], tasks: [ToDo] = []) {
    self.alarms = alarms
    self.tasks = tasks
  }
}
