import CLibical
import ICalendar

/// Wall-clock expansion of an RRULE with libical's iterator.
///
/// The iterator works on floating readings: zones and DST are resolved afterwards by the
/// caller (``TimeZoneRules``), because libical resolves them differently from RFC 5545. UNTIL
/// is compared as written. libical can spin on rules that never match, so callers bound the
/// span and the count.
public enum LibicalRecurrence {
  /// The starts of `rule` from `start` up to and including `end`, at most `limit` of them.
  public static func starts(
    rule: String, from start: LocalDateTime, isDate: Bool = false, through end: LocalDateTime,
    limit: Int
  ) throws(RecurrenceRuleError) -> [LocalDateTime] {
    _ = LibicalText.configured
    clibical_clear_errno()
    let recurrence = icalrecurrencetype_from_string(rule)
    guard recurrence.freq != ICAL_NO_RECURRENCE else {
      throw RecurrenceRuleError("libical cannot read RRULE \"\(rule)\"")
    }
    var first = icaltime_from_string(isDate ? start.date.icalString : start.icalString)
    first.is_date = isDate ? 1 : 0
    guard let iterator = icalrecur_iterator_new(recurrence, first) else {
      throw RecurrenceRuleError("libical cannot iterate RRULE \"\(rule)\"")
    }
    defer { icalrecur_iterator_free(iterator) }
    var result: [LocalDateTime] = []
    while result.count < limit {
      let next = icalrecur_iterator_next(iterator)
      guard icaltime_is_null_time(next) == 0,
        let date = LocalDate(year: Int(next.year), month: Int(next.month), day: Int(next.day)),
        let time = LocalTime(
          hour: Int(next.hour), minute: Int(next.minute), second: Int(next.second))
      else { break }
      let local = LocalDateTime(date, isDate ? .midnight : time)
      if local > end { break }
      result.append(local)
    }
    return result
  }
}
