import AlarmCal
import CalDAV
import Foundation
import ICalendar

/// `alarmcal push`: each alarm of the files becomes one resource `<UID>.ics` in a CalDAV
/// calendar, written only when new (`If-None-Match: *`) or changed (`If-Match`).
enum PushCommand: ToolCommand {
  static let declaration = CommandDeclaration(
    "push",
    abstract: "Put the alarms of files into a CalDAV calendar, one resource per UID.",
    discussion: """
      Put the alarms of FILE... into a CalDAV calendar: each VEVENT or VTODO (with its overrides
      and the VTIMEZONEs it names) becomes one resource, <UID>.ics. A new one is sent with
      If-None-Match: *, a changed one with If-Match: <ETag>, an unchanged one not at all. One that
      changed on the server since alarmcal last wrote or pulled it is a conflict: reported by
      name, never overwritten; so is one whose ETag the server never gave. One the server has
      that was never pushed or pulled here is adopted when the server's copy is what would be
      sent, else a conflict. One the server refuses (403, 409, 415: invalid data, a UID taken in
      another calendar, ...) is reported with the server's reason, and the push goes on. What was
      sent is remembered in .FILE.caldav.json next to the first FILE, with the calendar's sync
      token from before the first write, so the next pull there reads only what changed; a state
      file that cannot be read, or names a resource outside the calendar, stops the push before
      anything is sent.
      """,
    arguments: [
      ArgumentDeclaration(
        "FILE", repeating: true,
        help:
          "An .ics file, or an alarm list (JSON) pushed as 'convert' would export it at --now."
      )
    ],
    options: SharedOptions.calDAV + [
      OptionDeclaration(
        "list", .text, placeholder: "NAME", default: "the first FILE's name without extension",
        help:
          "The list these alarms belong to. Each component alarmcal creates carries X-ALARMCAL-LIST:NAME. Named, the list's state is kept in .NAME.list.caldav.json next to the first FILE (read from .FILE.caldav.json the first time), so a dated copy of the list (alarms-2026-12-08.json) updates the resources of the one before."
      ),
      OptionDeclaration(
        "delete-missing", .flag,
        help:
          "Also delete the resources this list created, wrote or adopted here (as the state file records) that are no longer in FILE... and unchanged on the server since; nothing else is touched. The X-ALARMCAL-LIST mark alone grants nothing."
      ),
      OptionDeclaration(
        "overwrite", .flag,
        help:
          "Replace the server's copy of a conflicting resource (one changed there, or never pushed or pulled here) with this file's, over the ETag the server has now."
      ),
    ] + SharedOptions.time + SharedOptions.input,
    epilogue: """
      A JSON list is exported at --now; DTSTAMP is SOURCE_DATE_EPOCH when set, else --now.

      Prints "pushed: N new, N changed, N unchanged, N deleted, N conflicts, N refused".
      """,
    exitStatuses: [
      ExitStatus(.success),
      ExitStatus(.problemsFound, "conflicts or refusals (the rest was pushed)"),
      ExitStatus(.usage), ExitStatus(.badData, "unusable input or state file"),
      ExitStatus(.noInput),
      ExitStatus(
        .unavailable,
        "CalDAV server unreachable, timed out, TLS failure, 5xx after retries, or 404 (what was pushed before is remembered)"
      ),
      ExitStatus(.serverFull), ExitStatus(.ioError, "the state file could not be written"),
      ExitStatus(.protocolError),
      ExitStatus(.noPermission, "credentials or access to the calendar refused (401, 403)"),
    ])

  /// The property that marks a component as alarmcal's, with the list's name as its value.
  static let listMark = "X-ALARMCAL-LIST"

  struct Options {
    var files: [String]
    var connection: CalDAVConnection
    var list: String
    /// The list named with `--list`, whose state file is then the list's own.
    var namedList: String?
    var deleteMissing: Bool
    var overwrite: Bool
    var zone: TimeZoneRules
    var now: Instant
    var timestamp: Instant
    var maximumBytes: Int
  }

  /// The tallies printed at the end.
  struct Tally {
    var new = 0
    var changed = 0
    var unchanged = 0
    var deleted = 0
    var conflicts: [String] = []
    var refused: [String] = []

    var line: String {
      "pushed: \(new) new, \(changed) changed, \(unchanged) unchanged, \(deleted) deleted, \(conflicts.count) conflicts, \(refused.count) refused\n"
    }
  }

  static func parseOptions(_ parsed: ParsedArguments, context: ToolContext)
    throws(UsageError) -> Options
  {
    guard let first = parsed.positionals.first else { throw UsageError("missing FILE") }
    let zone = try parsed.zone()
    let now = try parsed.now(in: zone, context: context)
    let namedList = try parsed.listName()
    let list = namedList ?? URL(fileURLWithPath: first).deletingPathExtension().lastPathComponent
    guard !list.contains(where: { $0.isNewline }) else {
      throw UsageError(
        "the list name '\(list)' (the first file's name) must be one line; give --list")
    }
    return Options(
      files: parsed.positionals, connection: try CalDAVConnection(parsed), list: list,
      namedList: namedList, deleteMissing: parsed.flags.contains("delete-missing"),
      overwrite: parsed.flags.contains("overwrite"), zone: zone, now: now,
      timestamp: try SourceDateEpoch.timestamp(context) ?? now,
      maximumBytes: try parsed.maximumBytes())
  }

  static func perform(_ options: Options, context: ToolContext) throws(CommandFailure)
    -> ExitCode
  {
    var calendars: [ICalComponent] = []
    for file in options.files {
      calendars += try readCalendars(file, options: options, context: context)
    }
    let resources: [CalendarResource]
    do {
      resources = try CalendarResources.split(calendars)
    } catch {
      throw CommandFailure(.badData, error.description)
    }
    let collection = options.connection.collectionURL
    let stateFile = options.files[0]
    var state: CalDAVState
    var known: CalDAVState.Collection
    do {
      state = try CalDAVState.load(for: stateFile, list: options.namedList)
      known = try state.collection(collection, file: stateFile, list: options.namedList)
    } catch {
      throw CommandFailure(.badData, error.message)
    }
    let session = try options.connection.session(context: context)
    let export = CalDAVState.ListExport(
      now: options.now.secondsSince1970, timestamp: options.timestamp.secondsSince1970,
      zone: options.zone.identifier)
    var run = Run(
      collection: collection, list: options.list, known: known, session: session,
      exportStamp: export.stamp, context: context)
    var failure: DAVError?
    do {
      try run.push(resources, deleteMissing: options.deleteMissing, overwrite: options.overwrite)
    } catch {
      failure = error
    }
    // What was done is remembered even when the server failed midway.
    run.known.listExport = export
    state.collections[collection.absoluteString] = run.known
    do {
      try state.save(for: stateFile, list: options.namedList)
    } catch {
      throw CommandFailure(.ioError, error.message)
    }
    context.standardOutput.write(run.tally.line)
    if let failure {
      throw CalDAVConnection.failure(
        failure, notes: ["push stopped; what is counted above was done"])
    }
    return run.tally.conflicts.isEmpty && run.tally.refused.isEmpty ? .success : .problemsFound
  }

  /// The resource with `X-ALARMCAL-LIST:list` on each component that has no mark yet.
  static func marked(_ resource: CalendarResource, list: String) -> CalendarResource {
    var copy = resource
    for index in copy.calendar.components.indices
    where CalendarResources.objectKinds.contains(copy.calendar.components[index].name)
      && !copy.calendar.components[index].hasProperty(uppercased: listMark)
    {
      copy.calendar.components[index].add(ICalProperty(listMark, list))
    }
    return copy
  }

  /// The href path of each resource: where its UID was seen before, else
  /// `<collection>/<UID>.ics`.
  static func hrefs(
    for resources: [CalendarResource], in collection: URL, known: CalDAVState.Collection
  ) -> [String] {
    var seen: [String: String] = [:]
    for (path, entry) in known.resources where seen[entry.uid] == nil { seen[entry.uid] = path }
    return resources.map { seen[$0.uid] ?? collection.path(percentEncoded: true) + $0.fileName }
  }

  /// The calendars of one input file; a JSON alarm list is exported as `convert` would at
  /// --now.
  private static func readCalendars(_ file: String, options: Options, context: ToolContext)
    throws(CommandFailure) -> [ICalComponent]
  {
    let bytes = try AlarmListInput.calendar(
      of: file, maximumBytes: options.maximumBytes, zone: options.zone, now: options.now,
      timestamp: options.timestamp, context: context)
    do {
      return try ICalendarReader.read(bytes)
    } catch {
      throw CommandFailure(
        .badData, "\(InputFile.displayName(file)):\(error.line): \(error.message)")
    }
  }
}
