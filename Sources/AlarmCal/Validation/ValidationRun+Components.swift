import ICalendar

/// Component rules: required, unique and exclusive properties, RFC 5545 §3.6.
extension ValidationRun {
  /// Checks a VCALENDAR and everything inside it.
  mutating func checkCalendar(_ calendar: ICalComponent) {
    let rfc = "RFC 5545 §3.6"
    require(["PRODID", "VERSION"], in: calendar, rfc: rfc)
    uniqueOnly(["PRODID", "VERSION", "CALSCALE", "METHOD"], in: calendar, rfc: rfc)
    checkValues(calendar)
    let hasMethod = calendar.property(uppercased: "METHOD") != nil
    let items = calendar.components.filter { $0.name == "VEVENT" || $0.name == "VTODO" }
    // Each distinct RRULE of the events and tasks is read once here, not once in every job.
    for item in items {
      for rule in item.properties where rule.name == "RRULE" { _ = self.rule(rule.value) }
    }
    // Overrides are checked against their series' current master, as import and upcoming
    // attach them.
    let masters = CalendarItems<Int>.currentMasters(of: items).mapValues { items[$0] }
    let jobs: [CalendarJob] =
      [.timeZones, .uniqueIDs] + ParallelWork.runs(of: items.count).map(CalendarJob.items)
      + [.notes, .placement]
      + ParallelWork.runs(of: calendar.components.count).map(
        CalendarJob.children)
    var copy = self
    copy.diagnostics = []
    let piece = copy
    let done = ParallelWork.map(jobs) { job in
      var run = piece
      switch job {
      case .timeZones: run.checkTimeZones(calendar)
      case .uniqueIDs: run.checkUniqueIDs(items)
      case .items(let range):
        for item in items[range] { run.checkItem(item, masters: masters) }
      case .notes: run.notes(calendar, items: items)
      case .placement: run.checkPlacement(calendar)
      case .children(let range):
        for child in calendar.components[range] { run.check(child, hasMethod: hasMethod) }
      }
      return run
    }
    for run in done {
      diagnostics += run.diagnostics
      adoptCaches(of: run)
    }
  }

  /// A part of ``checkCalendar(_:)``, in the order its findings are reported: the parts are
  /// checked at once (``ParallelWork``), each with a copy of the run's caches, and what each
  /// found is reported in this order, as if checked in turn.
  private enum CalendarJob: Sendable {
    case timeZones
    case uniqueIDs
    /// A run of the calendar's events and tasks, for the checks among them.
    case items(Range<Int>)
    case notes
    case placement
    /// A run of the calendar's children, each checked with its own children.
    case children(Range<Int>)
  }

  /// Checks a component below VCALENDAR and its children.
  mutating func check(_ component: ICalComponent, hasMethod: Bool) {
    switch component.name {
    case "VEVENT":
      let rfc = "RFC 5545 §3.6.1"
      require(["UID", "DTSTAMP"], in: component, rfc: rfc)
      if !hasMethod { require(["DTSTART"], in: component, rfc: rfc, note: " (no METHOD)") }
      uniqueOnly(
        [
          "UID", "DTSTAMP", "DTSTART", "CLASS", "CREATED", "DESCRIPTION", "GEO", "LAST-MODIFIED",
          "LOCATION",
          "ORGANIZER", "PRIORITY", "SEQUENCE", "STATUS", "SUMMARY", "TRANSP", "URL",
          "RECURRENCE-ID", "DTEND", "DURATION",
        ], in: component, rfc: rfc)
      exclusive("DTEND", "DURATION", in: component, rfc: rfc)
      endNotBeforeStart("DTEND", in: component, rfc: "RFC 5545 §3.8.2.2")
      checkTriggerAnchors(component)
    case "VTODO":
      let rfc = "RFC 5545 §3.6.2"
      require(["UID", "DTSTAMP"], in: component, rfc: rfc)
      uniqueOnly(
        [
          "UID", "DTSTAMP", "DTSTART", "CLASS", "COMPLETED", "CREATED", "DESCRIPTION", "GEO",
          "LAST-MODIFIED",
          "LOCATION", "ORGANIZER", "PERCENT-COMPLETE", "PRIORITY", "RECURRENCE-ID", "SEQUENCE",
          "STATUS", "SUMMARY", "URL", "DUE", "DURATION",
        ], in: component, rfc: rfc)
      exclusive("DUE", "DURATION", in: component, rfc: rfc)
      endNotBeforeStart("DUE", in: component, rfc: "RFC 5545 §3.8.2.3")
      checkTriggerAnchors(component)
    case "VALARM":
      checkAlarm(component)
    default:
      break
    }
    checkValues(component)
    for child in component.components { check(child, hasMethod: hasMethod) }
  }

  private mutating func checkAlarm(_ alarm: ICalComponent) {
    let rfc = "RFC 5545 §3.6.6"
    require(["ACTION", "TRIGGER"], in: alarm, rfc: rfc)
    uniqueOnly(["ACTION", "TRIGGER", "DURATION", "REPEAT"], in: alarm, rfc: rfc)
    switch AlarmComponent.action(of: alarm) {
    case "DISPLAY":
      require(["DESCRIPTION"], in: alarm, rfc: rfc, note: " with ACTION:DISPLAY")
      uniqueOnly(["DESCRIPTION"], in: alarm, rfc: rfc, note: " with ACTION:DISPLAY")
    case "EMAIL":
      require(["DESCRIPTION", "SUMMARY"], in: alarm, rfc: rfc, note: " with ACTION:EMAIL")
      uniqueOnly(["DESCRIPTION", "SUMMARY"], in: alarm, rfc: rfc, note: " with ACTION:EMAIL")
      if alarm.property(uppercased: "ATTENDEE") == nil {
        report(
          .missingProperty, at: begin(alarm),
          "VALARM with ACTION:EMAIL needs at least one ATTENDEE", rfc: rfc)
      }
    case "AUDIO":
      uniqueOnly(["ATTACH"], in: alarm, rfc: rfc, note: " with ACTION:AUDIO")
    default:
      break
    }
    let duration = alarm.property(uppercased: "DURATION")
    let repeatCount = alarm.property(uppercased: "REPEAT")
    if let present = duration ?? repeatCount, (duration == nil) != (repeatCount == nil) {
      let missing = duration == nil ? "DURATION" : "REPEAT"
      report(
        .repeatDuration, at: name(present),
        "\(present.name) without \(missing); a repeating alarm needs both or neither")
    }
  }

  /// RFC 5545 §3.8.6.3: a trigger relative to the start needs DTSTART; one relative to the
  /// end needs DTEND (an event), DUE (a task), or DTSTART and DURATION.
  private mutating func checkTriggerAnchors(_ item: ICalComponent) {
    let endName = item.name == "VTODO" ? "DUE" : "DTEND"
    for alarm in AlarmComponent.all(in: item) {
      guard let missing = alarm.missingAnchor,
        let trigger = alarm.component.property(uppercased: "TRIGGER")
      else { continue }
      switch missing {
      case .start:
        report(
          .triggerAnchor, at: name(trigger),
          "TRIGGER is relative to the start, but this \(item.name) has no DTSTART")
      case .end:
        report(
          .triggerAnchor, at: name(trigger),
          "TRIGGER;RELATED=END needs \(endName), or DTSTART and DURATION, in this \(item.name)")
      }
    }
  }

  /// Each name must appear (``uniqueOnly`` checks that it appears only once).
  private mutating func require(
    _ names: [String], in component: ICalComponent, rfc: String, note: String = ""
  ) {
    for name in names {
      if !component.hasProperty(uppercased: name) {
        report(
          .missingProperty, at: begin(component),
          "\(component.name)\(note) needs \(name)", rfc: rfc)
      }
    }
  }

  /// Each name may appear at most once.
  private mutating func uniqueOnly(
    _ names: [String], in component: ICalComponent, rfc: String, note: String = ""
  ) {
    // Most components repeat no name at all: only those that do are looked at name by name.
    let properties = component.properties
    let repeatsAName = properties.indices.contains { index in
      properties[..<index].contains { $0.name == properties[index].name }
    }
    guard repeatsAName else { return }
    for name in names {
      let found = component.properties(named: name)
      for extra in found.dropFirst() {
        report(
          .duplicateProperty, at: self.name(extra),
          "\(name) may appear only once in \(component.name)\(note); first on line \(line(found[0]))",
          rfc: rfc)
      }
    }
  }

  /// At most one of two names may appear; reported at the later one.
  private mutating func exclusive(
    _ first: String, _ second: String, in component: ICalComponent, rfc: String
  ) {
    guard let one = component.property(first), let other = component.property(second) else {
      return
    }
    let (earlier, later) = name(one) < name(other) ? (one, other) : (other, one)
    report(
      .exclusiveProperties, at: name(later),
      "\(component.name) may have \(first) or \(second), not both (\(earlier.name) on line \(line(earlier)))",
      rfc: rfc)
  }

  /// DTEND or DUE must not come before DTSTART when both are written in the same form.
  private mutating func endNotBeforeStart(
    _ name: String, in component: ICalComponent, rfc: String
  ) {
    guard let startLine = component.property(uppercased: "DTSTART"),
      let endLine = component.property(name),
      let start = Self.dateTime(startLine), let end = Self.dateTime(endLine)
    else { return }
    let comparable: Bool
    switch (start, end) {
    case (.date, .date), (.floating, .floating), (.utc, .utc): comparable = true
    case (.zoned(_, let a), .zoned(_, let b)): comparable = a == b
    default: comparable = false
    }
    guard comparable, end.local < start.local else { return }
    report(
      .endBeforeStart, at: value(endLine),
      "\(name) \(endLine.value) is before DTSTART \(startLine.value) (line \(line(startLine)))",
      rfc: rfc)
  }

  /// The DATE or DATE-TIME value of a property, when well formed.
  static func dateTime(_ line: ICalProperty) -> DateTimeValue? {
    let isDate = line.parameter(uppercased: "VALUE")?.uppercased() == "DATE"
    return DateTimeValue(text: line.value, tzid: line.parameter(uppercased: "TZID"), isDate: isDate)
  }

  /// Where RFC 5545 §3.6 lets each known component appear (X- and unknown ones anywhere).
  static let allowedParents: [String: Set<String>] = [
    "VEVENT": ["VCALENDAR"], "VTODO": ["VCALENDAR"], "VJOURNAL": ["VCALENDAR"],
    "VFREEBUSY": ["VCALENDAR"], "VTIMEZONE": ["VCALENDAR"], "VALARM": ["VEVENT", "VTODO"],
    "STANDARD": ["VTIMEZONE"], "DAYLIGHT": ["VTIMEZONE"],
  ]

  /// Reports components nested where the standard does not allow them.
  mutating func checkPlacement(_ parent: ICalComponent) {
    for child in parent.components {
      if let allowed = Self.allowedParents[child.name], !allowed.contains(parent.name) {
        report(
          .misplacedComponent, at: begin(child),
          "\(child.name) may not appear inside \(parent.name)")
      }
      checkPlacement(child)
    }
  }
}
