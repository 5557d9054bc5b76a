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
}

extension ToolContext {
  /// Where the running command's errors, warnings and notes go, in their one shape.
  var report: Report { Report(command: commandName, sink: standardError) }
}

