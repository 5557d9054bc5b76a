import ICalendar

/// What STATUS, COMPLETED and PERCENT-COMPLETE say about whether an event's or a task's alarms
/// still ring (RFC 5545 §3.8.1.11, §3.8.2.1, §3.8.1.8): the one home of that rule for scheduler
/// and importer.
extension ICalComponent {
  /// A VEVENT or VTODO with STATUS:CANCELLED.
  var isCancelled: Bool {
    propertyValue(uppercased: "STATUS")?.asciiUppercased == "CANCELLED"
  }

  /// A VTODO that is done: STATUS:COMPLETED, a COMPLETED date, or PERCENT-COMPLETE:100.
  var isCompletedTask: Bool {
    name == "VTODO"
      && (propertyValue(uppercased: "STATUS")?.asciiUppercased == "COMPLETED"
        || hasProperty(uppercased: "COMPLETED")
        || propertyValue(uppercased: "PERCENT-COMPLETE").flatMap { Int($0) } == 100)
  }
}
