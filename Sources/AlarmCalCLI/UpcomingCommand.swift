import AlarmCal
import CalDAV
import Foundation
import ICalendar

/// `alarmcal upcoming`: when the alarms in .ics files go off.
enum UpcomingCommand: ToolCommand {
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

  static let declaration = CommandDeclaration(
    "upcoming",
    abstract: "List when the alarms in .ics files go off.",
    discussion: """
      List the alarm firings of one or more .ics files in time order: every VALARM of every
      instance (RRULE, RDATE, EXDATE, RECURRENCE-ID overrides), with time zones and DST per
      RFC 5545 and acknowledgements per RFC 9074.
      """,
    arguments: [
      ArgumentDeclaration(
        "FILE", repeating: true, optional: true,
        help:
          "An .ics file, or an alarm list (JSON, any accepted record shape), planned as 'convert' would export it at --now; '-' reads standard input. FILE or --url is needed."
      )
    ],
    options: [
      OptionDeclaration(
        "from", .instant, default: "--now",
        help: "The window's start. Firings with from <= trigger < to are listed."),
      OptionDeclaration(
        "to", .instant, help: "The window's end; without --limit, every firing up to it."),
      OptionDeclaration(
        "limit", .count, default: "\(defaultLimit) without --to",
        help:
          "At most N firings. iOS keeps only the 64 soonest pending notifications: --limit 64 fills that budget."
      ),
      SharedOptions.format(
        ["text", "json", "ndjson"],
        help: "A table for people, one JSON array, or one JSON object per line."),
      OptionDeclaration(
        "include-acknowledged", .flag,
        help: "Also list firings covered by ACKNOWLEDGED or X-MOZ-LASTACK."),
      OptionDeclaration(
        "include-due", .flag,
        help:
          "Also list the DUE of open tasks that have no VALARM (action DUE); completed tasks never ring."
      ),
      OptionDeclaration(
        "max-instances", .count, default: "\(defaultMaximumInstances)",
        help:
          "Look at most N recurrence instances (candidates a rule tries) per component; a component that needs more is cut off there with a warning."
      ),
    ] + SharedOptions.time + SharedOptions.input
      + [
        SharedOptions.url.describing(
          "Also read this CalDAV calendar collection, as 'alarmcal pull' would write it (nothing is kept on disk)."
        )
      ]
      + SharedOptions.credentials,
    epilogue: """
      JSON fields: trigger (UTC), local (in --tz, with offset), uid, component (VEVENT or VTODO),
      recurrenceId (the instance's original start in UTC, YYYY-MM-DD for all-day, null if it does
      not recur), eventStart (UTC), summary, action (DUE for a deadline), repeat (0, or k for the
      k-th REPEAT), acknowledged, alarmUid (the VALARM's UID, null if none), isSnooze (true for
      a snooze's firing), snoozeOf (the UID of the alarm a snooze belongs to, else null), sound
      (the alarm's sound, null for the default), snooze (whether it offers Snooze),
      snoozeMinutes (the snooze's length), as in an alarm list's record, file, id
      (stable across runs and machines, and across snoozes and dismissals of other firings;
      usable as a notification request id).
      """,
    exitStatuses: [
      ExitStatus(.success), ExitStatus(.usage),
      ExitStatus(.badData, "a file's data is unusable (the other files are still listed)"),
      ExitStatus(.noInput, "a file is missing or unreadable (the other files are still listed)"),
      ExitStatus(.unavailable), ExitStatus(.ioError), ExitStatus(.protocolError),
      ExitStatus(.noPermission, "credentials or access refused (401, 403)"),
    ])

  static func parseOptions(_ parsed: ParsedArguments, context: ToolContext)
    throws(UsageError)
    -> Options
  {
    let connection = parsed.values["url"] == nil ? nil : try CalDAVConnection(parsed)
    guard !parsed.positionals.isEmpty || connection != nil else {
      throw UsageError("missing FILE (or --url)")
    }
    let zone = try parsed.zone()
    let now = try parsed.now(in: zone, context: context)
    let from = try parsed.instant("from", in: zone) ?? now
    let to = try parsed.instant("to", in: zone)
    if let to, to <= from { throw UsageError("--to must be after --from") }
    let limit = try parsed.count("limit", in: 1...Int.max) ?? (to == nil ? defaultLimit : nil)
    let format = parsed.values["format"].flatMap(FiringFormat.init(rawValue:)) ?? .text
    return Options(
      files: parsed.positionals, connection: connection, from: from, to: to, limit: limit,
      zone: zone, now: now,
      format: format, includeAcknowledged: parsed.flags.contains("include-acknowledged"),
      includeDue: parsed.flags.contains("include-due"),
      maximumBytes: try parsed.maximumBytes(),
      maximumInstances: try parsed.count("max-instances", in: 1...Int.max)
        ?? defaultMaximumInstances)
  }

  /// How many recurrence instances (candidates tried) one component may cost per run unless
  /// `--max-instances` says otherwise.
  static let defaultMaximumInstances = 1_000_000

  /// How many firings are listed without --limit or --to.
  static let defaultLimit = 10

  static func perform(_ options: Options, context: ToolContext)
    throws(CommandFailure) -> ExitCode
  {
    let err = context.report
    // A file that cannot be read is said as it is met and the others are listed; the first
    // such file decides the exit status.
    var failure: ExitCode?
    var schedule = FiringSchedule(
      defaultZone: options.zone, includeAcknowledged: options.includeAcknowledged,
      workLimit: options.maximumInstances, includeDue: options.includeDue)
    for file in options.files {
      let name = InputFile.displayName(file)
      // An alarm list is planned as `convert` would export it at --now.
      do throws(CommandFailure) {
        let bytes = try AlarmListInput.calendar(
          of: file, maximumBytes: options.maximumBytes, zone: options.zone, now: options.now,
          context: context)
        do {
          // Each event becomes its series as soon as it is read.
          try schedule.read(consume bytes, file: file)
        } catch {
          throw CommandFailure(.badData, "\(name):\(error.line): \(error.message)")
        }
      } catch {
        let status = err.failed(error)
        failure = failure ?? status
      }
    }
    if let connection = options.connection {
      try read(connection, into: &schedule, context: context)
    }
    for warning in schedule.warnings { err.warning("\(warning)") }
    let colour =
      options.format == .text && context.standardOutputIsTerminal
      && context.environment["NO_COLOR"] == nil
    var printer = FiringPrinter(
      format: options.format, zone: options.zone, now: options.now, colour: colour,
      sink: context.standardOutput)
    printer.begin()
    schedule.startFirings(from: options.from, to: options.to, limit: options.limit)
    // Batches, not the public sequence: JSON writes what a source's firings share once. One is
    // printed while the next is found. "No alarms in this window." would be false next to a
    // file that could not be read.
    let late = OverlappedPrinting.printAll(
      of: consume schedule, with: printer, sayWhenEmpty: failure == nil)
    for warning in late { err.warning("\(warning)") }
    return failure ?? .success
  }

  /// Reads the CalDAV calendar at `--url` (calendar-query, RFC 4791 §7.8) into `schedule`, as
  /// `pull` would write it; a failure ends the command.
  private static func read(
    _ connection: CalDAVConnection, into schedule: inout FiringSchedule, context: ToolContext
  ) throws(CommandFailure) {
    let session = try connection.session(context: context)
    let collection = connection.collectionURL
    let objects: [CalendarObject]
    do {
      objects = try session.calendarObjects(in: collection)
    } catch {
      throw CalDAVConnection.failure(error)
    }
    let bytes: [UInt8]
    do {
      (bytes, _) = try CollectionCalendar.joined(
        objects.compactMap { object in
          object.data.map { (object.url.path(percentEncoded: true), $0) }
        }, collection: collection)
    } catch {
      throw CommandFailure(.badData, error.message)
    }
    do {
      try schedule.read(consume bytes, file: collection.absoluteString)
    } catch {
      throw CommandFailure(
        .badData, "\(collection.absoluteString):\(error.line): \(error.message)")
    }
  }
}
