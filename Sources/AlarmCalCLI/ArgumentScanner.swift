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

/// Collects a command's options and positionals from scanned tokens.
struct ParsedArguments {
  var values: [String: String] = [:]
  var flags: Set<String> = []
  var positionals: [String] = []

  /// `valued` options take a value (`--to ics`); `flags` do not; `aliases` map short names.
  init(
    _ arguments: [String], valued: Set<String>, flags known: Set<String>,
    aliases: [String: String] = [:]
  ) throws(UsageError) {
    var tokens = ArgumentScanner.scan(arguments)[...]
    while let token = tokens.popFirst() {
      switch token {
      case .positional(let text):
        positionals.append(text)
      case .option(let given, let inline, let shown):
        let name = aliases[given] ?? given
        if valued.contains(name) {
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
          guard values[name] == nil else { throw UsageError("option \(shown) is given twice") }
          guard !value.isEmpty else { throw UsageError("option \(shown) needs a non-empty value") }
          values[name] = value
        } else if known.contains(name) {
          guard inline == nil else { throw UsageError("option \(shown) takes no value") }
          flags.insert(name)
        } else {
          throw UsageError("unknown option \(shown)")
        }
      }
    }
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

/// What every command does before its own work: scan its options, answer `--help`, and turn a
/// usage mistake into one error line, the usage line and a hint on stderr, with exit 64.
enum CommandFront {
  /// Either validated options to run with, or the exit status to stop with.
  enum Outcome<Options> {
    case run(Options)
    case exit(ExitCode)
  }

  static func parse<Options>(
    _ arguments: [String], command: String, usage: String, help: String,
    valued: Set<String>, flags: Set<String>, aliases: [String: String] = [:],
    context: ToolContext, validate: (ParsedArguments) throws(UsageError) -> Options
  ) -> Outcome<Options> {
    do {
      let parsed = try ParsedArguments(
        arguments, valued: valued, flags: flags.union(["help"]),
        aliases: aliases.merging(["h": "help"]) { first, _ in first })
      if parsed.flags.contains("help") {
        context.standardOutput.write(help)
        return .exit(.success)
      }
      return .run(try validate(parsed))
    } catch {
      context.standardError.write(
        "alarmcal \(command): error: \(error.message)\n\(usage)\n"
          + "Run 'alarmcal help \(command)' for details.\n")
      return .exit(.usage)
    }
  }
}
