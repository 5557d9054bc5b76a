import ICalendar

/// What STATUS and COMPLETED say about whether an event's or a task's alarms still ring
/// (RFC 5545 §3.8.1.11, §3.8.2.1): the one home of that rule for scheduler and importer.
extension ICalComponent {
  /// A VEVENT or VTODO with STATUS:CANCELLED.
  var isCancelled: Bool {
    propertyValue(uppercased: "STATUS")?.asciiUppercased == "CANCELLED"
  }

  /// A VTODO that is done: STATUS:COMPLETED, or a COMPLETED date.
  var isCompletedTask: Bool {
    name == "VTODO"
      && (propertyValue(uppercased: "STATUS")?.asciiUppercased == "COMPLETED"
        || hasProperty(uppercased: "COMPLETED"))
  }
}
