/// One token of a command line after scanning.
enum ArgumentToken: Equatable {
  /// `--name`, `--name=value`, `-n`, with an inline value when written with `=`, and the
  /// option as written (for messages).
  case option(name: String, inlineValue: String?, written: String)
  /// Anything else, including `-` (stdin/stdout) and everything after `--`.
  case positional(String)
}

/// Splits arguments into options and positionals: `--x=v`, `--x v`, `-x v`, `-`, `--`.
enum ArgumentScanner {
  static func scan(_ arguments: [String]) -> [ArgumentToken] {
    var tokens: [ArgumentToken] = []
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      if argument == "--" {
        tokens += rest.map(ArgumentToken.positional)
        break
      }
      if argument.hasPrefix("--") {
        let body = argument.dropFirst(2)
        if let equals = body.firstIndex(of: "=") {
          let name = String(body[..<equals])
          let value = String(body[body.index(after: equals)...])
          tokens.append(.option(name: name, inlineValue: value, written: "--" + name))
        } else {
          tokens.append(.option(name: String(body), inlineValue: nil, written: argument))
        }
      } else if argument.hasPrefix("-"), argument.count > 1 {
        tokens.append(
          .option(name: String(argument.dropFirst()), inlineValue: nil, written: argument))
      } else {
        tokens.append(.positional(argument))
      }
    }
    return tokens
  }
}

/// A command-line mistake, reported with exit code 64.
struct UsageError: Error, Equatable {
  let message: String
  init(_ message: String) { self.message = message }
}

/// A command's options and positionals, collected from scanned tokens as its declaration says.
struct ParsedArguments {
  var values: [String: String] = [:]
  var flags: Set<String> = []
  var positionals: [String] = []

  /// Reads `arguments` by `declaration`: its options with a value take one (`--to ics`,
  /// `--to=ics`), flags take none, a short name stands for its long one, a choice must be one
  /// of its words.
  init(_ arguments: [String], declaration: CommandDeclaration) throws(UsageError) {
    var tokens = ArgumentScanner.scan(arguments)[...]
    while let token = tokens.popFirst() {
      switch token {
      case .positional(let text):
        positionals.append(text)
      case .option(let given, let inline, let shown):
        guard let option = declaration.option(named: given) else {
          throw UsageError("unknown option \(shown)")
        }
        guard option.takesValue else {
          guard inline == nil else { throw UsageError("option \(shown) takes no value") }
          flags.insert(option.name)
          continue
        }
        let value: String
        if let inline {
          value = inline
        } else if case .positional(let next)? = tokens.first {
          value = next
          tokens.removeFirst()
        } else if case .option(_, nil, let written)? = tokens.first,
          Self.isNegativeNumber(written)
        {
          // `--limit -1`: a value for the option to judge, not an option of its own.
          value = written
          tokens.removeFirst()
        } else {
          throw UsageError("option \(shown) needs a value")
        }
        guard values[option.name] == nil else {
          throw UsageError("option \(shown) is given twice")
        }
        guard !value.isEmpty else { throw UsageError("option \(shown) needs a non-empty value") }
        if case .choice(let words) = option.kind, !words.contains(value) {
          throw UsageError("\(option.flagName) must be \(Self.either(words)), not '\(value)'")
        }
        values[option.name] = value
      }
    }
    // `--help` is answered even when a required option is missing.
    for option in declaration.options
    where option.required && values[option.name] == nil && !flags.contains("help") {
      throw UsageError("missing \(option.usageSynopsis)")
    }
  }

  /// `a`, `a or b`, `a, b or c`.
  static func either(_ words: [String]) -> String {
    guard let last = words.last, words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " or " + last
  }
}

extension ParsedArguments {
  /// Whether an argument reads as a negative number (`-1`, `-2.5`): no option looks like one.
  static func isNegativeNumber(_ text: String) -> Bool {
    let body = text.dropFirst()
    return text.hasPrefix("-") && !body.isEmpty && body.first?.isNumber == true
      && body.allSatisfy { $0.isNumber || $0 == "." }
  }
}
