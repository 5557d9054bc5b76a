import AlarmCal
import ICalendar

/// `alarmcal plan`: the notifications an app should schedule, within iOS's 64 pending.
enum PlanCommand {
  static let usage =
    "Usage: alarmcal plan FILE... [--budget N] [--now ISO] [--tz ZONE] [--format json|text] [--max-file-size SIZE]"

  static let helpText = """
    \(usage)

    Plan the local notifications an app schedules so that the alarms of .ics files and alarm
    lists ring as 'alarmcal upcoming' says, within a budget of pending requests. An alarm that
    rings on weekdays at one wall-clock time of the plan's zone, for ever, costs one repeating
    request per weekday; every other firing is a one-shot, in time order while the budget
    lasts. The app must plan again before validUntil, and whenever the device's zone changes.

    Arguments:
      FILE               An .ics file, or an alarm list (JSON), planned as 'convert' would
                         export it at --now; '-' reads standard input.

    Options:
      --budget N         At most N requests (default 64, iOS's limit per app).
      --now ISO          The present moment (default: now).
      --tz ZONE          The device's IANA zone: repeating requests follow its wall clock
                         (default: the system zone).
      --format json|text JSON an app decodes into UNNotificationRequests (default), or a
                         short table.
      --max-file-size SIZE
                         Refuse files larger than SIZE bytes (default 256M).

    """

  struct Options {
    var files: [String]
    var budget: Int
    var zone: TimeZoneRules
    var now: Instant
    var json: Bool
    var maximumBytes: Int
  }

  static func run(_ arguments: [String], context: ToolContext) -> ExitCode {
    let outcome = CommandFront.parse(
      arguments, command: "plan", usage: usage, help: helpText,
      valued: ["budget", "now", "tz", "format", "max-file-size"], flags: [], context: context
    ) { (parsed) throws(UsageError) in try parseOptions(parsed, context: context) }
    switch outcome {
    case .exit(let status): return status
    case .run(let options): return plan(options, context: context)
    }
  }

  private static func parseOptions(_ parsed: ParsedArguments, context: ToolContext)
    throws(UsageError) -> Options
  {
    guard !parsed.positionals.isEmpty else { throw UsageError("missing FILE") }
    let zone = try ConvertCommand.zoneOption(parsed.values["tz"])
    let now = try TimestampArgument.now(of: parsed, in: zone, context: context)
    var budget = 64
    if let text = parsed.values["budget"] {
      guard let number = Int(text), number >= 1, number <= 100_000 else {
        throw UsageError("--budget must be a whole number from 1 to 100000, not '\(text)'")
      }
      budget = number
    }
    var json = true
    if let text = parsed.values["format"] {
      guard text == "json" || text == "text" else {
        throw UsageError("--format must be json or text, not '\(text)'")
      }
      json = text == "json"
    }
    return Options(
      files: parsed.positionals, budget: budget, zone: zone, now: now, json: json,
      maximumBytes: try InputFile.maximumBytes(of: parsed))
  }

  private static func plan(_ options: Options, context: ToolContext) -> ExitCode {
    let err = context.standardError
    var compiler = PlanCompiler(zone: options.zone, now: options.now, budget: options.budget)
    for file in options.files {
      let name = file == "-" ? "<stdin>" : file
      guard
        let bytes = AlarmListInput.calendar(
          of: file, maximumBytes: options.maximumBytes, zone: options.zone, now: options.now,
          context: context)
      else { return .problemsFound }
      do {
        try compiler.read(bytes, file: file)
      } catch {
        err.write("\(name):\(error.line): \(error.message)\n")
        return .problemsFound
      }
    }
    for warning in compiler.warnings { err.write("warning: \(warning)\n") }
    let plan = compiler.compile()
    for warning in compiler.lateWarnings { err.write("warning: \(warning)\n") }
    if options.json {
      context.standardOutput.write(JSONWriter(style: .pretty).string(from: plan.json) + "\n")
    } else {
      context.standardOutput.write(text(plan, zone: options.zone))
    }
    return .success
  }

  /// A short table: one line per request, then until when the plan holds.
  private static func text(_ plan: NotificationPlan, zone: TimeZoneRules) -> String {
    var lines: [String] = []
    for request in plan.requests {
      switch request.trigger {
      case .weekly(let weekday, let time):
        lines.append("every \(weekday.icalCode) \(time)  \(request.title)")
      case .once(_, let instant):
        lines.append("once  \(zone.local(at: instant))  \(request.title)")
      }
    }
    let until = plan.validUntil.map { "valid until \(zone.local(at: $0))" } ?? "valid for ever"
    lines.append("\(plan.requests.count) requests, \(until)")
    return lines.joined(separator: "\n") + "\n"
  }
}
