import ICalendar

// Temporary: the old front RespondCommand still calls, until it is converted after the
// respond-request merge.

extension CommandFront {
  static func parse<Options>(
    _ arguments: [String], command: String, usage: String, help: String,
    valued: Set<String>, flags: Set<String>, context: ToolContext,
    validate: (ParsedArguments) throws(UsageError) -> Options
  ) -> Outcome<Options> {
    let declaration =
      Tool.declarations.first { $0.name == command }
      ?? CommandDeclaration(command, abstract: "", options: [])
    return parse(arguments, declaration, context: context, validate: validate)
  }
}
extension ConvertCommand {
  static func zoneOption(_ text: String?) throws(UsageError) -> TimeZoneRules {
    var parsed = try ParsedArguments(
      [], declaration: CommandDeclaration("x", abstract: "", options: []))
    parsed.values["tz"] = text
    return try parsed.zone()
  }
}

extension TimestampArgument {
  static func option(_ name: String, of parsed: ParsedArguments, in zone: TimeZoneRules)
    throws(UsageError) -> Instant?
  { try parsed.instant(name, in: zone) }

  static func now(of parsed: ParsedArguments, in zone: TimeZoneRules, context: ToolContext)
    throws(UsageError) -> Instant
  { try parsed.now(in: zone, context: context) }
}

extension InputFile {
  static func maximumBytes(of parsed: ParsedArguments) throws(UsageError) -> Int {
    try parsed.maximumBytes()
  }
}

extension HelpText {
  static let snooze = "Usage: alarmcal snooze\n"
  static let dismiss = "Usage: alarmcal dismiss\n"
}
