import AlarmCal
import CalDAV
import Foundation
import ICalendar

/// `alarmcal push`: each alarm of the files becomes one resource `<UID>.ics` in a CalDAV
/// calendar, written only when new (`If-None-Match: *`) or changed (`If-Match`).
enum PushCommand {
  static let usage =
    "Usage: alarmcal push FILE... --url COLLECTION_URL [--user NAME] [--password-file FILE] [--list NAME] [--delete-missing] [--overwrite] [--now ISO] [--tz ZONE]"

  static let helpText = """
    \(usage)

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

    Arguments:
      FILE               An .ics file, or an alarm list (JSON) pushed as 'convert' would
                         export it at --now.

    Options:
      --url URL          The calendar collection (see 'alarmcal calendars').
    \(CalDAVConnection.optionHelp)
      --list NAME        The list these alarms belong to (default: the first FILE's name
                         without extension). Each component alarmcal creates carries
                         X-ALARMCAL-LIST:NAME.
      --delete-missing   Also delete the resources this list created, wrote or adopted here
                         (as the state file records) that are no longer in FILE... and
                         unchanged on the server since; nothing else is touched. The
                         X-ALARMCAL-LIST mark alone grants nothing.
      --overwrite        Replace the server's copy of a conflicting resource (one changed
                         there, or never pushed or pulled here) with this file's, over the
                         ETag the server has now.
      --now ISO          The moment a JSON list is exported for (default: now).
      --tz ZONE          IANA zone for JSON alarms that name none (default: the system zone).
      -h, --help         Show this help.

    Prints "pushed: N new, N changed, N unchanged, N deleted, N conflicts, N refused".
    Exit status: 0 done, 1 conflicts or refusals (the rest was pushed), 64 usage error, 65
    unusable input or state file,
    66 missing input, 69 server unreachable (or 5xx, 404, TLS failure; what was pushed before
    is remembered), 73 server full (507), 74 the state file could not be written,
    76 unusable answer, 77 credentials or access to the calendar refused (401, 403).

    """

  /// The property that marks a component as alarmcal's, with the list's name as its value.
  static let listMark = "X-ALARMCAL-LIST"

  struct Options {
    var files: [String]
    var connection: CalDAVConnection
    var list: String
    var deleteMissing: Bool
    var overwrite: Bool
    var zone: TimeZoneRules
    var now: Instant
    var timestamp: Instant
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

  static func run(_ arguments: [String], context: ToolContext) -> ExitCode {
    let outcome = CommandFront.parse(
      arguments, command: "push", usage: usage, help: helpText,
      valued: CalDAVConnection.valuedOptions.union(["list", "now", "tz"]),
      flags: ["delete-missing", "overwrite"], context: context
    ) { (parsed) throws(UsageError) in try parseOptions(parsed, context: context) }
    switch outcome {
    case .exit(let status): return status
    case .run(let options): return push(options, context: context)
    }
  }

  private static func parseOptions(_ parsed: ParsedArguments, context: ToolContext)
    throws(UsageError) -> Options
  {
    guard let first = parsed.positionals.first else { throw UsageError("missing FILE") }
    let zone = try ConvertCommand.zoneOption(parsed.values["tz"])
    let now = try TimestampArgument.now(of: parsed, in: zone, context: context)
    var timestamp = now
    if let epoch = context.environment["SOURCE_DATE_EPOCH"], let seconds = Int64(epoch) {
      timestamp = Instant(secondsSince1970: seconds)
    }
    let list =
      parsed.values["list"]
      ?? URL(fileURLWithPath: first).deletingPathExtension().lastPathComponent
    guard !list.contains(where: { $0.isNewline }) else {
      throw UsageError("--list must be one line")
    }
    return Options(
      files: parsed.positionals, connection: try CalDAVConnection(parsed), list: list,
      deleteMissing: parsed.flags.contains("delete-missing"),
      overwrite: parsed.flags.contains("overwrite"), zone: zone, now: now,
      timestamp: timestamp)
  }

  private static func push(_ options: Options, context: ToolContext) -> ExitCode {
    let err = context.standardError
    var calendars: [ICalComponent] = []
    for file in options.files {
      switch readCalendars(file, options: options, context: context) {
      case .success(let read): calendars += read
      case .failure(let stop): return stop.status
      }
    }
    let resources: [CalendarResource]
    do {
      resources = try CalendarResources.split(calendars)
    } catch {
      err.write("alarmcal: error: \(error.description)\n")
      return .badData
    }
    let collection = options.connection.collectionURL
    let stateFile = options.files[0]
    var state: CalDAVState
    var known: CalDAVState.Collection
    do {
      state = try CalDAVState.load(for: stateFile)
      known = try state.collection(collection, file: stateFile)
    } catch {
      err.write("alarmcal: error: \(error.message)\n")
      return .badData
    }
    let session: CalDAVSession
    switch options.connection.session(context: context) {
    case .success(let opened): session = opened
    case .failure(let stop): return stop.status
    }
    var run = Run(
      collection: collection, list: options.list, known: known, session: session,
      context: context)
    var failure: DAVError?
    do {
      try run.push(resources, deleteMissing: options.deleteMissing, overwrite: options.overwrite)
    } catch {
      failure = error
    }
    // What was done is remembered even when the server failed midway.
    state.collections[collection.absoluteString] = run.known
    do {
      try state.save(for: stateFile)
    } catch {
      err.write("alarmcal: error: \(error.message)\n")
      return .ioError
    }
    context.standardOutput.write(run.tally.line)
    if let failure {
      err.write("alarmcal: error: push stopped; what is counted above was done\n")
      return CalDAVConnection.report(failure, context: context)
    }
    return run.tally.conflicts.isEmpty && run.tally.refused.isEmpty ? .success : .problemsFound
  }

  /// One push under way: it reads the server, asks ``SyncPlan`` what to do, does it, and
  /// records what was done in `known`.
  struct Run {
    let collection: URL
    let list: String
    var known: CalDAVState.Collection
    let session: CalDAVSession
    let context: ToolContext
    var tally = Tally()

    init(
      collection: URL, list: String, known: CalDAVState.Collection, session: CalDAVSession,
      context: ToolContext
    ) {
      self.collection = collection
      self.list = list
      self.known = known
      self.session = session
      self.context = context
    }

    /// What the plan needs of one local resource besides its key, and where it goes.
    struct Outgoing {
      let resource: CalendarResource
      let path: String
      let url: URL
      let body: [UInt8]
      let digest: String
      let marked: Bool
    }

    mutating func push(_ resources: [CalendarResource], deleteMissing: Bool, overwrite: Bool)
      throws(DAVError)
    {
      guard let scope = CollectionScope(collection) else { return }
      // The token before anything is read or written: a change another client makes from now
      // on is in the next pull's sync-collection report, one made before is in the listing.
      let token = (try? session.syncToken(of: collection)) ?? nil
      var listing: [String: String] = [:]
      var hrefOf: [String: String] = [:]
      for member in try session.members(of: collection) {
        listing[member.url.path] = member.etag
        hrefOf[member.url.path] = member.url.path(percentEncoded: true)
      }
      // Paths compared percent-decoded: servers encode `@` and the like differently.
      var records: [String: SyncPlan.Record] = [:]
      for (path, entry) in known.resources {
        guard let key = scope.member(path)?.path else { continue }
        hrefOf[key] = path
        records[key] = SyncPlan.Record(
          uid: entry.uid, etag: entry.etag, digest: entry.digest, list: entry.list)
      }
      var outgoing: [String: Outgoing] = [:]
      var local: [SyncPlan.Local] = []
      for (resource, path) in zip(resources, hrefs(for: resources, in: collection, known: known)) {
        // The state's paths were checked when it was read; the others are `<UID>.ics`.
        guard let url = scope.member(path) else { continue }
        let mark = known.resources[path]?.marked ?? true
        let body = (mark ? marked(resource, list: list) : resource).bytes
        let digest = CalDAVState.digest(body)
        let key = url.path
        if hrefOf[key] == nil { hrefOf[key] = path }
        outgoing[key] = Outgoing(
          resource: resource, path: hrefOf[key] ?? path, url: url, body: body, digest: digest,
          marked: mark)
        local.append(SyncPlan.Local(key: key, uid: resource.uid, bytes: body, digest: digest))
      }
      var serverTexts: [String: String] = [:]
      let unknown = SyncPlan.unrecorded(local: local, records: records, listing: listing)
      if !unknown.isEmpty {
        let urls = unknown.compactMap { outgoing[$0]?.url }
        for object in try session.calendarObjects(at: urls, in: collection) {
          if let data = object.data { serverTexts[object.url.path] = data }
        }
      }
      let actions = SyncPlan.actions(
        local: local, records: records, listing: listing, serverTexts: serverTexts, list: list,
        deleteMissing: deleteMissing, overwrite: overwrite)
      var written: Set<String> = []
      defer {
        remember(token: token, listing: listing, hrefOf: hrefOf, written: written, scope: scope)
      }
      for action in actions {
        switch action {
        case .keep(let key, let claim):
          tally.unchanged += 1
          if claim, let path = hrefOf[key] { known.resources[path]?.list = list }
        case .adopt(let key, let etag):
          guard let item = outgoing[key] else { continue }
          tally.unchanged += 1
          record(item, etag: etag)
        case .create(let key):
          guard let item = outgoing[key] else { continue }
          if try write(item, replacing: nil) { written.insert(key) }
        case .replace(let key, let etag):
          guard let item = outgoing[key] else { continue }
          if try write(item, replacing: etag) { written.insert(key) }
        case .delete(let key, let etag):
          guard let path = hrefOf[key], let url = scope.member(path) else { continue }
          let uid = known.resources[path]?.uid ?? path
          switch try session.delete(url, etag: etag) {
          case .conflict:
            conflict(uid, url, "changed on the server while deleting; kept")
          case .refused(let refusal):
            refused(uid, url, refusal)
          case .done:
            tally.deleted += 1
            known.resources[path] = nil
            written.insert(key)
          }
        case .forget(let key):
          if let path = hrefOf[key] { known.resources[path] = nil }
        case .conflict(let key, let uid, let why):
          let url = outgoing[key]?.url ?? hrefOf[key].flatMap { scope.member($0) } ?? collection
          conflict(uid, url, Self.reason(why))
        }
      }
    }

    /// PUTs one resource; whether it was written.
    private mutating func write(_ item: Outgoing, replacing etag: String?) throws(DAVError)
      -> Bool
    {
      switch try session.put(item.body, at: item.url, replacing: etag) {
      case .conflict:
        conflict(
          item.resource.uid, item.url,
          "changed on the server since it was read; not overwritten (pull first, or push --overwrite to replace the server's copy)"
        )
        return false
      case .refused(let refusal):
        refused(item.resource.uid, item.url, refusal)
        return false
      case .done(let newETag):
        if etag == nil { tally.new += 1 } else { tally.changed += 1 }
        // No ETag even when asked again: recorded as unknown, so the next change is a conflict.
        record(item, etag: newETag ?? "")
        return true
      }
    }

    private mutating func record(_ item: Outgoing, etag: String) {
      known.resources[item.path] = CalDAVState.Resource(
        uid: item.resource.uid, etag: etag, digest: item.digest, marked: item.marked, data: nil,
        list: list)
    }

    /// Keeps `token` (taken before the listing) with the paths whose server copy then differs
    /// from the record: added, changed or removed by another client, or left by a conflict or
    /// refusal. What this push wrote is in the token's changes with the ETag it recorded.
    private mutating func remember(
      token: String?, listing: [String: String], hrefOf: [String: String], written: Set<String>,
      scope: CollectionScope
    ) {
      known.syncToken = token
      guard token != nil else {
        known.pending = nil
        return
      }
      var pending: Set<String> = []
      for (key, etag) in listing where !written.contains(key) {
        guard let path = hrefOf[key] else { continue }
        let recorded = known.resources[path].flatMap { EntityTag.usable($0.etag) }
        if recorded == nil || recorded != EntityTag.usable(etag) { pending.insert(path) }
      }
      for path in known.resources.keys {
        guard let key = scope.member(path)?.path, !written.contains(key) else { continue }
        if listing[key] == nil { pending.insert(path) }
      }
      known.pending = pending.isEmpty ? nil : pending.sorted()
    }

    /// The words of a conflict the plan found.
    static func reason(_ conflict: SyncPlan.Conflict) -> String {
      switch conflict {
      case .noETag:
        return
          "its ETag was never given, so a change on the server cannot be ruled out; not overwritten"
      case .differsOnServer:
        return
          "exists on the server with other content but was not pushed or pulled here; not overwritten (pull first, or push --overwrite to replace the server's copy)"
      case .changedBeforeDelete:
        return "changed on the server since this list wrote it (or no ETag); kept"
      }
    }

    private mutating func conflict(_ name: String, _ url: URL, _ why: String) {
      tally.conflicts.append(name)
      context.standardError.write("conflict: \(name) (\(url.absoluteString)): \(why)\n")
    }

    private mutating func refused(_ name: String, _ url: URL, _ refusal: WriteRefusal) {
      tally.refused.append(name)
      context.standardError.write(
        "refused: \(WriteRefusal.escaped(name)) (\(url.absoluteString)): \(refusal.line)\n")
    }
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

  /// Text with CRLF line ends (XML hands calendar-data over with LF).
  static func crlf(_ text: String) -> String {
    text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
  }

  /// The calendars of one input file; a JSON alarm list is exported as `convert` would at
  /// --now.
  private static func readCalendars(_ file: String, options: Options, context: ToolContext)
    -> Result<[ICalComponent], Stopped>
  {
    let err = context.standardError
    let name = file == "-" ? "<stdin>" : file
    var bytes: [UInt8]
    do {
      bytes = try InputFile.read(
        file, maximumBytes: InputFile.defaultMaximumBytes, context: context)
    } catch {
      err.write("alarmcal: error: \(error.message)\n")
      return .failure(Stopped(.noInput))
    }
    switch AlarmListInput.calendarBytes(
      bytes, file: file, zone: options.zone, now: options.now, timestamp: options.timestamp)
    {
    case .success(let calendar): bytes = calendar
    case .failure(let failure):
      for line in failure.lines { err.write("\(line)\n") }
      return .failure(Stopped(.badData))
    }
    if let failure = InputFile.checkUTF8(bytes) {
      err.write("\(name):\(failure.line): not UTF-8 text; iCalendar files must be UTF-8\n")
      return .failure(Stopped(.badData))
    }
    do {
      return .success(try ICalendarReader.read(bytes))
    } catch {
      err.write("\(name):\(error.line): \(error.message)\n")
      return .failure(Stopped(.badData))
    }
  }
}
