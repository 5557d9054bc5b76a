import AlarmCal
import Foundation
import ICalendar

/// `alarmcal convert`: alarm list ⇄ iCalendar.
enum ConvertCommand: ToolCommand {
  enum Format: String {
    case ics
    case json

    init?(pathExtension path: String) {
      switch URL(fileURLWithPath: path).pathExtension.lowercased() {
      case "ics", "ical", "icalendar", "ifb": self = .ics
      case "json": self = .json
      default: return nil
      }
    }

    /// Sniffs the content: JSON starts with `{` or `[`, iCalendar with `BEGIN:`.
    init?(content bytes: [UInt8]) {
      var body = bytes[...]
      if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
      guard let first = body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
        return nil
      }
      switch first {
      case UInt8(ascii: "{"), UInt8(ascii: "["): self = .json
      case UInt8(ascii: "B"), UInt8(ascii: "b"): self = .ics
      default: return nil
      }
    }

    var other: Format { self == .ics ? .json : .ics }
  }

  struct Options {
    var input: String
    var output: String?
    var to: Format?
    /// `ios`: JSON in the iOS app's record shape.
    var appShape: Bool
    var zone: TimeZoneRules
    var now: Instant
    var timestamp: Instant
    var strict: Bool
    var maximumBytes: Int
  }

  static let declaration = CommandDeclaration(
    "convert",
    abstract:
      "Convert an alarm list to iCalendar (.ics) or an .ics file to an alarm list.",
    arguments: [
      ArgumentDeclaration(
        "INPUT",
        help:
          "The file to read; '-' reads standard input. Its kind comes from the extension (.json, .ics), else from the content."
      )
    ],
    options: [
      SharedOptions.output.describing(
        "Where to write; '-' or no option writes to standard output. The file is replaced atomically and never the input itself."
      ),
      OptionDeclaration(
        "to", .choice(["ics", "json"]), default: "from the output's extension, else the other kind",
        help: "The output kind."),
      OptionDeclaration(
        "shape", .choice(["alarmcal", "ios"]), default: "alarmcal",
        help:
          "JSON output's record shape: alarmcal's, or the iOS app's (alarmTime, name, repeatDays, sound, snoozeEnabled, isEnabled, creatTime; tasks as the to-do app's dictionary keyed by UUID), with a warning for each field that shape cannot hold."
      ),
      OptionDeclaration(
        "strict", .flag, help: "Exit 1 and write nothing when import cannot keep something."),
    ] + SharedOptions.time + SharedOptions.input,
    epilogue: """
      --now is also the moment to export for: each alarm starts at its first ring at or after
      it. DTSTAMP is SOURCE_DATE_EPOCH when set, else --now.
      """,
    exitStatuses: [
      ExitStatus(.success), ExitStatus(.problemsFound, "--strict found losses (nothing written)"),
      ExitStatus(.usage), ExitStatus(.badData), ExitStatus(.noInput), ExitStatus(.ioError),
    ])

  static func parseOptions(_ parsed: ParsedArguments, context: ToolContext)
    throws(UsageError)
    -> Options
  {
    let input = try parsed.onlyPositional("INPUT")
    let to = parsed.values["to"].flatMap(Format.init(rawValue:))
    let appShape = parsed.values["shape"] == "ios"
    if parsed.values["shape"] != nil, to == .ics {
      throw UsageError("--shape applies to JSON output, not --to ics")
    }
    let zone = try parsed.zone()
    let now = try parsed.now(in: zone, context: context)
    let timestamp = try SourceDateEpoch.timestamp(context) ?? now
    let output = parsed.values["output"]
    if let output, output != "-", input != "-", InputFile.sameFile(input, output) {
      throw UsageError("refusing to overwrite the input file \(input)")
    }
    return Options(
      input: input, output: output, to: to, appShape: appShape, zone: zone, now: now,
      timestamp: timestamp,
      strict: parsed.flags.contains("strict"),
      maximumBytes: try parsed.maximumBytes())
  }

  static func perform(_ options: Options, context: ToolContext)
    throws(CommandFailure) -> ExitCode
  {
    let bytes: [UInt8]
    do {
      bytes = try InputFile.read(
        options.input, maximumBytes: options.maximumBytes, context: context)
    } catch {
      throw CommandFailure(.noInput, error.message)
    }
    let name = InputFile.displayName(options.input)
    guard let inputFormat = Format(pathExtension: options.input) ?? Format(content: bytes) else {
      throw CommandFailure(.badData, "\(name): not an alarm list (JSON) nor iCalendar data")
    }
    let outputFormat =
      options.to ?? options.output.flatMap { $0 == "-" ? nil : Format(pathExtension: $0) }
      ?? inputFormat.other
    let (alarms, tasks) = try read(bytes, as: inputFormat, name: name, options, context)
    let output = try written(alarms, tasks, as: outputFormat, name: name, options, context)
    // A file alarmcal would refuse to read back is not written.
    guard output.count <= options.maximumBytes else {
      throw CommandFailure(
        .ioError,
        "the output would be \(output.count) bytes, over the \(options.maximumBytes) alarmcal reads (--max-file-size raises it); nothing written"
      )
    }
    guard let path = options.output, path != "-" else {
      context.standardOutput.write(bytes: output)
      return .success
    }
    do {
      try AtomicFile.write(output, to: path)
    } catch {
      throw CommandFailure(.ioError, error.message)
    }
    return .success
  }

  /// The alarms and tasks of the input; an import's losses and warnings are written once it
  /// is read, in file order.
  private static func read(
    _ bytes: [UInt8], as format: Format, name: String, _ options: Options, _ context: ToolContext
  ) throws(CommandFailure) -> (alarms: [Alarm], tasks: [ToDo]) {
    let err = context.report
    switch format {
    case .json:
      let reader = AlarmFileReader(fileName: name, defaultTimeZone: options.zone.identifier)
      switch reader.readList(bytes) {
      case .success(let read):
        for warning in read.warnings { err.warning("\(warning)") }
        return (read.alarms, read.tasks)
      case .failure(let failure):
        throw CommandFailure(.badData, lines: failure.problems.map { "\($0)" })
      }
    case .ics:
      if let problem = InputFile.notUTF8Message(bytes, name: name) {
        throw CommandFailure(.badData, problem)
      }
      let importer = AlarmImporter(
        fileName: name, defaultTimeZone: options.zone.identifier, now: options.now)
      let result: ImportResult
      do {
        result = try importer.importAlarms(fromUTF8: bytes)
      } catch {
        throw CommandFailure(.badData, "\(error)")
      }
      // Losses (warnings: something is not kept) and notes (all is kept) in file order.
      let report =
        result.losses.map { ($0.line ?? 0, $0.description, true) }
        + result.warnings.map { ($0.line ?? 0, $0.description, false) }
      for (_, text, isLoss) in report.enumerated().sorted(by: {
        ($0.element.0, $0.offset) < ($1.element.0, $1.offset)
      }).map(\.element) {
        if isLoss { err.warning(text) } else { err.note(text) }
      }
      if options.strict && !result.losses.isEmpty {
        throw CommandFailure(
          .problemsFound,
          "--strict: \(result.losses.count) item(s) could not be kept; nothing written")
      }
      return (result.alarms, result.tasks)
    }
  }

  /// The output file's bytes.
  private static func written(
    _ alarms: [Alarm], _ tasks: [ToDo], as format: Format, name: String, _ options: Options,
    _ context: ToolContext
  ) throws(CommandFailure) -> [UInt8] {
    switch format {
    case .json where options.appShape:
      let shaped = AlarmFileWriter.appShape(alarms, tasks: tasks, zone: options.zone.identifier)
      for omission in shaped.omissions { context.report.warning("\(name): \(omission)") }
      return shaped.bytes
    case .json:
      return AlarmFileWriter.bytes(alarms, tasks: tasks)
    case .ics:
      do {
        return try AlarmExporter(now: options.now, timestamp: options.timestamp).bytes(
          alarms, tasks: tasks)
      } catch {
        throw CommandFailure(.badData, "\(name): \(error)")
      }
    }
  }
}
