import ICalendar

/// Checks iCalendar bytes against RFC 5545 and reports every problem found, with exact lines and
/// columns, in one pass.
///
/// Built on ``ICalendarReader/document(_:)``, the reader `upcoming` and `convert` use too, so
/// positions are those of the original (folded) file and a broken line never hides the ones
/// after it.
public enum Validator {
  /// Every problem in `bytes`, in file order; `file` names the file in each diagnostic.
  /// With `now`, alarms of finite series that ended before it are reported as never ringing.
  public static func validate(_ bytes: [UInt8], file: String, now: Instant? = nil) -> [Diagnostic] {
    let document = ICalendarReader.document(bytes)
    var run = ValidationRun(file: file, now: now, source: document.source)
    for finding in document.findings { run.report(finding) }
    for problem in document.structure { run.report(problem) }
    let calendars = document.components
    let calendarCount = calendars.filter { $0.name == "VCALENDAR" }.count
    let tooDeep = document.structure.contains { $0.kind == .tooDeep }
    if document.firstLine == nil || calendarCount == 0, !tooDeep,
      document.findings.allSatisfy({ !$0.isError })
    {
      let position = document.firstLine ?? SourcePosition(line: 1, column: 1)
      run.report(.notCalendar, at: position, "the file has no VCALENDAR component")
    }
    var seenCalendar = false
    // pull and upcoming --url keep resources apart in calendars of their own where they must
    // (CalendarsApart); alarmcal reads every calendar of its own files.
    var earlier: [(zone: String, definitions: [String: [UInt8]])] = []
    for component in calendars {
      guard component.name == "VCALENDAR" else {
        run.report(
          .notCalendar, at: run.begin(component),
          "\(component.name) at the top level; only VCALENDAR components may be there")
        // Its content is still checked (values too), so one misplaced BEGIN does not hide the
        // rest.
        run.check(component, hasMethod: true)
        continue
      }
      if calendarCount > 1 {
        let zone = component.propertyValue(uppercased: "X-WR-TIMEZONE") ?? ""
        let definitions = CalendarsApart.definitions(in: component)
        let keptApart =
          component.propertyValue(uppercased: "PRODID").map(ProductIdentifier.isAlarmcal) == true
          && !earlier.contains {
            CalendarsApart.canJoin(zone, definitions, with: $0.zone, $0.definitions)
          }
        earlier.append((zone, definitions))
        if seenCalendar, !keptApart {
          run.report(
            .multipleCalendars, at: run.begin(component),
            "another VCALENDAR in the same file; many readers take only the first")
        }
      }
      seenCalendar = true
      run.checkCalendar(component)
    }
    // The trees go before the diagnostics are sorted.
    _ = consume document
    _ = consume calendars
    return run.diagnostics.enumerated().sorted {
      ($0.element.line, $0.element.column, $0.offset) < (
        $1.element.line, $1.element.column, $1.offset
      )
    }.map(\.element)
  }
}
