import Foundation
import Testing

/// What a command accepts, found by running the built binary with each option named by any
/// help, the man page or a completion script (and one no one names), is exactly what its help,
/// its man page section and its bash, zsh and fish completions offer: the generators and the
/// parser agree. (All of them are made from the one declaration, so an option accepted but
/// named nowhere cannot arise; `FailureTableTests` checks behaviour from rows of its own.)
@Suite struct OptionCoverageTests {
  static let commands = [
    "convert", "upcoming", "plan", "validate", "snooze", "dismiss", "calendars", "push", "pull",
  ]

  /// The options every command answers, left out of the comparison.
  private static let everywhere: Set<String> = ["--help"]

  /// The man page, the three completion scripts, the tool's help and each command's help,
  /// generated once.
  struct Generated {
    let manual, bash, zsh, fish, toolHelp: String
    let helps: [String: String]

    static func read() throws -> Generated {
      var helps: [String: String] = [:]
      for name in OptionCoverageTests.commands {
        helps[name] = try runBinary(["help", name]).stdout
      }
      func script(_ shell: String) throws -> String {
        try runBinary(["--generate-completion-script", shell]).stdout
      }
      return Generated(
        manual: try runBinary(["--generate-manual"]).stdout, bash: try script("bash"),
        zsh: try script("zsh"), fish: try script("fish"),
        toolHelp: try runBinary(["--help"]).stdout, helps: helps)
    }
  }

  static let generated = Result { try Generated.read() }

  @Test(
    "every option a command accepts is in its help, man page and completions, and no other is",
    arguments: commands)
  func coverage(command: String) throws {
    let generated = try Self.generated.get()
    let (manual, bash, zsh, fish) = (
      generated.manual, generated.bash, generated.zsh, generated.fish
    )
    let helps = generated.helps
    // Every option any of them names, for any command, and one nobody offers.
    let everything = ([manual, bash, zsh, fish] + helps.values).joined(separator: "\n")
    var candidates = Set(
      everything.matches(of: #/--[a-z][a-z-]*[a-z]/#).map { String($0.output) })
    candidates.insert("--colour")
    candidates.subtract(Self.helpOptions(generated.toolHelp).union(Self.everywhere))

    var accepted: Set<String> = []
    for option in candidates {
      let result = try runBinary([command, option])
      if !result.stderr.contains("unknown option \(option)") { accepted.insert(option) }
    }
    #expect(!accepted.isEmpty)
    #expect(Self.helpOptions(try #require(helps[command])) == accepted, "help")
    #expect(Self.manualOptions(manual, command: command) == accepted, "man page")
    #expect(Self.bashOptions(bash, command: command) == accepted, "bash")
    #expect(Self.zshOptions(zsh, command: command) == accepted, "zsh")
    #expect(Self.fishOptions(fish, command: command) == accepted, "fish")
  }

  @Test(
    "the tool's own options: what it accepts in place of a command is what its help, the man page's OPTIONS and each shell's first word offer"
  )
  func toolOptions() throws {
    let generated = try Self.generated.get()
    let everything = [
      generated.manual, generated.bash, generated.zsh, generated.fish, generated.toolHelp,
    ].joined(separator: "\n")
    var candidates = Set(
      everything.matches(of: #/--[a-z][a-z-]*[a-z]/#).map { String($0.output) })
    candidates.insert("--colour")
    var accepted: Set<String> = []
    for option in candidates {
      let result = try runBinary([option])
      if !result.stderr.contains("unknown option \(option)") { accepted.insert(option) }
    }
    accepted.subtract(Self.everywhere)
    #expect(accepted.isSuperset(of: ["--version", "--generate-manual"]))
    #expect(Self.helpOptions(generated.toolHelp) == accepted, "help")
    #expect(Self.manualToolOptions(generated.manual) == accepted, "man page")
    let bashFirst = generated.bash.firstMatch(
      of: #/COMP_CWORD -eq 1 \]\]; then\n\s*COMPREPLY=\(\$\(compgen -W "([^"]*)"/#)
    #expect(
      Set(
        (bashFirst?.output.1.split(separator: " ") ?? []).map(String.init).filter {
          $0.hasPrefix("--")
        }
      ).subtracting(Self.everywhere) == accepted, "bash")
    let zshFirst = generated.zsh.firstMatch(
      of: #/CURRENT == 2 \)\)[^\n]*\n[^\n]*\n\s*_arguments ([^\n]*)/#)
    #expect(
      Set(
        (zshFirst.map { String($0.output.1) } ?? "").matches(of: #/(?:'|,)(--[a-z-]+)(?:\[|\})/#)
          .map { String($0.output.1) }
      ).subtracting(Self.everywhere) == accepted, "zsh")
    let fishFirst = generated.fish.split(separator: "\n").filter {
      $0.contains("-n __fish_use_subcommand") && $0.contains(" -l ")
    }
    #expect(
      Set(fishFirst.compactMap { $0.firstMatch(of: #/ -l ([a-z-]+)/#).map { "--" + $0.output.1 } })
        .subtracting(Self.everywhere) == accepted, "fish")
  }

  @Test("the man page reads with man -l, and bash completes commands, choices and zones")
  func manualAndBash() throws {
    let folder = try temporaryFolder()
    let page = folder.appendingPathComponent("alarmcal.1")
    try runBinary(["--generate-manual"]).stdout.write(to: page, atomically: true, encoding: .utf8)
    let man = try Self.shell("MANWIDTH=100 man -l \(page.path) 2>&1")
    #expect(man.contains("ALARMCAL(1)"))
    #expect(man.contains("--max-file-size SIZE"))
    let script = folder.appendingPathComponent("alarmcal.bash")
    try runBinary(["--generate-completion-script", "bash"]).stdout.write(
      to: script, atomically: true, encoding: .utf8)
    let binary = try alarmcalBinary().path
    func complete(_ words: [String]) throws -> String {
      let list = ([binary] + words).map { "'\($0)'" }.joined(separator: " ")
      return try Self.shell(
        "source \(script.path); COMP_WORDS=(\(list)); COMP_CWORD=\(words.count); _alarmcal; "
          + "printf '%s\\n' \"${COMPREPLY[@]}\"")
    }
    #expect(try complete(["conv"]) == "convert\n")
    #expect(try complete(["upcoming", "--tz", "Europe/Ber"]) == "Europe/Berlin\n")
    #expect(try complete(["convert", "--to", ""]) == "ics\njson\n")
  }

  @Test("each command is described by its whole first sentence, .ics and all, in every shell")
  func commandDescriptions() throws {
    let generated = try Self.generated.get()
    let convert = "Convert an alarm list to iCalendar (.ics) or an .ics file to an alarm list"
    #expect(generated.zsh.contains("'convert:\(convert)'"))
    #expect(generated.fish.contains("-a convert -d '\(convert)'"))
    // fish offers the tool's own options as bash and zsh do.
    #expect(generated.fish.contains("__fish_use_subcommand -s h -l help"))
  }

  @Test("--generate-manual takes no argument")
  func manualTakesNoArgument() throws {
    let result = try runBinary(["--generate-manual", "extra"])
    #expect(result.status == 64)
    #expect(result.stderr == "alarmcal: error: --generate-manual takes no argument, not 'extra'\n")
  }

  @Test("an unknown shell is a usage error")
  func unknownShell() throws {
    let result = try runBinary(["--generate-completion-script", "tcsh"])
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
  }

  private static func shell(_ command: String) throws -> String {
    try RunningBinary(["-c", command], executable: URL(fileURLWithPath: "/bin/bash")).finish()
      .stdout
  }

  /// The long options of the help's Options table.
  static func helpOptions(_ help: String) -> Set<String> {
    let table = help.components(separatedBy: "\nOptions:\n").last ?? ""
    let rows = table.components(separatedBy: "\n\n").first ?? ""
    return Set(
      rows.split(separator: "\n").compactMap { line in
        line.wholeMatch(of: #/  (?:-[a-z], )?(--[a-z-]+).*/#).map { String($0.output.1) }
      }
    ).subtracting(everywhere)
  }

  /// The long options of the command's `.SS` section, each a bold `.TP` term.
  static func manualOptions(_ manual: String, command: String) -> Set<String> {
    manualTerms(manual, after: ".SS \"\(command)\"\n")
  }

  /// The long options of the man page's OPTIONS section.
  static func manualToolOptions(_ manual: String) -> Set<String> {
    manualTerms(manual, after: ".SH OPTIONS\n")
  }

  /// The long options of the bold `.TP` terms from `marker` to the next section.
  private static func manualTerms(_ manual: String, after marker: String) -> Set<String> {
    guard let start = manual.range(of: marker) else { return [] }
    let rest = manual[start.upperBound...]
    let end = rest.range(of: "\n.S")?.lowerBound ?? rest.endIndex
    let lines = rest[..<end].split(separator: "\n", omittingEmptySubsequences: false)
    var found: Set<String> = []
    for (index, line) in lines.enumerated() where line == ".TP" && index + 1 < lines.count {
      let term = lines[index + 1].replacingOccurrences(of: "\\-", with: "-")
      for match in term.matches(of: #/\\fB(--[a-z-]+)\\fR/#) {
        found.insert(String(match.output.1))
      }
    }
    return found.subtracting(everywhere)
  }

  /// The body of the shell function `_alarmcal_COMMAND`.
  private static func function(_ script: String, _ command: String) -> Substring {
    guard let start = script.range(of: "_alarmcal_\(command)() {\n") else { return "" }
    let rest = script[start.upperBound...]
    return rest[..<(rest.range(of: "\n}\n")?.lowerBound ?? rest.endIndex)]
  }

  static func bashOptions(_ script: String, command: String) -> Set<String> {
    let words = function(script, command).matches(of: #/compgen -W "([^"$]*)"/#)
      .flatMap { $0.output.1.split(separator: " ") }
    return Set(words.map(String.init).filter { $0.hasPrefix("--") }).subtracting(everywhere)
  }

  static func zshOptions(_ script: String, command: String) -> Set<String> {
    let specs = function(script, command).matches(of: #/(?:'|,)(--[a-z-]+)(?:\[|\})/#)
    return Set(specs.map { String($0.output.1) }).subtracting(everywhere)
  }

  static func fishOptions(_ script: String, command: String) -> Set<String> {
    let condition = "'__fish_seen_subcommand_from \(command)'"
    let lines = script.split(separator: "\n").filter { $0.contains(condition) }
    let names = lines.compactMap { $0.firstMatch(of: #/ -l ([a-z-]+)/#).map { "--" + $0.output.1 } }
    return Set(names).subtracting(everywhere)
  }
}
