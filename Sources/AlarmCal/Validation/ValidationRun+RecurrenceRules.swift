import ICalendar

/// RRULE rules beyond the grammar, RFC 5545 §3.3.10: which BY parts each frequency allows, and
/// UNTIL's form against DTSTART's; and a warning for a rule that can never produce an instance.
extension ValidationRun {
  mutating func checkRule(
    _ rule: RecurrenceRule, _ line: ICalProperty, start: ICalProperty?, inObservance: Bool
  ) {
    checkByParts(rule, line)
    guard let start, let startValue = Self.dateTime(start) else { return }
    // A VTIMEZONE observance has a local DTSTART and a UTC UNTIL (RFC 5545 §3.6.5).
    if let until = rule.until, !inObservance {
      checkUntilForm(until, start: startValue, line)
    }
    checkRuleMatches(rule, line, start: startValue)
  }

  /// The position of a part's name inside the (possibly folded) value of the RRULE `line`.
  private func position(ofPart part: String, in line: ICalProperty) -> SourcePosition {
    let upper = line.value.uppercased()
    guard let range = upper.range(of: part + "=") else { return value(line) }
    return position(
      line, valueOffset: upper.utf8.distance(from: upper.startIndex, to: range.lowerBound))
  }

  /// Which BY parts the rule's frequency allows, and what BYSETPOS and BYDAY's ordinals need.
  private mutating func checkByParts(_ rule: RecurrenceRule, _ line: ICalProperty) {
    func at(_ part: String) -> SourcePosition { position(ofPart: part, in: line) }
    let frequency = rule.frequency
    if rule.byDay.contains(where: { $0.ordinal != nil }) {
      if frequency != .monthly && frequency != .yearly {
        report(
          .recurrenceRule, at: at("BYDAY"),
          "RRULE: BYDAY ordinals (such as 1MO) are only allowed with FREQ=MONTHLY or YEARLY")
      } else if frequency == .yearly && !rule.byWeekNo.isEmpty {
        report(
          .recurrenceRule, at: at("BYDAY"),
          "RRULE: BYDAY ordinals cannot be combined with BYWEEKNO")
      }
    }
    if !rule.bySetPos.isEmpty && !hasOtherByPart(rule) {
      report(.recurrenceRule, at: at("BYSETPOS"), "RRULE: BYSETPOS needs another BYxxx part")
    }
    if !rule.byWeekNo.isEmpty && frequency != .yearly {
      report(
        .recurrenceRule, at: at("BYWEEKNO"), "RRULE: BYWEEKNO is only allowed with FREQ=YEARLY")
    }
    if !rule.byYearDay.isEmpty && [.daily, .weekly, .monthly].contains(frequency) {
      report(
        .recurrenceRule, at: at("BYYEARDAY"),
        "RRULE: BYYEARDAY is not allowed with FREQ=\(frequency.rawValue)")
    }
    if !rule.byMonthDay.isEmpty && frequency == .weekly {
      report(
        .recurrenceRule, at: at("BYMONTHDAY"), "RRULE: BYMONTHDAY is not allowed with FREQ=WEEKLY")
    }
  }

  /// UNTIL's form against DTSTART's: a DATE with a DATE, UTC with a zoned or UTC start,
  /// floating with floating.
  private mutating func checkUntilForm(
    _ until: DateTimeValue, start: DateTimeValue, _ line: ICalProperty
  ) {
    func at() -> SourcePosition { position(ofPart: "UNTIL", in: line) }
    switch (start, until) {
    case (.date, .date), (.floating, .floating), (.utc, .utc), (.zoned, .utc): break
    case (.date, _):
      report(.recurrenceRule, at: at(), "RRULE: UNTIL must be a DATE, as DTSTART is")
    case (.zoned, _), (.utc, _):
      report(
        .recurrenceRule, at: at(),
        "RRULE: UNTIL must be a UTC DATE-TIME (ending in Z), as DTSTART has a zone")
    case (.floating, _):
      report(.recurrenceRule, at: at(), "RRULE: UNTIL must be a DATE-TIME, as DTSTART is")
    }
  }

  /// A warning when the rule never matches: that leaves only DTSTART, almost certainly not
  /// what was meant.
  private mutating func checkRuleMatches(
    _ rule: RecurrenceRule, _ line: ICalProperty, start: DateTimeValue
  ) {
    guard
      var iterator = iterator(
        line.value, start: start.local, isDate: start.isDate, workLimit: 200_000)
    else { return }
    _ = iterator.next()
    if iterator.next() == nil, rule.count.map({ $0 > 1 }) ?? true, rule.until == nil {
      report(
        .ruleNeverMatches, at: value(line),
        "RRULE \(line.value) can never produce an instance; only DTSTART occurs")
    }
  }

  private func hasOtherByPart(_ rule: RecurrenceRule) -> Bool {
    !(rule.bySecond.isEmpty && rule.byMinute.isEmpty && rule.byHour.isEmpty && rule.byDay.isEmpty
      && rule.byMonthDay.isEmpty && rule.byYearDay.isEmpty && rule.byWeekNo.isEmpty
      && rule.byMonth.isEmpty)
  }
}
