import Foundation
import Testing

@testable import AlarmCalCLI

/// A failure is thrown where it happens and written in one place: the runner.
@Suite struct CommandFailureTests {
  private static func context(command: String) -> (ToolContext, CapturedText, CapturedText) {
    let out = CapturedText()
    let err = CapturedText()
    var context = ToolContext(
      standardOutput: out, standardError: err, readStandardInput: { _ in [] },
      environment: [:], clock: { Date(timeIntervalSince1970: 0) })
    context.commandName = command
    return (context, out, err)
  }

  @Test("the runner writes each line of a thrown failure once, as an error, and gives its status")
  func runnerWritesTheFailure() {
    let (context, out, err) = Self.context(command: "convert")
    let status = Tool.status(context: context) { () throws(CommandFailure) -> ExitCode in
      throw CommandFailure(
        .badData, lines: ["a.json: record 1: no time", "a.json: record 2: no id"])
    }
    #expect(status.rawValue == 65)
    #expect(
      err.text
        == "alarmcal convert: error: a.json: record 1: no time\nalarmcal convert: error: a.json: record 2: no id\n"
    )
    #expect(out.text.isEmpty)
  }

  @Test("notes follow the error lines, then the guidance as it is")
  func notesAndGuidanceFollow() {
    let (context, _, err) = Self.context(command: "push")
    let status = Tool.status(context: context) { () throws(CommandFailure) -> ExitCode in
      throw CommandFailure(.unavailable, "down", notes: ["stopped"], guidance: "see --help\n")
    }
    #expect(status.rawValue == 69)
    #expect(
      err.text == "alarmcal push: error: down\nalarmcal push: note: stopped\nsee --help\n")
  }

  @Test("a body that does not throw writes nothing to standard error and keeps its status")
  func successWritesNothing() {
    let (context, _, err) = Self.context(command: "validate")
    let status = Tool.status(context: context) { () throws(CommandFailure) -> ExitCode in
      .problemsFound
    }
    #expect(status.rawValue == 1)
    #expect(err.text.isEmpty)
  }

  @Test("a command's front passes a failure on without writing it")
  func frontDoesNotWrite() throws {
    let (context, _, err) = Self.context(command: "plan")
    let declaration = try #require(Tool.declarations.first { $0.name == "plan" })
    #expect(throws: CommandFailure.self) {
      try CommandFront.run(["x.ics"], declaration, context: context) {
        (_) throws(UsageError) in
        ()
      } then: { (_) throws(CommandFailure) -> ExitCode in
        throw CommandFailure(.noInput, "x.ics: no such file")
      }
    }
    #expect(err.text.isEmpty)
  }

  @Test("a usage mistake becomes one error line, the usage line and the hint, with exit 64")
  func usageMistakeGoesTheSameWay() throws {
    let (context, _, err) = Self.context(command: "plan")
    let declaration = try #require(Tool.declarations.first { $0.name == "plan" })
    let status = Tool.status(context: context) { () throws(CommandFailure) -> ExitCode in
      try CommandFront.run(["--nope"], declaration, context: context) {
        (_) throws(UsageError) in
        ()
      } then: { (_) throws(CommandFailure) -> ExitCode in
        .success
      }
    }
    #expect(status.rawValue == 64)
    let lines = err.text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == "alarmcal plan: error: unknown option --nope")
    #expect(lines.filter { $0.contains(": error: ") }.count == 1)
    #expect(err.text.hasSuffix("Run 'alarmcal help plan' for details.\n"))
  }

  @Test("an alarm list with two bad records fails with two error lines and exit 65")
  func twoProblemsTwoLines() throws {
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent("two.json").path
    try Data(#"[{"time": "25:00", "label": "a"}, {"time": "7", "label": "b"}]"#.utf8)
      .write(to: URL(fileURLWithPath: file))
    let result = runInProcess(["convert", file])
    #expect(result.status == 65)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 2, "\(result.stderr)")
    #expect(lines.allSatisfy { $0.hasPrefix("alarmcal convert: error: \(file)") })
    #expect(result.stdout.isEmpty)
  }
}
