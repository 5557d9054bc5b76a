/// How a command failed: each kind has one exit status (BSD sysexits where one fits), listed
/// with its message shape in docs/failures.md.
enum FailureKind: Sendable, CaseIterable {
  /// The job ran and found problems: conflicts, refusals, --strict losses, no such firing.
  case problemsFound
  /// The command line was wrong.
  case usage
  /// The input's data cannot be used: not iCalendar, not UTF-8, a bad record or state file.
  case data
  /// An input file is missing, a folder, unreadable or over the size limit.
  case noInput
  /// The CalDAV server cannot be reached, timed out, failed TLS, or answered 5xx or 404.
  case unavailable
  /// The CalDAV server has no room (507, 413).
  case cannotCreate
  /// The output could not be written.
  case ioError
  /// Another program was editing the file; trying again may work.
  case temporary
  /// The CalDAV server's answer was unusable.
  case protocolError
  /// Credentials or access refused, or a file alarmcal may not edit.
  case noPermission

  /// The exit status of this kind of failure.
  var exitCode: ExitCode {
    switch self {
    case .problemsFound: .problemsFound
    case .usage: .usage
    case .data: .badData
    case .noInput: .noInput
    case .unavailable: .unavailable
    case .cannotCreate: .serverFull
    case .ioError: .ioError
    case .temporary: .temporaryFailure
    case .protocolError: .protocolError
    case .noPermission: .noPermission
    }
  }
}

/// A command's failure: its kind and what to tell the user.
struct CommandFailure: Error {
  let kind: FailureKind
  let message: String
}

/// The one shape of everything a command says on standard error:
/// `alarmcal COMMAND: error: MESSAGE`, `alarmcal COMMAND: warning: MESSAGE`,
/// `alarmcal COMMAND: note: MESSAGE`.
struct Report: Sendable {
  /// The command's name; empty before one is chosen.
  let command: String
  let sink: any TextSink

  private var prefix: String { command.isEmpty ? "alarmcal" : "alarmcal \(command)" }

  /// Writes an error line.
  func error(_ message: String) { sink.write("\(prefix): error: \(message)\n") }

  /// Writes a warning line.
  func warning(_ message: String) {
    sink.write("\(prefix): warning: \(Self.withoutOwnSeverity(message))\n")
  }

  /// Writes a note line.
  func note(_ message: String) {
    sink.write("\(prefix): note: \(Self.withoutOwnSeverity(message))\n")
  }

  /// A library message that names its own severity after its place (`FILE:LINE: warning:
  /// ...`), without it: the line's severity is said once, at its start.
  private static func withoutOwnSeverity(_ message: String) -> String {
    message.range(of: ": warning: ").map { message.replacingCharacters(in: $0, with: ": ") }
      ?? message
  }

  /// Writes the failure's message and gives its exit status.
  func fail(_ failure: CommandFailure) -> ExitCode {
    error(failure.message)
    return failure.kind.exitCode
  }

  /// Writes `message` as an error of `kind` and gives its exit status.
  func fail(_ kind: FailureKind, _ message: String) -> ExitCode {
    fail(CommandFailure(kind: kind, message: message))
  }
}

extension ToolContext {
  /// Where the running command's errors, warnings and notes go, in their one shape.
  var report: Report { Report(command: commandName, sink: standardError) }
}
