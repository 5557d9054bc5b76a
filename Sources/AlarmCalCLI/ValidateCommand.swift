import AlarmCal
import ICalendar

/// `alarmcal validate`: line-numbered RFC 5545 diagnostics for .ics files.
enum ValidateCommand: ToolCommand {
  static let declaration = CommandDeclaration(
    "validate",
    abstract: "Check .ics files and report every problem with its line and column.",
    discussion: """
      Check .ics files against RFC 5545 and report every problem, each at the line and column
      where it is in the original file (before unfolding), the way a compiler does:

        party.ics:12:9: error: DTSTART value "2026-12-02" is not a DATE-TIME [value.date-time]

      Checks content lines (CRLF, folding, UTF-8, control characters, names, parameters),
      BEGIN/END balance, required and unique properties of VCALENDAR, VEVENT, VTODO and VALARM,
      DTEND/DUE against DURATION and DTSTART, and the syntax of DATE, DATE-TIME, DURATION,
      UTC-OFFSET, INTEGER and RRULE values.
      """,
    arguments: [
      ArgumentDeclaration(
        "FILE", repeating: true,
        help:
          "An .ics file; '-' reads standard input. Every file is checked, even after one is missing."
      )
    ],
    options: [
      SharedOptions.format(
        ["text", "json"],
        help:
          "One 'file:line:column: severity: message [rule]' line per problem, or one JSON array of objects with file, line, column, severity, rule, message and rfc."
      ),
      OptionDeclaration("strict", .flag, help: "Warnings count as errors for the exit status."),
      OptionDeclaration(
        "max-problems", .count, default: "\(defaultMaximumProblems); 0 shows all",
        help: "Show at most N problems per file; the exit status still counts every problem."),
    ] + SharedOptions.time + SharedOptions.input,
    epilogue: """
      Alarms of series that ended before --now are reported as never ringing.
      """,
    exitStatuses: [
      ExitStatus(.success, "no errors (warnings allowed)"),
      ExitStatus(.problemsFound, "a file has errors (or warnings with --strict)"),
      ExitStatus(.usage),
      ExitStatus(.noInput, "a file is missing or unreadable (the others are still checked)"),
      ExitStatus(.ioError),
    ])

  enum Format: String {
    case text
    case json
  }

  struct Options {
    var files: [String]
    var format: Format
    var strict: Bool
    var now: Instant
    var maximumBytes: Int
    /// Problems shown per file; 0 shows all.
    var maximumProblems: Int
  }

  static func parseOptions(_ parsed: ParsedArguments, context: ToolContext)
    throws(UsageError)
    -> Options
  {
    guard !parsed.positionals.isEmpty else { throw UsageError("missing FILE") }
    let zone = parsed.values["tz"] == nil ? TimeZoneRules.utc : try parsed.zone()
    return Options(
      files: parsed.positionals,
      format: parsed.values["format"].flatMap(Format.init(rawValue:)) ?? .text,
      strict: parsed.flags.contains("strict"), now: try parsed.now(in: zone, context: context),
      maximumBytes: try parsed.maximumBytes(),
      maximumProblems: try parsed.count("max-problems", in: 0...Int.max)
        ?? defaultMaximumProblems)
  }

  /// Problems shown per file unless `--max-problems` says otherwise.
  static let defaultMaximumProblems = 1_000

  /// Each file's problems are the command's output; a file that cannot be read is said as it
  /// is met, and the others are checked (exit 66 at the end).
  static func perform(_ options: Options, context: ToolContext) -> ExitCode {
    var diagnostics: [Diagnostic] = []
    var failing = false
    var missing = false
    for file in options.files {
      let bytes: [UInt8]
      do {
        bytes = try InputFile.read(file, maximumBytes: options.maximumBytes, context: context)
      } catch {
        context.report.error("\(error.message)")
        missing = true
        continue
      }
      let name = InputFile.displayName(file)
      let found = Validator.validate(bytes, file: name, now: options.now)
      failing =
        failing
        || found.contains { $0.severity == .error || (options.strict && $0.severity == .warning) }
      if options.maximumProblems > 0, found.count > options.maximumProblems {
        diagnostics += found.prefix(options.maximumProblems)
        context.report.note(
          "\(name): \(found.count - options.maximumProblems) more problems not shown (--max-problems 0 shows all)"
        )
      } else {
        diagnostics += found
      }
    }
    switch options.format {
    case .text:
      let colour =
        context.standardOutputIsTerminal && context.environment["NO_COLOR"] == nil
      var text = ""
      for diagnostic in diagnostics {
        text += (colour ? coloured(diagnostic) : diagnostic.description) + "\n"
      }
      context.standardOutput.write(text)
    case .json:
      let array = JSONValue.array(diagnostics.map(json))
      context.standardOutput.write(JSONWriter(style: .pretty).string(from: array) + "\n")
    }
    if missing { return .noInput }
    return failing ? .problemsFound : .success
  }

  /// A diagnostic as a JSON object.
  static func json(_ diagnostic: Diagnostic) -> JSONValue {
    .object([
      JSONMember("file", .string(diagnostic.file)),
      JSONMember("line", .number(String(diagnostic.line))),
      JSONMember("column", .number(String(diagnostic.column))),
      JSONMember("severity", .string(diagnostic.severity.rawValue)),
      JSONMember("rule", .string(diagnostic.rule)),
      JSONMember("message", .string(diagnostic.message)),
      JSONMember("rfc", .string(diagnostic.rfc)),
    ])
  }

  /// The compiler-style line with the location in bold and the severity in colour.
  private static func coloured(_ diagnostic: Diagnostic) -> String {
    let colour =
      switch diagnostic.severity {
      case .error: "\u{1B}[1;31m"
      case .warning: "\u{1B}[1;35m"
      case .note: "\u{1B}[1;30m"
      }
    let reset = "\u{1B}[0m"
    return
      "\u{1B}[1m\(diagnostic.file):\(diagnostic.line):\(diagnostic.column):\(reset) "
      + "\(colour)\(diagnostic.severity.rawValue):\(reset) \(diagnostic.message) [\(diagnostic.rule)]"
  }
}
