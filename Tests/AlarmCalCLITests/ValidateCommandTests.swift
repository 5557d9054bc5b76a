import Foundation
import Testing

@testable import AlarmCalCLI

@Suite struct ValidateCommandTests {
  private struct Outcome {
    let status: ExitCode
    let stdout: String
    let stderr: String
  }

  private func run(_ arguments: [String], stdin: String = "") -> Outcome {
    let out = CapturedText()
    let err = CapturedText()
    let input = Array(stdin.utf8)
    let context = ToolContext(
      standardOutput: out, standardError: err, readStandardInput: { Array(input.prefix($0)) },
      environment: [:],
      clock: { Date(timeIntervalSince1970: 1_796_198_400) })
    let status = Tool.run(arguments: ["validate"] + arguments, context: context)
    return Outcome(status: status, stdout: out.text, stderr: err.text)
  }

  /// Writes `files` (name → text with `\n` line ends turned into CRLF unless `bare`) to a
  /// fresh folder and returns the folder.
  private func folder(_ files: [String: String], bare: Bool = false) throws -> URL {
    let url = try temporaryFolder()
    for (name, text) in files {
      let body = bare ? text : text.replacingOccurrences(of: "\n", with: "\r\n")
      try Data(body.utf8).write(to: url.appendingPathComponent(name))
    }
    return url
  }

  private let good = """
    BEGIN:VCALENDAR
    PRODID:-//t//t//EN
    VERSION:2.0
    END:VCALENDAR

    """
  private let broken = """
    BEGIN:VCALENDAR
    VERSION:2.0
    BEGIN:VEVENT
    UID:1
    DTSTAMP:20261202T080000Z
    DTSTART:20261202T250000Z
    END:VEVENT
    END:VCALENDAR

    """

  @Test("text output has one compiler-style line per problem; errors exit 1")
  func text() throws {
    let dir = try folder(["good.ics": good, "bad.ics": broken])
    let bad = dir.appendingPathComponent("bad.ics").path
    let result = run([dir.appendingPathComponent("good.ics").path, bad])
    #expect(result.status == .problemsFound)
    #expect(
      result.stdout == """
        \(bad):1:1: error: VCALENDAR needs PRODID [component.missing-property]
        \(bad):6:9: error: DTSTART value "20261202T250000Z" is not a DATE-TIME (YYYYMMDDTHHMMSS[Z]) [value.date-time]

        """)
    #expect(result.stderr == "")
  }

  @Test("warnings alone exit 0, and 1 with --strict")
  func warnings() throws {
    let dir = try folder(["lf.ics": good], bare: true)
    let path = dir.appendingPathComponent("lf.ics").path
    let relaxed = run([path])
    #expect(relaxed.status == .success)
    #expect(
      relaxed.stdout
        == "\(path):1:16: warning: line ends with LF instead of CRLF (4 lines in this file) [content.bare-lf]\n"
    )
    #expect(run([path, "--strict"]).status == .problemsFound)
    #expect(
      run([try folder(["ok.ics": good]).appendingPathComponent("ok.ics").path]).status == .success)
  }

  @Test("--format json writes one array with every field")
  func json() throws {
    let result = run(
      ["-", "--format", "json"], stdin: broken.replacingOccurrences(of: "\n", with: "\r\n"))
    #expect(result.status == .problemsFound)
    #expect(
      result.stdout == """
        [
          {
            "file": "<stdin>",
            "line": 1,
            "column": 1,
            "severity": "error",
            "rule": "component.missing-property",
            "message": "VCALENDAR needs PRODID",
            "rfc": "RFC 5545 §3.6"
          },
          {
            "file": "<stdin>",
            "line": 6,
            "column": 9,
            "severity": "error",
            "rule": "value.date-time",
            "message": "DTSTART value \\"20261202T250000Z\\" is not a DATE-TIME (YYYYMMDDTHHMMSS[Z])",
            "rfc": "RFC 5545 §3.3.5"
          }
        ]

        """)
    #expect(run(["-", "--format=json"], stdin: "").stdout.hasPrefix("[\n  {"))
  }

  @Test("a missing file exits 66 after the others are still checked")
  func missing() throws {
    let dir = try folder(["bad.ics": broken])
    let gone = dir.appendingPathComponent("gone.ics").path
    let result = run([gone, dir.appendingPathComponent("bad.ics").path])
    #expect(result.status == .noInput)
    #expect(result.stderr == "alarmcal validate: error: \(gone): no such file\n")
    #expect(result.stdout.split(separator: "\n").count == 2)
  }

  @Test(
    "usage errors exit 64 with the message and the usage line",
    arguments: [
      ([], "missing FILE"),
      (["a.ics", "--format", "xml"], "--format must be text or json, not 'xml'"),
      (["a.ics", "--bogus"], "unknown option --bogus"),
    ])
  func usage(arguments: [String], message: String) {
    let result = run(arguments)
    #expect(result.status == .usage)
    #expect(result.stdout == "")
    #expect(
      result.stderr
        == "alarmcal validate: error: \(message)\n"
        + "Usage: alarmcal validate FILE... [--format text|json] [--strict] [--max-problems N]"
        + " [--now ISO] [--tz ZONE] [--max-file-size SIZE]\n"
        + "Run 'alarmcal help validate' for details.\n"
    )
  }
}
