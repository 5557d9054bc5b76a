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
  func warning(_ message: String) { sink.write("\(prefix): warning: \(message)\n") }

  /// Writes a note line.
  func note(_ message: String) { sink.write("\(prefix): note: \(message)\n") }
}

extension ToolContext {
  /// Where the running command's errors, warnings and notes go, in their one shape.
  var report: Report { Report(command: commandName, sink: standardError) }
}
