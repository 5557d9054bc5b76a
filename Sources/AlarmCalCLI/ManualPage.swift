/// alarmcal(1) in roff, made from the command declarations (`alarmcal --generate-manual`).
enum ManualPage {
  static func roff(_ commands: [CommandDeclaration]) -> String {
    header + synopsis + description + toolOptions + ".SH COMMANDS\n"
      + commands.map(section).joined() + exitStatus + trailer
  }

  /// The page's title and name.
  private static let header = """
    .TH ALARMCAL 1 "" "\(HelpText.version)" "User Commands"
    .SH NAME
    alarmcal \\- move alarms between clock apps and calendars

    """

  /// A command, or one of the tool's own options other than --help.
  private static var synopsis: String {
    ".SH SYNOPSIS\n.B alarmcal\n.I command\n.RI [ options ]\n"
      + SharedOptions.tool.filter { $0.name != SharedOptions.help.name }.map { option in
        ".br\n.B alarmcal\n.B \(escaped(option.flagName))\n"
          + (option.takesValue ? ".I \(escaped(option.placeholder))\n" : "")
      }.joined()
  }

  /// What alarmcal does.
  private static let description = """
    .SH DESCRIPTION
    alarmcal converts alarm lists (JSON) to iCalendar and back, lists when the alarms of
    iCalendar files go off, checks iCalendar files, answers a ringing alarm (snooze, dismiss),
    plans an app's notifications, and moves alarms to and from CalDAV calendars.
    Every command answers
    .B \\-\\-help
    with its options.

    """

  /// The tool's own options, given in place of a command.
  private static var toolOptions: String {
    ".SH OPTIONS\n"
      + SharedOptions.tool.map { ".TP\n" + term($0) + "\n" + escaped($0.help) + "\n" }.joined()
  }

  /// An option's bold name (and short name) and its placeholder in italics, for a `.TP` line.
  private static func term(_ option: OptionDeclaration) -> String {
    var term = "\\fB" + escaped(option.flagName) + "\\fR"
    if let short = option.short { term = "\\fB\\-\(short)\\fR, " + term }
    if option.takesValue { term += " \\fI" + escaped(option.placeholder) + "\\fR" }
    return term
  }

  /// One command's section: its usage, abstract, discussion, arguments and options.
  private static func section(_ command: CommandDeclaration) -> String {
    var page = ".SS \"\(escaped(command.name))\"\n"
    page += ".B \(escaped(String(HelpText.usage(command).dropFirst("Usage: ".count))))\n"
    page += ".PP\n" + escaped(command.abstract) + "\n"
    if !command.discussion.isEmpty { page += ".PP\n" + paragraphs(command.discussion) }
    for argument in command.arguments {
      page += ".TP\n.I \(escaped(argument.synopsis))\n" + escaped(argument.help) + "\n"
    }
    for option in command.options {
      page += ".TP\n" + term(option) + "\n" + escaped(HelpText.described(option)) + "\n"
    }
    if !command.epilogue.isEmpty { page += ".PP\n" + paragraphs(command.epilogue) }
    page += ".PP\n" + escaped(ExitStatus.sentence(command.exitStatuses)) + "\n"
    return page
  }

  /// EXIT STATUS: each status and what it means for any command (``ExitCode/table``).
  private static var exitStatus: String {
    ".SH \"EXIT STATUS\"\n"
      + ExitCode.table.map { ".TP\n.B \($0.code)\n" + escaped($0.meaning) + "\n" }.joined()
      + ".PP\nErrors are written as\n.IR \"alarmcal COMMAND: error: MESSAGE\" .\n"
  }

  /// Environment and files, after the exit status.
  private static let trailer = """
    .SH ENVIRONMENT
    .TP
    .B SOURCE_DATE_EPOCH
    The DTSTAMP of what convert and push export, in whole seconds since 1970.
    .TP
    .B ALARMCAL_PASSWORD
    The CalDAV password, when no \\-\\-password\\-file is given.
    .TP
    .B NO_COLOR
    No colour, even on a terminal.
    .SH FILES
    .TP
    .I ~/.netrc
    CalDAV credentials by host.
    .TP
    .I .FILE.caldav.json
    What push and pull last exchanged for FILE.

    """

  /// Text for roff: backslashes and dashes escaped, no line starting with a control character.
  static func escaped(_ text: String) -> String {
    let body = text.replacingOccurrences(of: "\\", with: "\\e")
      .replacingOccurrences(of: "-", with: "\\-")
    return body.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
    }.joined(separator: "\n")
  }

  /// Paragraphs separated by blank lines, each its own `.PP`.
  private static func paragraphs(_ text: String) -> String {
    text.components(separatedBy: "\n\n").map { escaped($0) + "\n" }.joined(separator: ".PP\n")
  }
}
