import AlarmCal
import ICalendar

/// `alarmcal plan`: the notifications an app should schedule, within iOS's 64 pending.
enum PlanCommand: ToolCommand {
  /// The requests planned without --budget: iOS keeps 64 pending per app.
  static let defaultBudget = 64

  static let declaration = CommandDeclaration(
    "plan",
    abstract: "The notifications an app schedules (within iOS's 64) to ring them.",
    discussion: """
      Plan the local notifications an app schedules so that the alarms of .ics files and alarm
      lists ring as 'alarmcal upcoming' says, within a budget of pending requests. An alarm that
      rings on weekdays at one wall-clock time of the plan's zone, for ever, costs one repeating
      request per weekday; every other firing is a one-shot, in time order while the budget
      lasts. The app must plan again before validUntil, and whenever the device's zone changes.
      """,
    arguments: [
      ArgumentDeclaration(
        "FILE", repeating: true,
        help:
          "An .ics file, or an alarm list (JSON), planned as 'convert' would export it at --now; '-' reads standard input."
      )
    ],
    options: [
      OptionDeclaration(
        "budget", .count, default: "\(defaultBudget), iOS's limit per app",
        help: "At most N requests."),
      SharedOptions.format(
        ["json", "text"],
        help: "JSON an app decodes into UNNotificationRequests, or a short table."),
    ] + SharedOptions.time + SharedOptions.input,
    epilogue: """
      --tz is the device's zone: repeating requests follow its wall clock.
      """,
    exitStatuses: [
      ExitStatus(.success), ExitStatus(.usage), ExitStatus(.badData), ExitStatus(.noInput),
      ExitStatus(.ioError),
    ])

  struct Options {
    var files: [String]
    var budget: Int
    var zone: TimeZoneRules
    var now: Instant
    var json: Bool
    var maximumBytes: Int
  }

  static func parseOptions(_ parsed: ParsedArguments, context: ToolContext)
    throws(UsageError) -> Options
  {
    guard !parsed.positionals.isEmpty else { throw UsageError("missing FILE") }
    let zone = try parsed.zone()
    return Options(
      files: parsed.positionals,
      budget: try parsed.count("budget", in: 1...100_000) ?? defaultBudget,
      zone: zone, now: try parsed.now(in: zone, context: context),
      json: parsed.values["format"] != "text", maximumBytes: try parsed.maximumBytes())
  }

  static func perform(_ options: Options, context: ToolContext) throws(CommandFailure)
    -> ExitCode
  {
    let err = context.report
    var compiler = PlanCompiler(zone: options.zone, now: options.now, budget: options.budget)
    for file in options.files {
      let name = InputFile.displayName(file)
      let bytes = try AlarmListInput.calendar(
        of: file, maximumBytes: options.maximumBytes, zone: options.zone, now: options.now,
        context: context)
      do {
        try compiler.read(bytes, file: file)
      } catch {
        throw CommandFailure(.badData, "\(name):\(error.line): \(error.message)")
      }
    }
    for warning in compiler.warnings { err.warning("\(warning)") }
    let plan = compiler.compile()
    for warning in compiler.lateWarnings { err.warning("\(warning)") }
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
