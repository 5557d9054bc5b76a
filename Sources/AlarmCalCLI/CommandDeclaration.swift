/// What an option's or argument's value is: it decides the placeholder, how the value is read
/// and what a shell completes for it.
enum ValueKind: Equatable, Sendable {
  /// No value: the option is on or off.
  case flag
  /// A path; `-` is a standard stream where the command says so.
  case file
  /// An IANA time-zone name.
  case zone
  /// An ISO 8601 moment (`2026-12-02T07:00:00Z`, or local in `--tz`).
  case instant
  /// A whole number.
  case count
  /// A size in bytes with an optional K, M or G.
  case size
  /// One of a fixed list of words.
  case choice([String])
  /// An http:// or https:// URL.
  case url
  /// Any text.
  case text
}

/// One option of a command, declared once: parsing, usage, help, the man page and the shell
/// completions are made from it.
struct OptionDeclaration: Sendable {
  /// The long name without dashes (`max-file-size`).
  let name: String
  /// The one-letter name without its dash (`o`), if any.
  let short: Character?
  let kind: ValueKind
  /// The value's name in usage and help (`ZONE`); empty for a flag.
  let placeholder: String
  /// The default as help shows it, if there is one worth saying.
  let defaultText: String?
  /// What the option does, as one sentence (wrapped when printed).
  let help: String
  /// Whether the command refuses to run without it.
  let required: Bool

  init(
    _ name: String, short: Character? = nil, _ kind: ValueKind, placeholder: String? = nil,
    default defaultText: String? = nil, required: Bool = false, help: String
  ) {
    self.name = name
    self.short = short
    self.kind = kind
    self.placeholder = placeholder ?? kind.placeholder
    self.defaultText = defaultText
    self.help = help
    self.required = required
  }

  /// Whether the option takes a value.
  var takesValue: Bool { kind != .flag }

  /// `--name`.
  var flagName: String { "--" + name }

  /// `--name VALUE` (or `--name a|b` for a choice), as usage and help write it.
  var synopsis: String {
    takesValue ? "\(flagName) \(placeholder)" : flagName
  }

  /// As a usage line writes it: by its short name when it has one (`-o FILE`).
  var usageSynopsis: String {
    short.map { "-\($0) \(placeholder)" } ?? synopsis
  }

  /// The same option with another help line (a command saying what it means there).
  func describing(_ help: String, default defaultText: String? = nil) -> OptionDeclaration {
    OptionDeclaration(
      name, short: short, kind, placeholder: placeholder,
      default: defaultText ?? self.defaultText, required: required, help: help)
  }

  /// The same option, required.
  var mandatory: OptionDeclaration {
    OptionDeclaration(
      name, short: short, kind, placeholder: placeholder, default: defaultText, required: true,
      help: help)
  }
}

extension ValueKind {
  /// The placeholder a value of this kind gets unless its option names one.
  var placeholder: String {
    switch self {
    case .flag: ""
    case .file: "FILE"
    case .zone: "ZONE"
    case .instant: "ISO"
    case .count: "N"
    case .size: "SIZE"
    case .choice(let words): words.joined(separator: "|")
    case .url: "URL"
    case .text: "TEXT"
    }
  }
}

/// A positional argument of a command: a file (the completions offer files for it).
struct ArgumentDeclaration: Sendable {
  /// Its name in usage and help (`FILE`).
  let name: String
  /// Whether it may be given more than once (`FILE...`).
  let repeating: Bool
  /// Whether the command runs without it.
  let optional: Bool
  let help: String

  init(
    _ name: String, repeating: Bool = false, optional: Bool = false, help: String
  ) {
    self.name = name
    self.repeating = repeating
    self.optional = optional
    self.help = help
  }

  /// `FILE`, `FILE...`, `[FILE...]`.
  var synopsis: String {
    let word = repeating ? name + "..." : name
    return optional ? "[\(word)]" : word
  }
}

/// A command as declared: its name, what it does, its arguments and options.
struct CommandDeclaration: Sendable {
  let name: String
  /// One line for the command list and the man page's NAME-like summary.
  let abstract: String
  /// Paragraphs that follow the usage line in `--help`.
  let discussion: String
  let arguments: [ArgumentDeclaration]
  /// The command's options: its own, then the shared groups it takes.
  let options: [OptionDeclaration]
  /// What the command prints, after the options in `--help`.
  let epilogue: String
  /// The statuses the command exits with, in order; `--help` and the manual page list them.
  let exitStatuses: [ExitStatus]
  /// Sets of alternatives of which the command needs exactly one, each alternative the long
  /// names of the options given together (`[[["id"], ["request", "delivered"]]]`): usage
  /// writes them as `(--id FIRING_ID | --request ID --delivered ISO)`.
  let oneOf: [[[String]]]

  init(
    _ name: String, abstract: String, discussion: String = "",
    arguments: [ArgumentDeclaration] = [], options: [OptionDeclaration],
    oneOf: [[[String]]] = [], epilogue: String = "", exitStatuses: [ExitStatus]
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.options = options
    self.oneOf = oneOf
    self.epilogue = epilogue
    self.exitStatuses = exitStatuses
  }

  /// Every option the command takes: its own, then `-h`/`--help`.
  var allOptions: [OptionDeclaration] { options + [SharedOptions.help] }

  /// The option with this long or short name, if the command takes one.
  func option(named name: String) -> OptionDeclaration? {
    allOptions.first { $0.name == name || $0.short.map(String.init) == name }
  }
}

/// The options several commands share, each declared once.
enum SharedOptions {
  /// Every command that reads a file takes it.
  static let input: [OptionDeclaration] = [
    OptionDeclaration(
      "max-file-size", .size, default: "\(InputFile.defaultMaximumBytes >> 20)M",
      help: "Refuse input files larger than SIZE bytes (K, M, G: powers of 1,024).")
  ]

  /// The present moment and the zone of local times.
  static let time: [OptionDeclaration] = [now, zone]

  /// `--now`.
  static let now = OptionDeclaration(
    "now", .instant, default: "the clock",
    help: "The present moment; without an offset it is read in --tz.")

  /// `--tz`.
  static let zone = OptionDeclaration(
    "tz", .zone, default: "the system zone",
    help: "IANA zone for floating and all-day times, alarms that name none, and display.")

  /// The CalDAV server and the credentials for it.
  static let calDAV: [OptionDeclaration] = [url.mandatory] + credentials

  /// `--user` and `--password-file`.
  static let credentials: [OptionDeclaration] = [
    OptionDeclaration(
      "user", .text, placeholder: "NAME", default: "the ~/.netrc login for the host",
      help: "The user name."),
    OptionDeclaration(
      "password-file", .file,
      help:
        "Read the password from the first line of FILE, which only its owner may read; else ALARMCAL_PASSWORD, else ~/.netrc. Never an argument."
    ),
  ]

  /// `--url`.
  static let url = OptionDeclaration(
    "url", .url,
    help: "The CalDAV calendar collection (see 'alarmcal calendars').")

  /// `-o`/`--output`.
  static let output = OptionDeclaration(
    "output", short: "o", .file,
    help: "Where to write, atomically; '-' or no option writes to standard output.")

  /// `--format` with the command's choices, the first being the default.
  static func format(_ choices: [String], help: String) -> OptionDeclaration {
    OptionDeclaration("format", .choice(choices), default: choices.first, help: help)
  }

  /// Options every command answers, listed last.
  static let help = OptionDeclaration("help", short: "h", .flag, help: "Show this help.")

  /// The tool's own options, given in place of a command (`alarmcal --version`).
  static let tool: [OptionDeclaration] = [
    help,
    OptionDeclaration("version", .flag, help: "Show the version."),
    OptionDeclaration(
      "generate-manual", .flag, help: "Print the manual page alarmcal(1) (roff)."),
    OptionDeclaration(
      "generate-completion-script", .choice(CompletionScript.shells),
      help: "Print a shell completion script."),
  ]
}
