import Foundation
import Testing

/// The usage lines the reference pages in `docs/` show are the ones the program prints.
///
/// In a code block of a `docs/*.md` page, a line `alarmcal COMMAND …` that holds a `[` is a
/// usage line (examples give values, not brackets), as is one with `(--`; indented lines under it continue it. Its
/// words must be those of the first line of `alarmcal COMMAND --help`, after `Usage: `.
@Suite struct DocsUsageTests {
  static let commands = [
    "convert", "upcoming", "validate", "snooze", "dismiss", "plan", "calendars", "push", "pull",
  ]

  @Test("each docs page's usage line is the command's own")
  func usageLinesMatchTheProgram() throws {
    let docs = ReadmeExamplesTests.root.appendingPathComponent("docs")
    let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path)
      .filter { $0.hasSuffix(".md") }.sorted()
    var shown = Set<String>()
    for page in pages {
      let text = try String(contentsOf: docs.appendingPathComponent(page), encoding: .utf8)
      for usage in Self.usageLines(in: text) {
        let command = usage.words[1]
        let result = try runBinary([command, "--help"])
        let printed = result.stdout.split(separator: "\n").first.map(String.init) ?? ""
        let expected = printed.dropFirst("Usage: ".count).split(separator: " ").map(String.init)
        #expect(
          usage.words == expected,
          "docs/\(page):\(usage.line): \(usage.words.joined(separator: " ")) is not \(printed)")
        shown.insert(command)
      }
    }
    // Every command has its usage in the reference.
    #expect(
      shown == Set(Self.commands),
      "no usage line in docs/ for \(Set(Self.commands).subtracting(shown).sorted())")
  }

  /// The usage lines of a page: their line numbers and words.
  static func usageLines(in text: String) -> [(line: Int, words: [String])] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var found: [(line: Int, words: [String])] = []
    var inBlock = false
    var index = 0
    while index < lines.count {
      let line = lines[index]
      if line.hasPrefix("```") {
        inBlock.toggle()
      } else if inBlock, line.contains("[") || line.contains("(--"),
        commands.contains(where: { line.hasPrefix("alarmcal \($0) ") })
      {
        let start = index + 1
        var words = line.split(separator: " ").map(String.init)
        while index + 1 < lines.count, lines[index + 1].hasPrefix(" ") {
          index += 1
          words += lines[index].split(separator: " ").map(String.init)
        }
        found.append((line: start, words: words))
      }
      index += 1
    }
    return found
  }
}
