import CalDAV
import Foundation

/// The `alarmcal` command line: scans the command name and hands the rest to the command.
public enum Tool {
  /// The hidden command that runs HTTP for a CalDAV command of the parent `alarmcal`
  /// (``TransportService``); never listed in the help.
  public static let transportCommandName = "_http-transport"

  /// A command: its declaration and what runs it.
  struct Command: Sendable {
    let declaration: CommandDeclaration
    let run: @Sendable ([String], ToolContext) throws(CommandFailure) -> ExitCode
  }

  /// The commands, in the order the help lists them.
  static let commands: [Command] = [
    Command(declaration: ConvertCommand.declaration, run: ConvertCommand.run),
    Command(declaration: UpcomingCommand.declaration, run: UpcomingCommand.run),
    Command(declaration: PlanCommand.declaration, run: PlanCommand.run),
    Command(declaration: ValidateCommand.declaration, run: ValidateCommand.run),
    Command(
      declaration: RespondCommand.declaration(.snooze),
      run: { (arguments, context) throws(CommandFailure) in
        try RespondCommand.run(arguments, kind: .snooze, context: context)
      }),
    Command(
      declaration: RespondCommand.declaration(.dismiss),
      run: { (arguments, context) throws(CommandFailure) in
        try RespondCommand.run(arguments, kind: .dismiss, context: context)
      }),
    Command(declaration: CalendarsCommand.declaration, run: CalendarsCommand.run),
    Command(declaration: PushCommand.declaration, run: PushCommand.run),
    Command(declaration: PullCommand.declaration, run: PullCommand.run),
  ]

  /// The declarations of every command.
  static var declarations: [CommandDeclaration] { commands.map(\.declaration) }

  /// Runs one invocation and returns its exit status; a failure is written by
  /// ``status(context:of:)``.
  public static func run(arguments: [String], context: ToolContext) -> ExitCode {
    var context = context
    if let first = arguments.first, declarations.contains(where: { $0.name == first }) {
      context.commandName = first
    }
    return status(context: context) { () throws(CommandFailure) in
      try dispatch(arguments, context: context)
    }
  }

  /// What `body` gives, or, when it throws, the failure written to standard error (the one
  /// place a failure is written) and its status.
  static func status(
    context: ToolContext, of body: () throws(CommandFailure) -> ExitCode
  ) -> ExitCode {
    do {
      return try body()
    } catch {
      return context.report.failed(error)
    }
  }

  /// Where a mistaken command line is pointed.
  private static let commandsHint = "Run 'alarmcal --help' for the commands.\n"

  /// Hands `arguments` to their command, or answers the tool's own options.
  private static func dispatch(_ arguments: [String], context: ToolContext)
    throws(CommandFailure) -> ExitCode
  {
    guard let first = arguments.first else {
      throw CommandFailure(.usage, lines: [], guidance: HelpText.tool(declarations))
    }
    let rest = Array(arguments.dropFirst())
    if let command = commands.first(where: { $0.declaration.name == first }) {
      return try command.run(rest, context)
    }
    switch first {
    case "-h", "--help":
      context.standardOutput.write(HelpText.tool(declarations))
    case "--version":
      context.standardOutput.write(HelpText.version + "\n")
    case "help":
      try help(rest, context: context)
    case "--generate-manual":
      guard rest.isEmpty else {
        throw CommandFailure(.usage, "--generate-manual takes no argument, not '\(rest[0])'")
      }
      context.standardOutput.write(ManualPage.roff(declarations))
    case "--generate-completion-script":
      guard rest.count == 1, let script = CompletionScript.script(for: rest[0], declarations)
      else {
        throw CommandFailure(
          .usage,
          "--generate-completion-script takes one of \(CompletionScript.shells.joined(separator: ", "))"
        )
      }
      context.standardOutput.write(script)
    case CompletionScript.zonesCommand:
      // Hidden: the zone names --tz accepts, for the completion scripts.
      let zones = Foundation.TimeZone.knownTimeZoneIdentifiers.sorted()
      context.standardOutput.write(zones.joined(separator: "\n") + "\n")
    default:
      let what = first.hasPrefix("-") ? "unknown option \(first)" : "unknown command '\(first)'"
      throw CommandFailure(.usage, what, guidance: commandsHint)
    }
    return .success
  }

  /// Runs with the real process streams and environment; a failed write to standard output
  /// (a full disk, a closed pipe) turns success into exit 74.
  public static func run(arguments: [String], environment: [String: String]) -> ExitCode {
    signal(SIGPIPE, SIG_IGN)
    if arguments == [transportCommandName] {
      return ExitCode(rawValue: TransportService.serve())
    }
    let context = ToolContext.process(environment: environment)
    let status = run(arguments: arguments, context: context)
    if let failure = context.standardOutput.writeFailure {
      var context = context
      context.commandName =
        Tool.declarations.contains { $0.name == arguments.first } ? arguments[0] : ""
      context.report.error("cannot write to standard output: \(failure)")
      return status == .success ? .ioError : status
    }
    return status
  }

  private static func help(_ arguments: [String], context: ToolContext) throws(CommandFailure) {
    if arguments.isEmpty {
      context.standardOutput.write(HelpText.tool(declarations))
    } else if arguments.count == 1,
      let command = declarations.first(where: { $0.name == arguments[0] })
    {
      context.standardOutput.write(HelpText.help(command))
    } else {
      throw CommandFailure(
        .usage, "no help for '\(arguments.joined(separator: " "))'",
        guidance: commandsHint)
    }
  }
}
