/// What a rule takes from DTSTART, RFC 5545 §3.3.10: the day, month or weekday when the rule
/// names no day, and the time of day its frequency expands to when the rule names none. Day
/// parts the rule does not take are nil, so that starts differing only there share one plan.
///
/// The time parts are not in the plan: each taken part is a single value, so the plan holds 0
/// for it and the iterator adds ``timeShift`` to every time of day, which keeps their order.
struct StartDefaults: Hashable, Sendable {
  var month: Int?
  var day: Int?
  var weekday: Weekday?
  /// The seconds after midnight of the time parts taken from DTSTART.
  var timeShift = 0

  /// The defaults of `rule` from `start` (a DATE start at midnight when `isDate`).
  init(rule: RecurrenceRule, start: LocalDateTime, isDate: Bool) {
    let namesDay =
      !(rule.byWeekNo.isEmpty && rule.byYearDay.isEmpty && rule.byMonthDay.isEmpty
      && rule.byDay.isEmpty)
    switch rule.frequency {
    case .yearly where !namesDay:
      day = start.date.day
      if rule.byMonth.isEmpty { month = start.date.month }
    case .yearly
    where rule.byDay.isEmpty && rule.byMonthDay.isEmpty && rule.byYearDay.isEmpty:
      weekday = start.date.weekday  // BYWEEKNO alone: DTSTART's weekday in those weeks
    case .monthly where !namesDay: day = start.date.day
    case .weekly where !namesDay: weekday = start.date.weekday
    default: break
    }
    let expands = TimeExpansion(rule.frequency, isDate: isDate)
    if expands.hours && rule.byHour.isEmpty { timeShift += start.time.hour * 3600 }
    if expands.minutes && rule.byMinute.isEmpty { timeShift += start.time.minute * 60 }
    if expands.seconds && rule.bySecond.isEmpty { timeShift += start.time.second }
  }

  /// The defaults the plan is built from: the day parts alone.
  var days: StartDefaults {
    var days = self
    days.timeShift = 0
    return days
  }
}

/// Which time parts a period of the frequency expands to several times (DAILY and coarser
/// expand hours, minutes and seconds; HOURLY minutes and seconds; MINUTELY seconds); the parts
/// it does not expand limit it. DATE rules have midnight only.
struct TimeExpansion {
  let hours: Bool
  let minutes: Bool
  let seconds: Bool

  init(_ frequency: RecurrenceRule.Frequency, isDate: Bool) {
    let subDaily = RecurrenceIterator.Plan.unitSeconds(frequency) < 86_400
    hours = !subDaily && !isDate
    minutes = (hours || frequency == .hourly) && !isDate
    seconds = (minutes || frequency == .minutely) && !isDate
  }
}
