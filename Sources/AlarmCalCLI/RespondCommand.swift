import AlarmCal
import Foundation
import ICalendar

/// `alarmcal snooze` and `alarmcal dismiss`: a clock app's notification actions, written into
/// the .ics file the alarm came from (RFC 9074), or into the alarm list (JSON) it came from.
enum RespondCommand {
  enum Kind: String {
    case snooze
    case dismiss
  }

  /// How the firing is named: its id, or a delivered notification's request.
  enum Target {
    case id(String)
    case request(DeliveredRequest)
  }

  struct Options {
    var file: String
    var firing: Target
    var minutes: Int?
    var until: Instant?
    var now: Instant
    var zone: TimeZoneRules
    var maximumBytes: Int
  }

  /// How long an edit waits for another process's edit of the same file.
  static let lockWaitSeconds = 10.0

  static func run(_ arguments: [String], kind: Kind, context: ToolContext) throws(CommandFailure)
    -> ExitCode
  {
    try CommandFront.run(arguments, declaration(kind), context: context) {
      (parsed) throws(UsageError) in
      try parseOptions(parsed, kind: kind, context: context)
    } then: { options throws(CommandFailure) in
      try respond(kind, options, context: context)
    }
  }

  private static func parseOptions(_ parsed: ParsedArguments, kind: Kind, context: ToolContext)
    throws(UsageError) -> Options
  {
    guard let file = parsed.positionals.first else { throw UsageError("missing FILE") }
    guard parsed.positionals.count == 1 else {
      throw UsageError("one FILE at a time, not \(parsed.positionals.count)")
    }
    guard file != "-" else { throw UsageError("FILE must be a file to edit, not standard input") }
    let zone = try parsed.zone()
    let now = try parsed.now(in: zone, context: context)
    let firing: Target
    switch (parsed.values["id"], try deliveredRequest(parsed, zone: zone)) {
    case (nil, nil): throw UsageError("missing --id (or --request and --delivered)")
    case (.some, .some): throw UsageError("--request cannot be used with --id")
    case (.some(let id), nil): firing = .id(id)
    case (nil, .some(let request)): firing = .request(request)
    }
    let until = try parsed.instant("until", in: zone)
    let minutes = try parsed.count("minutes", in: 1...(366 * 24 * 60))
    if kind == .snooze {
      switch (minutes, until) {
      case (nil, nil): throw UsageError("missing --minutes or --until")
      case (.some, .some): throw UsageError("--minutes and --until cannot be used together")
      default: break
      }
      if let until, until <= now {
        throw UsageError("--until must be after --now (\(now)), not \(until)")
      }
    }
    return Options(
      file: file, firing: firing, minutes: minutes, until: until, now: now, zone: zone,
      maximumBytes: try parsed.maximumBytes())
  }

  /// `--request ID --delivered ISO`, the plan's zone `zone`; nil when neither is given.
  private static func deliveredRequest(_ parsed: ParsedArguments, zone: TimeZoneRules)
    throws(UsageError) -> DeliveredRequest?
  {
    let delivered = try parsed.instant("delivered", in: zone)
    switch (parsed.values["request"], delivered) {
    case (nil, nil): return nil
    case (nil, .some): throw UsageError("--delivered needs --request")
    case (.some, nil): throw UsageError("--request needs --delivered (when it was delivered)")
    case (.some(let identifier), .some(let delivered)):
      return DeliveredRequest(identifier: identifier, delivered: delivered, zone: zone)
    }
  }

  private static func respond(_ kind: Kind, _ options: Options, context: ToolContext)
    throws(CommandFailure) -> ExitCode
  {
    let path = options.file
    // A link is followed once, here: the file it leads to is locked, read and replaced.
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    guard FileManager.default.fileExists(atPath: path) else {
      throw CommandFailure(.noInput, InputFile.noSuchFile(path))
    }
    let lock: FileLock
    do {
      lock = try FileLock(target, waitingUpTo: lockWaitSeconds)
    } catch {
      throw CommandFailure(
        FileManager.default.fileExists(atPath: path) ? .temporaryFailure : .noInput,
        error.message)
    }
    let response: AlarmResponse
    switch kind {
    case .snooze:
      let until = options.until ?? options.now.adding(seconds: Int64(options.minutes ?? 0) * 60)
      response = .snooze(until: until)
    case .dismiss:
      response = .dismiss
    }
    let written = try edit(response, options, target: target, context: context)
    // A failure releases the lock as the function leaves: the lock's deinit.
    lock.release()
    let id = written.firing.id
    switch response {
    case .snooze(let until):
      let snooze = written.snooze.map { "; the snooze rings as \($0.id)" } ?? ""
      context.standardOutput.write("snoozed \(id) until \(until)\(snooze)\n")
    case .dismiss:
      context.standardOutput.write("dismissed \(id)\n")
    }
    return .success
  }

  /// Reads the file (`target`: the path with links resolved), writes `response` and replaces
  /// the file, the lock held; gives what was written. A file that replacing would change other
  /// than in its text (its owner, its links) or that is read-only is refused before it is read:
  /// exit 77.
  private static func edit(
    _ response: AlarmResponse, _ options: Options, target: String, context: ToolContext
  ) throws(CommandFailure) -> WrittenResponse {
    let path = options.file
    do {
      try AtomicFile.checkEditable(target)
    } catch {
      throw CommandFailure(.noPermission, error.message)
    }
    let bytes: [UInt8]
    do {
      bytes = try InputFile.read(target, maximumBytes: options.maximumBytes, context: context)
    } catch {
      throw CommandFailure(.noInput, error.message)
    }
    // An alarm list (JSON) is edited in its own form; `upcoming` prints the same ids for it.
    let isList = AlarmListInput.isList(bytes, file: path)
    if !isList, let problem = InputFile.notUTF8Message(bytes, name: path) {
      throw CommandFailure(.badData, problem)
    }
    let written: WrittenResponse
    do {
      switch options.firing {
      case .request(let request):
        written = try request.respond(
          response, in: bytes, file: path, isList: isList, now: options.now)
      case .id(let id) where isList:
        written = try ListResponder.respond(
          response, toFiring: id, in: bytes, file: path, now: options.now, zone: options.zone)
      case .id(let id):
        written = try FiringResponder.respond(
          response, toFiring: id, in: bytes, file: path, now: options.now, zone: options.zone)
      }
    } catch {
      // A list that cannot be read is reported as `convert` reports it: a line per problem.
      throw CommandFailure(
        error.isUnreadable ? .badData : .problemsFound,
        lines: error.message.split(separator: "\n").map(String.init))
    }
    // Another program (one that takes no lock) may have written the file since it was read.
    let current = try? InputFile.read(
      target, maximumBytes: options.maximumBytes, context: context)
    guard current == bytes else {
      throw CommandFailure(
        .temporaryFailure,
        "\(path) changed while it was being edited; nothing was written, try again")
    }
    do {
      try AtomicFile.write(written.bytes, to: target, as: .edited)
    } catch {
      throw CommandFailure(error.refused ? .noPermission : .ioError, error.message)
    }
    return written
  }
}
