import CalDAV
import Foundation
import ICalendar

/// `alarmcal pull`: a CalDAV calendar as one .ics file, incrementally when the server offers
/// sync-collection (RFC 6578) and a previous pull left its token.
enum PullCommand: ToolCommand {
  static let declaration = CommandDeclaration(
    "pull",
    abstract: "Write a CalDAV calendar as one .ics file (incremental with sync-collection).",
    discussion: """
      Write a CalDAV calendar as one .ics file: every VEVENT and VTODO with their VALARMs, and
      each VTIMEZONE once. The first pull reads everything (calendar-query, RFC 4791 §7.8);
      later ones ask only for what changed since (sync-collection, RFC 6578) when the server
      offers it, and fetch just that (calendar-multiget); after 'alarmcal push FILE', from the
      token the push took. The token and each resource's ETag and digest are kept in
      .FILE.caldav.json next to FILE, which 'alarmcal push FILE' then uses: a resource changed
      on the server since this pull is a conflict there, not an overwrite.

      A change made in FILE since the last pull or push (a snooze, a dismissal, an edit, a new
      alarm) is kept, and the server's changes to the other resources are merged in; 'push'
      then sends it. A resource changed in FILE and on the server keeps FILE's version and is
      named as a conflict, unless --keep says which side to take.

      A FILE ending in .json (or holding JSON) is an alarm list, and stays one: the server's
      changes to its alarms are written into their records, in the record's own shape (an iOS
      app record stays one; its other members and their order are kept); an alarm deleted on
      the server leaves the list; other items of the calendar stay out and are counted. No list
      there yet: the calendar's alarms are written as a new list in alarmcal's shape.
      """,
    options: SharedOptions.calDAV + [
      SharedOptions.output.describing(
        "The .ics file or JSON alarm list to write (atomically); its state is kept next to it."
      ).mandatory,
      OptionDeclaration(
        "list", .text, placeholder: "NAME",
        help:
          "The list FILE holds, as 'push --list NAME' named it: its state is then .NAME.list.caldav.json next to FILE."
      ),
      OptionDeclaration(
        "keep", .choice(["local", "server"]),
        help:
          "Settle a resource changed in FILE and on the server: 'local' keeps FILE's version (push then sends it over the server's), 'server' takes the server's. Either way it is not a conflict."
      ),
    ] + SharedOptions.input,
    epilogue: """
      Prints "pulled: N resources (full read)" or "pulled: N changed, N removed (sync-collection)",
      and for a list, "N items in the calendar are not in this list" when there are any.
      """,
    exitStatuses: [
      ExitStatus(.success),
      ExitStatus(.problemsFound, "conflicts (FILE's versions kept, the rest merged)"),
      ExitStatus(.usage), ExitStatus(.badData, "unusable calendar data, FILE or state file"),
      ExitStatus(.noInput, "FILE is a folder or unreadable"), ExitStatus(.unavailable),
      ExitStatus(.ioError),
      ExitStatus(
        .protocolError,
        "unusable CalDAV answer (not XML, too large, another host, an href outside the collection)"
      ),
      ExitStatus(.noPermission, "credentials or access refused (401, 403)"),
    ])

  struct Options {
    var connection: CalDAVConnection
    var output: String
    /// The list named with `--list`, whose state file is then the list's own.
    var namedList: String?
    var keep: Keep?
    /// The largest FILE read (`--max-file-size`).
    var maximumBytes: Int
  }

  /// The side `--keep` takes of a resource changed here and on the server.
  enum Keep: String {
    /// This file's version, to be pushed over the server's.
    case local
    /// The server's version.
    case server
  }

  static func parseOptions(_ parsed: ParsedArguments, context: ToolContext) throws(UsageError)
    -> Options
  {
    guard parsed.positionals.isEmpty else {
      throw UsageError("unexpected argument '\(parsed.positionals[0])'")
    }
    guard let output = parsed.values["output"], output != "-" else {
      throw UsageError("-o must name a file, not '-' (the pull's state is kept next to it)")
    }
    let list = try parsed.listName()
    return Options(
      connection: try CalDAVConnection(parsed), output: output, namedList: list,
      keep: parsed.values["keep"].flatMap(Keep.init(rawValue:)),
      maximumBytes: try parsed.maximumBytes())
  }

  static func perform(_ options: Options, context: ToolContext) throws(CommandFailure)
    -> ExitCode
  {
    let collection = options.connection.collectionURL
    var state: CalDAVState
    var known: CalDAVState.Collection
    do {
      state = try CalDAVState.load(for: options.output, list: options.namedList)
      known = try state.collection(collection, file: options.output, list: options.namedList)
    } catch {
      throw CommandFailure(.badData, error.message)
    }
    if ListPull.isList(options.output) {
      var pull = ListPull(options: options, state: state, known: known)
      return try pull.run(context: context)
    }
    let local = try LocalCopy.read(
      options.output, known: known, maximumBytes: options.maximumBytes, context: context)
    let session = try options.connection.session(context: context)
    var merge = Merge(collection: collection, known: known, local: local)
    merge.keep = options.keep
    let summary: String
    do {
      summary = try merge.read(session)
    } catch {
      throw CalDAVConnection.failure(error)
    }
    let bytes: [UInt8]
    do {
      bytes = try merge.write()
    } catch {
      throw CommandFailure(.badData, error.message)
    }
    state.collections[collection.absoluteString] = merge.known
    do {
      try AtomicFile.write(bytes, to: options.output)
      try state.save(for: options.output, list: options.namedList)
    } catch {
      throw CommandFailure(.ioError, error.message)
    }
    merge.report(context.report)
    context.standardOutput.write(summary)
    return merge.conflicts.isEmpty ? .success : .problemsFound
  }
}
