import Foundation
import Testing

/// README.md's shell examples, run as shown.
///
/// Every ```` ```sh ```` block of README.md is an example. In it, a line starting with `$ ` is a
/// command (a line ending in `\` continues it on the next), and the lines under it up to the
/// next `$ ` line are what it prints, standard output and standard error together, as a
/// terminal shows them. A block runs in one bash shell (`set -o pipefail`) from the
/// repository root, with the built `alarmcal` first on `PATH` and `TMPDIR` a fresh folder;
/// each command must exit 0 and print exactly what README shows. A block is left out only when
/// the line before it is `<!-- not run: REASON -->`; README says why beside it.
@Suite struct ReadmeExamplesTests {
  /// The repository's root, where README.md is.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test("README has runnable examples, and each left out says why")
  func blocksAreMarked() throws {
    let blocks = try ReadmeBlock.all(in: Self.readme())
    let runnable = blocks.filter { $0.skipReason == nil }
    // The tour shows convert, upcoming, validate, snooze and dismiss on Samples/.
    #expect(runnable.count >= 3, "only \(runnable.count) runnable sh blocks in README.md")
    for block in blocks {
      if let reason = block.skipReason {
        #expect(!reason.isEmpty, "README.md:\(block.line): a not-run marker without a reason")
      } else {
        #expect(
          !block.commands.isEmpty,
          "README.md:\(block.line): an sh block with no `$ ` command (mark it not run, or prompt)")
      }
    }
  }

  @Test("each runnable example in README exits 0 and prints what README shows")
  func examplesRunAsShown() throws {
    let blocks = try ReadmeBlock.all(in: Self.readme()).filter { $0.skipReason == nil }
    let binFolder = try alarmcalBinary().deletingLastPathComponent().path
    for block in blocks where !block.commands.isEmpty {
      let results = try Self.run(block, binFolder: binFolder)
      #expect(
        results.count == block.commands.count,
        "README.md:\(block.line): \(results.count) of \(block.commands.count) commands ran")
      for (command, result) in zip(block.commands, results) {
        #expect(
          result.status == 0,
          "README.md:\(command.line): `\(command.text)` exited \(result.status):\n\(result.output)")
        #expect(
          Self.trimmed(result.output) == Self.trimmed(command.expected),
          "README.md:\(command.line): `\(command.text)` printed something else")
      }
    }
  }

  static func readme() throws -> String {
    try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
  }

  static func trimmed(_ text: String) -> String {
    var text = Substring(text)
    while text.last == "\n" { text.removeLast() }
    return String(text)
  }

  /// One command's exit status and what it printed.
  struct CommandResult {
    let status: Int32
    let output: String
  }

  /// Runs a block's commands in one bash shell, each followed by a marker line with its status.
  static func run(_ block: ReadmeBlock, binFolder: String) throws -> [CommandResult] {
    let marker = "@@readme-example-\(UUID().uuidString)@@"
    var script = "set -o pipefail\n"
    for command in block.commands {
      script += "{\n\(command.text)\n} 2>&1\nprintf '\\n%s %d\\n' '\(marker)' \"$?\"\n"
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    process.currentDirectoryURL = root
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "SOURCE_DATE_EPOCH")
    environment["PATH"] = binFolder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    environment["TMPDIR"] = try temporaryFolder().path
    process.environment = environment
    let out = Pipe()
    process.standardOutput = out
    process.standardError = out
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    var results: [CommandResult] = []
    var output = ""
    for line in String(decoding: data, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)
    {
      if line.hasPrefix(marker + " ") {
        // The marker's printf starts with a newline of its own: drop it.
        if output.hasSuffix("\n") { output.removeLast() }
        let status = Int32(line.dropFirst(marker.count + 1)) ?? -1
        results.append(CommandResult(status: status, output: output))
        output = ""
      } else {
        output += line + "\n"
      }
    }
    return results
  }
}

/// One fenced ```` ```sh ```` block of README.md.
struct ReadmeBlock {
  /// One `$ ` command, its line in README.md and the output README shows under it.
  struct Command {
    let line: Int
    var text: String
    var expected: String
  }

  /// The line of the opening fence.
  let line: Int
  /// Why the block is not run (the `<!-- not run: … -->` marker before it), or nil.
  let skipReason: String?
  let commands: [Command]

  static let skipPrefix = "<!-- not run:"

  static func all(in text: String) throws -> [ReadmeBlock] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var blocks: [ReadmeBlock] = []
    var index = 0
    while index < lines.count {
      guard lines[index] == "```sh" else {
        index += 1
        continue
      }
      let opening = index
      var skip: String?
      if opening > 0, lines[opening - 1].hasPrefix(skipPrefix) {
        skip = lines[opening - 1].dropFirst(skipPrefix.count)
          .replacingOccurrences(of: "-->", with: "").trimmingCharacters(in: .whitespaces)
      }
      var commands: [Command] = []
      var continuing = false
      index += 1
      while index < lines.count, lines[index] != "```" {
        let line = lines[index]
        if continuing, var last = commands.popLast() {
          last.text += "\n" + line
          commands.append(last)
          continuing = line.hasSuffix("\\")
        } else if line.hasPrefix("$ ") {
          commands.append(Command(line: index + 1, text: String(line.dropFirst(2)), expected: ""))
          continuing = line.hasSuffix("\\")
        } else if var last = commands.popLast() {
          last.expected += line + "\n"
          commands.append(last)
        }
        index += 1
      }
      try #require(index < lines.count, "README.md:\(opening + 1): an sh block is never closed")
      blocks.append(ReadmeBlock(line: opening + 1, skipReason: skip, commands: commands))
      index += 1
    }
    return blocks
  }
}
