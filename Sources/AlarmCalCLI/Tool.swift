import CalDAV
import Foundation

/// The `alarmcal` command line: scans the command name and hands the rest to the command.
public enum Tool {
  /// The hidden command that runs HTTP for a CalDAV command of the parent `alarmcal`
  /// (``TransportService``); never listed in the help.
  public static let transportCommandName = "_http-transport"

  /// Runs one invocation and returns its exit status.
  public static func run(arguments: [String], context: ToolContext) -> ExitCode {
    guard let first = arguments.first else {
      context.standardError.write(HelpText.tool)
      return .usage
    }
    let rest = Array(arguments.dropFirst())
    switch first {
    case "-h", "--help":
      context.standardOutput.write(HelpText.tool)
      return .success
    case "--version":
      context.standardOutput.write(HelpText.version + "\n")
      return .success
    case "help":
      return help(rest, context: context)
    case "convert":
      return ConvertCommand.run(rest, context: context)
    case "upcoming":
      return UpcomingCommand.run(rest, context: context)
    case "plan":
      return PlanCommand.run(rest, context: context)
    case "validate":
      return ValidateCommand.run(rest, context: context)
    case "snooze":
      return RespondCommand.run(rest, kind: .snooze, context: context)
    case "dismiss":
      return RespondCommand.run(rest, kind: .dismiss, context: context)
    case "calendars":
      return CalendarsCommand.run(rest, context: context)
    case "push":
      return PushCommand.run(rest, context: context)
    case "pull":
      return PullCommand.run(rest, context: context)
    default:
      let what = first.hasPrefix("-") ? "unknown option \(first)" : "unknown command '\(first)'"
      context.standardError.write(
        "alarmcal: error: \(what)\nRun 'alarmcal --help' for the commands.\n")
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
      context.standardError.write("alarmcal: error: cannot write to standard output: \(failure)\n")
      return status == .success ? .ioError : status
    }
    return status
  }

  private static func help(_ arguments: [String], context: ToolContext) -> ExitCode {
    switch arguments {
    case []:
      context.standardOutput.write(HelpText.tool)
      return .success
    case ["convert"]:
      context.standardOutput.write(HelpText.convert)
      return .success
    case ["upcoming"]:
      context.standardOutput.write(HelpText.upcoming)
      return .success
    case ["plan"]:
      context.standardOutput.write(PlanCommand.helpText)
      return .success
    case ["validate"]:
      context.standardOutput.write(ValidateCommand.helpText)
      return .success
    case ["snooze"]:
      context.standardOutput.write(HelpText.snooze)
      return .success
    case ["dismiss"]:
      context.standardOutput.write(HelpText.dismiss)
      return .success
    case ["calendars"]:
      context.standardOutput.write(CalendarsCommand.helpText)
      return .success
    case ["push"]:
      context.standardOutput.write(PushCommand.helpText)
      return .success
    case ["pull"]:
      context.standardOutput.write(PullCommand.helpText)
      return .success
    default:
      context.standardError.write(
        "alarmcal: error: no help for '\(arguments.joined(separator: " "))'\nRun 'alarmcal --help' for the commands.\n"
      )
      return .usage
    }
  }
}
