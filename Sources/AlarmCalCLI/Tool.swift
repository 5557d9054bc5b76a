import Foundation

/// The `alarmcal` command line: scans the command name and hands the rest to the command.
public enum Tool {
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
    default:
      let what = first.hasPrefix("-") ? "unknown option \(first)" : "unknown command '\(first)'"
      context.standardError.write(
        "alarmcal: error: \(what)\nRun 'alarmcal --help' for the commands.\n")
      return .usage
    }
  }

  /// Runs with the real process streams and environment.
  public static func run(arguments: [String], environment: [String: String]) -> ExitCode {
    run(arguments: arguments, context: .process(environment: environment))
  }

  private static func help(_ arguments: [String], context: ToolContext) -> ExitCode {
    switch arguments {
    case []:
      context.standardOutput.write(HelpText.tool)
      return .success
    case ["convert"]:
      context.standardOutput.write(HelpText.convert)
      return .success
    default:
      context.standardError.write(
        "alarmcal: error: no help for '\(arguments.joined(separator: " "))'\nRun 'alarmcal --help' for the commands.\n"
      )
      return .usage
    }
  }
}
