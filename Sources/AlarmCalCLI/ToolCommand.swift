/// A command of the tool: its declaration, how it reads its options, and its work. Every
/// command runs the same way (``run(_:context:)``, through ``CommandFront``).
protocol ToolCommand {
  /// What the command's arguments are read into.
  associatedtype Options
  /// What the command takes: for parsing, `--help`, the manual and the completion scripts.
  static var declaration: CommandDeclaration { get }
  /// Reads parsed arguments into options; a mistake in them is a usage error.
  static func parseOptions(_ parsed: ParsedArguments, context: ToolContext) throws(UsageError)
    -> Options
  /// Does the command's work and gives its exit status.
  static func perform(_ options: Options, context: ToolContext) throws(CommandFailure)
    -> ExitCode
}

extension ToolCommand {
  /// Runs the command on `arguments` (those after its name).
  static func run(_ arguments: [String], context: ToolContext) throws(CommandFailure)
    -> ExitCode
  {
    try CommandFront.run(arguments, declaration, context: context) {
      (parsed) throws(UsageError) in
      try parseOptions(parsed, context: context)
    } then: { options throws(CommandFailure) in
      try perform(options, context: context)
    }
  }
}

/// What every command does before its own work: read its options by its declaration, answer
/// `--help`, and turn a usage mistake into a failure (exit 64) that says what was wrong, the
/// usage line and a hint.
enum CommandFront {
  /// Reads `arguments` by `declaration` and `parse`s them into options, then gives `body`'s
  /// exit status; or answers `--help`, or throws what was wrong (exit 64), without `body`.
  static func run<Options>(
    _ arguments: [String], _ declaration: CommandDeclaration, context: ToolContext,
    parse: (ParsedArguments) throws(UsageError) -> Options,
    then body: (Options) throws(CommandFailure) -> ExitCode
  ) throws(CommandFailure) -> ExitCode {
    let options: Options
    do {
      let parsed = try ParsedArguments(arguments, declaration: declaration)
      if parsed.flags.contains("help") {
        context.standardOutput.write(HelpText.help(declaration))
        return .success
      }
      options = try parse(parsed)
    } catch {
      throw CommandFailure(
        .usage, error.message,
        guidance: HelpText.usage(declaration)
          + "\nRun 'alarmcal help \(declaration.name)' for details.\n")
    }
    return try body(options)
  }
}
