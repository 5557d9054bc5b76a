/// Shell completion scripts made from the command declarations
/// (`alarmcal --generate-completion-script bash|zsh|fish`). Zone names for `--tz` come from
/// the binary itself (`alarmcal _time-zones`), so they are the names it accepts.
enum CompletionScript {
  /// The shells a script is made for.
  static let shells = ["bash", "zsh", "fish"]

  /// The hidden command that lists the zone names `--tz` accepts, one per line.
  static let zonesCommand = "_time-zones"

  static func script(for shell: String, _ commands: [CommandDeclaration]) -> String? {
    switch shell {
    case "bash": bash(commands)
    case "zsh": zsh(commands)
    case "fish": fish(commands)
    default: nil
    }
  }

  /// Every word an option is written as: `-o`, `--output`.
  private static func words(_ option: OptionDeclaration) -> [String] {
    (option.short.map { ["-\($0)"] } ?? []) + [option.flagName]
  }

  // MARK: bash

  private static func bash(_ commands: [CommandDeclaration]) -> String {
    let names = commands.map(\.name) + ["help"]
    var script =
      "# bash completion for alarmcal, made by alarmcal --generate-completion-script bash\n"
    for command in commands {
      script += "_alarmcal_\(identifier(command.name))() {\n"
      script += "  case \"$prev\" in\n"
      for option in command.allOptions where option.takesValue {
        script += "    " + words(option).joined(separator: "|") + ") "
        script += bashValues(option.kind) + "; return ;;\n"
      }
      script += "  esac\n"
      let all = command.allOptions.flatMap(words).joined(separator: " ")
      script += "  if [[ $cur == -* ]]; then\n"
      script += "    COMPREPLY=($(compgen -W \"\(all)\" -- \"$cur\"))\n"
      if !command.arguments.isEmpty {
        script +=
          "  else\n    compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\"))\n"
      }
      script += "  fi\n}\n"
    }
    script += """
      _alarmcal() {
        local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
        local program="${COMP_WORDS[0]}"
        COMPREPLY=()
        if [[ $COMP_CWORD -eq 1 ]]; then
          COMPREPLY=($(compgen -W "\((names + SharedOptions.tool.flatMap(words)).joined(separator: " "))" -- "$cur"))
          return
        fi
        case "${COMP_WORDS[1]}" in
          help) COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " "))" -- "$cur")) ;;

      """
    for option in SharedOptions.tool where option.takesValue {
      script +=
        "    " + words(option).joined(separator: "|") + ") " + bashValues(option.kind) + " ;;\n"
    }
    for command in commands {
      script += "    \(command.name)) _alarmcal_\(identifier(command.name)) ;;\n"
    }
    script += "  esac\n}\ncomplete -F _alarmcal alarmcal\n"
    return script
  }

  private static func bashValues(_ kind: ValueKind) -> String {
    switch kind {
    case .file:
      "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\"))"
    case .zone:
      "COMPREPLY=($(compgen -W \"$(\"$program\" \(zonesCommand) 2>/dev/null)\" -- \"$cur\"))"
    case .choice(let words):
      "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"))"
    default:
      "COMPREPLY=()"
    }
  }

  // MARK: zsh

  private static func zsh(_ commands: [CommandDeclaration]) -> String {
    var script =
      "#compdef alarmcal\n# zsh completion for alarmcal, made by alarmcal --generate-completion-script zsh\n"
    script += "_alarmcal_zones() {\n  local -a zones\n"
    script += "  zones=(${(f)\"$(${_alarmcal_program:-alarmcal} \(zonesCommand) 2>/dev/null)\"})\n"
    script += "  _multi_parts / zones\n}\n"
    for command in commands {
      script += "_alarmcal_\(identifier(command.name))() {\n  _arguments -s \\\n"
      for option in command.allOptions { script += "    \(zshSpec(option)) \\\n" }
      if let argument = command.arguments.first {
        script += "    '\(argument.repeating ? "*" : "1"):\(argument.name):_files' \\\n"
      }
      script += "    && return 0\n}\n"
    }
    script +=
      "_alarmcal() {\n  local _alarmcal_program=${words[1]}\n  local -a commands\n  commands=(\n"
    for command in commands {
      script += "    '\(command.name):\(zshText(command.abstract))'\n"
    }
    script += "    'help:Show help for a command.'\n  )\n"
    script += "  if (( CURRENT == 2 )); then\n    _describe command commands\n"
    script +=
      "    _arguments \(SharedOptions.tool.map(zshSpec).joined(separator: " "))\n    return\n  fi\n"
    script += "  local command=${words[2]}\n  shift words\n  (( CURRENT-- ))\n  case $command in\n"
    script += "    help) _describe command commands ;;\n"
    for command in commands {
      script += "    \(command.name)) _alarmcal_\(identifier(command.name)) ;;\n"
    }
    script += "  esac\n}\n_alarmcal \"$@\"\n"
    return script
  }

  /// An option as `_arguments` takes it: its words, help and how its value completes.
  private static func zshSpec(_ option: OptionDeclaration) -> String {
    let help = zshText(option.help)
    let action: String
    switch option.kind {
    case .flag: action = ""
    case .file: action = ":\(option.placeholder):_files"
    case .zone: action = ":\(option.placeholder):_alarmcal_zones"
    case .choice(let words): action = ":\(option.placeholder):(\(words.joined(separator: " ")))"
    default: action = ":\(zshText(option.placeholder)): "
    }
    guard let short = option.short else { return "'\(option.flagName)[\(help)]\(action)'" }
    return "'(-\(short) \(option.flagName))'{-\(short),\(option.flagName)}'[\(help)]\(action)'"
  }

  /// Help text safe inside zsh's single-quoted `[...]` and `:` fields.
  private static func zshText(_ text: String) -> String {
    String(firstSentence(text).filter { !"[]:'\\".contains($0) })
  }

  /// A help text's first sentence, without its full stop: up to the first `. `, so a `.ics`
  /// inside it stays.
  static func firstSentence(_ text: String) -> String {
    let sentence = text.range(of: ". ").map { String(text[..<$0.lowerBound]) } ?? text
    return sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
  }

  // MARK: fish

  private static func fish(_ commands: [CommandDeclaration]) -> String {
    var script =
      "# fish completion for alarmcal, made by alarmcal --generate-completion-script fish\n"
    script += "complete -c alarmcal -f\n"
    // fish refuses a command substitution in a command's position, so the program being
    // completed is called from a function.
    script += "function \(fishZones)\n"
    script += "  set -l program (commandline -opc)[1]\n"
    script += "  $program \(zonesCommand) 2>/dev/null\n"
    script += "end\n"
    for command in commands {
      script +=
        "complete -c alarmcal -n __fish_use_subcommand -a \(command.name) -d \(fishText(command.abstract))\n"
    }
    script +=
      "complete -c alarmcal -n __fish_use_subcommand -a help -d 'Show help for a command.'\n"
    for option in SharedOptions.tool {
      script += fishLine(option, condition: "-n __fish_use_subcommand")
    }
    for command in commands {
      let condition = "-n '__fish_seen_subcommand_from \(command.name)'"
      for option in command.allOptions { script += fishLine(option, condition: condition) }
      if !command.arguments.isEmpty {
        script += "complete -c alarmcal \(condition) -F\n"
      }
    }
    return script
  }

  /// A `complete` line for `option` where `condition` holds.
  private static func fishLine(_ option: OptionDeclaration, condition: String) -> String {
    var line = "complete -c alarmcal \(condition)"
    if let short = option.short { line += " -s \(short)" }
    line += " -l \(option.name)"
    switch option.kind {
    case .flag: break
    case .file: line += " -r -F"
    case .zone: line += " -x -a '(\(fishZones))'"
    case .choice(let words): line += " -x -a '\(words.joined(separator: " "))'"
    default: line += " -x"
    }
    return line + " -d \(fishText(option.help))\n"
  }

  /// The fish function that lists zone names: those the program being completed accepts.
  private static let fishZones = "__alarmcal_zones"

  private static func fishText(_ text: String) -> String {
    let sentence = firstSentence(text)
    return "'"
      + sentence.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "'", with: "\\'") + "'"
  }

  private static func identifier(_ name: String) -> String {
    name.replacingOccurrences(of: "-", with: "_")
  }
}
