import AlarmCal
import CalDAV
import Foundation
import ICalendar

/// `alarmcal upcoming`: when the alarms in .ics files go off.
enum UpcomingCommand {
  static let usage =
    "Usage: alarmcal upcoming FILE... | --url COLLECTION_URL [--from ISO] [--to ISO] [--limit N] [--tz ZONE] [--now ISO] [--format text|json|ndjson] [--include-acknowledged] [--include-due] [--max-file-size SIZE] [--max-instances N]"

  struct Options {
    var files: [String]
    /// A CalDAV calendar to read besides the files (`--url`).
    var connection: CalDAVConnection?
    var from: Instant
    var to: Instant?
    var limit: Int?
    var zone: TimeZoneRules
    var now: Instant
    var format: FiringFormat
    var includeAcknowledged: Bool
    var includeDue: Bool
    var maximumBytes: Int
    var maximumInstances: Int
  }

  static func run(_ arguments: [String], context: ToolContext) -> ExitCode {
    let outcome = CommandFront.parse(
      arguments, command: "upcoming", usage: usage, help: HelpText.upcoming,
      valued: CalDAVConnection.valuedOptions.union([
        "from", "to", "limit", "tz", "now", "format", "max-file-size", "max-instances",
      ]),
      flags: ["include-acknowledged", "include-due"],
      context: context
    ) { (parsed) throws(UsageError) in try parseOptions(parsed, context: context) }
    switch outcome {
    case .exit(let status): return status
    case .run(let options): return upcoming(options, context: context)
    }
  }

  private static func parseOptions(_ parsed: ParsedArguments, context: ToolContext)
    throws(UsageError)
    -> Options
  {
    let connection = parsed.values["url"] == nil ? nil : try CalDAVConnection(parsed)
    guard !parsed.positionals.isEmpty || connection != nil else {
      throw UsageError("missing FILE (or --url)")
    }
    let zone = try ConvertCommand.zoneOption(parsed.values["tz"])
    let now = try TimestampArgument.now(of: parsed, in: zone, context: context)
    let from = try TimestampArgument.option("from", of: parsed, in: zone) ?? now
    let to = try TimestampArgument.option("to", of: parsed, in: zone)
    if let to, to <= from { throw UsageError("--to must be after --from") }
    var limit: Int?
    if let text = parsed.values["limit"] {
      guard let number = Int(text), number >= 1 else {
        throw UsageError("--limit must be a positive whole number, not '\(text)'")
      }
      limit = number
    } else if to == nil {
      limit = 10
    }
    var format = FiringFormat.text
    if let text = parsed.values["format"] {
      guard let chosen = FiringFormat(rawValue: text) else {
        throw UsageError("--format must be text, json or ndjson, not '\(text)'")
      }
      format = chosen
    }
    var maximumInstances = defaultMaximumInstances
    if let text = parsed.values["max-instances"] {
      guard let number = Int(text), number >= 1 else {
        throw UsageError("--max-instances must be a positive whole number, not '\(text)'")
      }
      maximumInstances = number
    }
    return Options(
      files: parsed.positionals, connection: connection, from: from, to: to, limit: limit,
      zone: zone, now: now,
      format: format, includeAcknowledged: parsed.flags.contains("include-acknowledged"),
      includeDue: parsed.flags.contains("include-due"),
      maximumBytes: try InputFile.maximumBytes(of: parsed), maximumInstances: maximumInstances)
  }

  /// How many recurrence instances (candidates tried) one component may cost per run unless
  /// `--max-instances` says otherwise.
  static let defaultMaximumInstances = 1_000_000

  private static func upcoming(_ options: Options, context: ToolContext) -> ExitCode {
    let err = context.standardError
    var failed = false
    var schedule = FiringSchedule(
      defaultZone: options.zone, includeAcknowledged: options.includeAcknowledged,
      workLimit: options.maximumInstances, includeDue: options.includeDue)
    for file in options.files {
      let name = file == "-" ? "<stdin>" : file
      // An alarm list is planned as `convert` would export it at --now.
      guard
        let bytes = AlarmListInput.calendar(
          of: file, maximumBytes: options.maximumBytes, zone: options.zone, now: options.now,
          context: context)
      else {
        failed = true
        continue
      }
      do {
        // Each event becomes its series as soon as it is read.
        try schedule.read(consume bytes, file: file)
      } catch {
        err.write("\(name):\(error.line): \(error.message)\n")
        failed = true
      }
    }
    if let connection = options.connection {
      switch read(connection, into: &schedule, context: context) {
      case .success: break
      case .failure(let stop): return stop.status
      }
    }
    for warning in schedule.warnings { err.write("warning: \(warning)\n") }
    let colour =
      options.format == .text && context.standardOutputIsTerminal
      && context.environment["NO_COLOR"] == nil
    var printer = FiringPrinter(
      format: options.format, zone: options.zone, now: options.now, colour: colour,
      sink: context.standardOutput)
    printer.begin()
    schedule.startFirings(from: options.from, to: options.to, limit: options.limit)
    // Batches, not the public sequence: JSON writes what a source's firings share once.
    var batch = FiringBatch()
    repeat {
      schedule.nextFirings(max: .max, into: &batch)
      for index in 0..<batch.count { printer.print(batch, at: index) }
    } while !batch.isEmpty
    // "No alarms in this window." would be false next to a file that could not be read.
    printer.end(sayWhenEmpty: !failed)
    for warning in schedule.lateWarnings { err.write("warning: \(warning)\n") }
    return failed ? .problemsFound : .success
  }

  /// Reads the CalDAV calendar at `--url` (calendar-query, RFC 4791 §7.8) into `schedule`, as
  /// `pull` would write it; a failure is written and ends the command.
  private static func read(
    _ connection: CalDAVConnection, into schedule: inout FiringSchedule, context: ToolContext
  ) -> Result<Void, Stopped> {
    let session: CalDAVSession
    switch connection.session(context: context) {
    case .success(let opened): session = opened
    case .failure(let stop): return .failure(stop)
    }
    let collection = connection.collectionURL
    let objects: [CalendarObject]
    do {
      objects = try session.calendarObjects(in: collection)
    } catch {
      return .failure(Stopped(CalDAVConnection.report(error, context: context)))
    }
    let bytes: [UInt8]
    do {
      (bytes, _) = try PullCommand.joined(
        objects.compactMap { object in
          object.data.map { (object.url.path(percentEncoded: true), $0) }
        }, collection: collection)
    } catch {
      context.standardError.write("alarmcal: error: \(error.message)\n")
      return .failure(Stopped(.badData))
    }
    do {
      try schedule.read(consume bytes, file: collection.absoluteString)
    } catch {
      context.standardError.write(
        "alarmcal: error: \(collection.absoluteString):\(error.line): \(error.message)\n")
      return .failure(Stopped(.badData))
    }
    return .success(())
  }
}
