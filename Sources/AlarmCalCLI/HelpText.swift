/// The usage line and `--help` text of a command, made from its declaration.
enum HelpText {
  static let version = "alarmcal 0.1.0"

  /// The width help text is wrapped to.
  static let width = 96

  /// The tool's own help: the commands, each with its abstract.
  static func tool(_ commands: [CommandDeclaration]) -> String {
    let nameWidth = (commands.map(\.name.count).max() ?? 0) + 2
    var text = """
      alarmcal: move alarms between clock apps and calendars.

      Usage: alarmcal <command> [options]

      Commands:

      """
    for command in commands {
      text += "  " + padded(command.name, to: nameWidth) + command.abstract + "\n"
    }
    text += "  " + padded("help", to: nameWidth) + "Show help for a command.\n"
    text += "\nOptions:\n" + table(SharedOptions.tool.map(row))
    text += "\nRun 'alarmcal help <command>' for a command's options.\n"
    return text
  }

  /// `Usage: alarmcal NAME ARGUMENTS [OPTIONS]`: required options bare, the others in brackets.
  static func usage(_ command: CommandDeclaration) -> String {
    var words = ["Usage: alarmcal", command.name]
    words += command.arguments.map(\.synopsis)
    var inAlternatives = Set<String>()
    for alternatives in command.oneOf {
      let choices = alternatives.map { names in
        names.compactMap { command.option(named: $0)?.usageSynopsis }.joined(separator: " ")
      }
      words.append("(" + choices.joined(separator: " | ") + ")")
      inAlternatives.formUnion(alternatives.joined())
    }
    for option in command.options where !inAlternatives.contains(option.name) {
      words.append(option.required ? option.usageSynopsis : "[\(option.usageSynopsis)]")
    }
    return words.joined(separator: " ")
  }

  /// The whole help of a command.
  static func help(_ command: CommandDeclaration) -> String {
    var text = usage(command) + "\n\n" + wrapped(command.abstract, indent: 0) + "\n"
    if !command.discussion.isEmpty { text += "\n" + command.discussion + "\n" }
    let rows = rows(command)
    if !command.arguments.isEmpty {
      text += "\nArguments:\n" + table(rows.arguments)
    }
    text += "\nOptions:\n" + table(rows.options)
    if !command.epilogue.isEmpty { text += "\n" + command.epilogue + "\n" }
    text += "\n" + wrapped(ExitStatus.sentence(command.exitStatuses), indent: 0) + "\n"
    return text
  }

  /// The rows of the Arguments and Options tables: what is written on the left, and the help.
  static func rows(_ command: CommandDeclaration) -> (
    arguments: [(String, String)], options: [(String, String)]
  ) {
    let arguments = command.arguments.map { ($0.name, $0.help) }
    return (arguments, command.allOptions.map(row))
  }

  /// An option's row: `-o, --output FILE` on the left, its help with its default.
  private static func row(_ option: OptionDeclaration) -> (String, String) {
    let left = option.short.map { "-\($0), " + option.synopsis } ?? option.synopsis
    return (left, described(option))
  }

  /// The option's help with its default, if it has one, before the final full stop.
  static func described(_ option: OptionDeclaration) -> String {
    guard let defaultText = option.defaultText else { return option.help }
    let sentence = option.help.hasSuffix(".") ? String(option.help.dropLast()) : option.help
    return sentence + " (default: \(defaultText))."
  }

  /// Two columns: a name that does not fit puts its help on the next line.
  private static func table(_ rows: [(String, String)]) -> String {
    let column = 24
    var text = ""
    for (left, help) in rows {
      let body = wrapped(help, indent: column + 2)
      let start = body.dropFirst(column + 2)
      if left.count + 2 <= column {
        text += "  " + padded(left, to: column) + start + "\n"
      } else {
        text += "  " + left + "\n" + body + "\n"
      }
    }
    return text
  }

  /// `text` wrapped at word boundaries to ``width``, every line indented by `indent` spaces.
  static func wrapped(_ text: String, indent: Int) -> String {
    let margin = String(repeating: " ", count: indent)
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty, indent + line.count + 1 + word.count > width {
        lines.append(margin + line)
        line = ""
      }
      line += line.isEmpty ? String(word) : " " + word
    }
    lines.append(margin + line)
    return lines.joined(separator: "\n")
  }

  private static func padded(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(1, width - text.count))
  }
}
