import ICalendar

/// How a task record spells its deadline, so that the deadline goes back in the form it came
/// in: a Foundation `Date` number stays a number (its fraction too), `Z` stays `Z`, an offset
/// stays that offset, a local date-time stays local.
enum TaskDeadlineSpelling {
  /// The forms of a deadline the reader takes.
  enum Form: Equatable {
    /// Foundation's default `Date` encoding: seconds since 2001-01-01T00:00:00Z.
    case dateNumber
    /// `2026-12-07T16:00:00Z`.
    case utc
    /// `2026-12-07T17:00:00+01:00`: the offset in seconds east of UTC.
    case offset(Int)
    /// `2026-12-07T17:00`, on the task's wall clock.
    case local
    /// `2026-12-07`.
    case date
  }

  /// The form of `literal`, or nil when the reader would not take it as a deadline (a number
  /// must also be a JSON number, since it is written back verbatim).
  static func form(of literal: JSONValue) -> Form? {
    switch literal {
    case .number(let text):
      guard AlarmTextFormats.foundationDate(text) != nil,
        (try? JSONParser().parse(Array(text.utf8))) == .number(text)
      else { return nil }
      return .dateNumber
    case .string(let text):
      if AlarmTextFormats.localDate(text) != nil { return .date }
      if AlarmTextFormats.localDateTime(text) != nil { return .local }
      guard let instant = AlarmTextFormats.instant(text) else { return nil }
      if text.hasSuffix("Z") { return .utc }
      guard let local = AlarmTextFormats.localDateTime(String(text.dropLast(6))) else {
        return nil
      }
      return .offset(Int(Instant(utc: local).secondsSince1970 - instant.secondsSince1970))
    default:
      return nil
    }
  }

  /// Whether `literal` names `deadline` on the wall clock of `zone` (a number to the second).
  static func literal(_ literal: JSONValue, names deadline: ToDo.Deadline, in zone: TimeZoneRules)
    -> Bool
  {
    switch (literal, deadline) {
    case (.number(let text), .at(let local)):
      return AlarmTextFormats.foundationDate(text).map(zone.local(at:)) == local
    case (.string(let text), .on(let date)):
      return AlarmTextFormats.localDate(text) == date
    case (.string(let text), .at(let local)):
      if let read = AlarmTextFormats.localDateTime(text) { return read == local }
      return AlarmTextFormats.instant(text).map(zone.local(at:)) == local
    default:
      return false
    }
  }

  /// `deadline`, on the wall clock of `zone`, in `form` (a date only as a date: a whole day has
  /// no instant of its own).
  static func render(_ deadline: ToDo.Deadline, in zone: TimeZoneRules, as form: Form)
    -> JSONValue
  {
    let local: LocalDateTime
    switch deadline {
    case .on(let date): return .string(date.description)
    case .at(let at): local = at
    }
    let instant = zone.instant(for: local)
    switch form {
    case .dateNumber:
      return .number(String(instant.secondsSince1970 - AlarmTextFormats.foundationReferenceDate))
    case .utc:
      return .string(instant.description)
    case .offset(let seconds):
      let magnitude = abs(seconds) / 60
      let sign = seconds < 0 ? "-" : "+"
      let shifted = instant.adding(seconds: Int64(seconds)).utc
      return .string(
        "\(shifted)\(sign)\(AlarmTextFormats.twoDigits(magnitude / 60)):\(AlarmTextFormats.twoDigits(magnitude % 60))"
      )
    case .local, .date:
      return .string(AlarmTextFormats.localDateTimeString(local))
    }
  }

  /// What JSON output writes for `task`'s deadline: its literal while that still names the
  /// deadline, else the deadline in the literal's form, else in `natural` form.
  static func value(of task: ToDo, natural: Form) -> JSONValue {
    let zone = TimeZoneRules(identifier: task.timeZone) ?? .utc
    guard let literal = task.deadlineLiteral, let form = form(of: literal) else {
      return render(task.deadline, in: zone, as: natural)
    }
    if Self.literal(literal, names: task.deadline, in: zone) { return literal }
    return render(task.deadline, in: zone, as: form)
  }

  /// The literal carried through iCalendar (``TaskVocabulary/deadlineParameter``) as JSON: a
  /// number's text, or a string's; nil when it is neither a deadline the reader takes.
  static func literal(carried text: String) -> JSONValue? {
    let number = JSONValue.number(text)
    if form(of: number) != nil { return number }
    let string = JSONValue.string(text)
    return form(of: string) != nil ? string : nil
  }

  /// The text a literal is carried as.
  static func carriedText(_ literal: JSONValue) -> String? {
    switch literal {
    case .number(let text), .string(let text): text
    default: nil
    }
  }
}
