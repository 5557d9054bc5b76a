import ICalendar

/// The `X-` names a task's VTODO carries what RFC 5545 has no place for in: how the app wrote
/// its record, so that app → .ics → app gives the record back with the same keys and values.
enum TaskVocabulary {
  /// DUE parameter (RFC 5545 §3.2 allows `X-` parameters): the deadline exactly as the record
  /// wrote it (`830000000.75`, `2027-02-01T09:30:00+01:00`). DUE's value stays the RFC-correct
  /// time; the parameter only says how to spell it in JSON again.
  static let deadlineParameter = "X-ALARMCAL-DEADLINE"
  /// VTODO: the record's keys in its order, a JSON array of strings (TEXT).
  static let recordKeys = "X-ALARMCAL-KEYS"
}

extension ToDo {
  /// The DUE property: `TZID` for a date-time, `VALUE=DATE` for a date, and the record's own
  /// spelling of the deadline in ``TaskVocabulary/deadlineParameter`` when there is one.
  var dueProperty: ICalProperty {
    var property: ICalProperty
    switch deadline {
    case .at(let local): property = DateTimeValue.zoned(local, tzid: timeZone).property("DUE")
    case .on(let date): property = DateTimeValue.date(date).property("DUE")
    }
    if let literal = deadlineLiteral, TaskDeadlineSpelling.form(of: literal) != nil,
      let text = TaskDeadlineSpelling.carriedText(literal)
    {
      property.parameters.append(ICalParameter(TaskVocabulary.deadlineParameter, text))
    }
    return property
  }

  /// Writes the record's keys and the members alarmcal does not know (one
  /// ``AlarmVocabulary/extraField`` each, as alarms carry theirs).
  func writeRecordCarriers(to printer: inout ICalendarPrinter) {
    let writer = JSONWriter(style: .compact)
    if !recordKeys.isEmpty {
      printer.write(
        TaskVocabulary.recordKeys,
        text: writer.string(from: .array(recordKeys.map(JSONValue.string))))
    }
    AlarmExporter.writeExtraFields(extraFields, to: &printer)
  }
}
