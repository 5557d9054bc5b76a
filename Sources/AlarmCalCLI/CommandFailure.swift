/// Why a command stopped: the exit status and the error lines that say why (several when one
/// failure lists several problems, such as a file's invalid records). A command throws it at
/// the place it fails; ``Tool/run(arguments:context:)`` writes it, the one place that does.
struct CommandFailure: Error {
  /// The exit status.
  let status: ExitCode
  /// The messages, each written as one `error:` line.
  let lines: [String]
  /// Notes written after the error lines: what still holds despite the failure.
  let notes: [String]
  /// Text written as it is after the error lines: a usage synopsis, a hint.
  let guidance: String

  /// A failure with several error lines.
  init(_ status: ExitCode, lines: [String], notes: [String] = [], guidance: String = "") {
    self.status = status
    self.lines = lines
    self.notes = notes
    self.guidance = guidance
  }

  /// A failure with one error line.
  init(_ status: ExitCode, _ line: String, notes: [String] = [], guidance: String = "") {
    self.init(status, lines: [line], notes: notes, guidance: guidance)
  }
}

extension Report {
  /// Writes `failure`: an error line for each of its lines, a note line for each note, then
  /// its guidance; gives its status.
  func failed(_ failure: CommandFailure) -> ExitCode {
    for line in failure.lines { error(line) }
    for line in failure.notes { note(line) }
    if !failure.guidance.isEmpty { sink.write(failure.guidance) }
    return failure.status
  }
}
