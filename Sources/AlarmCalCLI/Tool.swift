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
    let run: @Sendable ([String], ToolContext) -> ExitCode
  }

  /// The commands, in the order the help lists them.
  static let commands: [Command] = [
    Command(declaration: ConvertCommand.declaration, run: ConvertCommand.run),
    Command(declaration: UpcomingCommand.declaration, run: UpcomingCommand.run),
    Command(declaration: PlanCommand.declaration, run: PlanCommand.run),
    Command(declaration: ValidateCommand.declaration, run: ValidateCommand.run),
    Command(
      declaration: RespondCommand.declaration(.snooze),
      run: { RespondCommand.run($0, kind: .snooze, context: $1) }),
    Command(
      declaration: RespondCommand.declaration(.dismiss),
      run: { RespondCommand.run($0, kind: .dismiss, context: $1) }),
    Command(declaration: CalendarsCommand.declaration, run: CalendarsCommand.run),
    Command(declaration: PushCommand.declaration, run: PushCommand.run),
    Command(declaration: PullCommand.declaration, run: PullCommand.run),
  ]

  /// The declarations of every command.
  static var declarations: [CommandDeclaration] { commands.map(\.declaration) }

  /// Runs one invocation and returns its exit status.
  public static func run(arguments: [String], context: ToolContext) -> ExitCode {
    guard let first = arguments.first else {
      context.standardError.write(HelpText.tool(declarations))
      return .usage
    }
    let rest = Array(arguments.dropFirst())
    if let command = commands.first(where: { $0.declaration.name == first }) {
      var context = context
      context.commandName = first
      return command.run(rest, context)
    }
    switch first {
    case "-h", "--help":
      context.standardOutput.write(HelpText.tool(declarations))
      return .success
    case "--version":
      context.standardOutput.write(HelpText.version + "\n")
      return .success
    case "help":
      return help(rest, context: context)
    case "--generate-manual":
      guard rest.isEmpty else {
        context.report.error("--generate-manual takes no argument, not '\(rest[0])'")
        return .usage
      }
      context.standardOutput.write(ManualPage.roff(declarations))
      return .success
    case "--generate-completion-script":
      guard rest.count == 1, let script = CompletionScript.script(for: rest[0], declarations)
      else {
        context.report.error(
          "--generate-completion-script takes one of \(CompletionScript.shells.joined(separator: ", "))"
        )
        return .usage
      }
      context.standardOutput.write(script)
      return .success
    case CompletionScript.zonesCommand:
      // Hidden: the zone names --tz accepts, for the completion scripts.
      let zones = Foundation.TimeZone.knownTimeZoneIdentifiers.sorted()
      context.standardOutput.write(zones.joined(separator: "\n") + "\n")
      return .success
    default:
      let what = first.hasPrefix("-") ? "unknown option \(first)" : "unknown command '\(first)'"
      context.report.error(what)
      context.standardError.write("Run 'alarmcal --help' for the commands.\n")
      return .usage
    }
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

  private static func help(_ arguments: [String], context: ToolContext) -> ExitCode {
    if arguments.isEmpty {
      context.standardOutput.write(HelpText.tool(declarations))
      return .success
    }
    if arguments.count == 1, let command = declarations.first(where: { $0.name == arguments[0] }) {
      context.standardOutput.write(HelpText.help(command))
      return .success
    }
    context.report.error("no help for '\(arguments.joined(separator: " "))'")
    context.standardError.write("Run 'alarmcal --help' for the commands.\n")
    return .usage
  }
}
