import Foundation
import Testing

@Suite struct CLITests {
  private let usageLine =
    "Usage: alarmcal convert INPUT [-o FILE] [--to ics|json] [--shape alarmcal|ios] [--strict]"
    + " [--now ISO] [--tz ZONE] [--max-file-size SIZE]\nRun 'alarmcal help convert' for details.\n"

  @Test("--help and help print the whole help text to stdout and exit 0")
  func help() throws {
    let expected = try String(contentsOfFile: try fixturePath("help.txt"), encoding: .utf8)
    for arguments in [["--help"], ["-h"], ["help"]] {
      let result = runInProcess(arguments)
      #expect(result.status == 0)
      #expect(result.stdout == expected)
      #expect(result.stderr == "")
    }
  }

  @Test(
    "help COMMAND and COMMAND --help print the command's whole help text",
    arguments: [
      "convert", "upcoming", "plan", "validate", "snooze", "dismiss", "calendars", "push", "pull",
    ])
  func helpOfEachCommand(command: String) throws {
    let expected = try String(
      contentsOfFile: try fixturePath("help-\(command).txt"), encoding: .utf8)
    for arguments in [["help", command], [command, "--help"], [command, "x.json", "-h"]] {
      let result = runInProcess(arguments)
      #expect(result.status == 0)
      #expect(result.stdout == expected)
      #expect(result.stderr == "")
    }
  }

  @Test("--version prints the version")
  func version() {
    let result = runInProcess(["--version"])
    #expect(result.status == 0)
    #expect(result.stdout == "alarmcal 0.1.0\n")
  }

  @Test(
    "usage errors exit 64 with one error line and a usage hint on stderr",
    arguments: [
      (["convert"], "missing INPUT"),
      (["convert", "a.json", "b.json"], "unexpected argument 'b.json'"),
      (["convert", "a.json", "--to", "xml"], "--to must be ics or json, not 'xml'"),
      (
        ["convert", "a.json", "--tz", "Mars/Base"], "--tz 'Mars/Base' is not a known IANA time zone"
      ),
      (
        ["convert", "a.json", "--now", "yesterday"],
        "--now 'yesterday' is not an ISO 8601 date-time (e.g. 2026-12-02T07:00:00Z)"
      ),
      (["convert", "a.json", "--colour"], "unknown option --colour"),
      (["convert", "a.json", "-o"], "option -o needs a value"),
      (["convert", "a.json", "--strict=yes"], "option --strict takes no value"),
    ])
  func usageErrors(arguments: [String], message: String) {
    let result = runInProcess(arguments)
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(result.stderr == "alarmcal convert: error: \(message)\n" + usageLine)
  }

  @Test("an unknown command exits 64")
  func unknownCommand() {
    let result = runInProcess(["frobnicate"])
    #expect(result.status == 64)
    #expect(
      result.stderr
        == "alarmcal: error: unknown command 'frobnicate'\nRun 'alarmcal --help' for the commands.\n"
    )
  }

  @Test("no arguments prints the help to stderr and exits 64")
  func noArguments() {
    let result = runInProcess([])
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("alarmcal: move alarms"))
  }

  @Test("a missing input file exits 66")
  func missingInput() {
    let result = runInProcess(["convert", "/nonexistent/alarms.json"])
    #expect(result.status == 66)
    #expect(result.stderr == "alarmcal convert: error: /nonexistent/alarms.json: no such file\n")
  }

  @Test("bad alarm data exits 65 with one line per problem and writes nothing")
  func badData() throws {
    let folder = try temporaryFolder()
    let output = folder.appendingPathComponent("out.ics").path
    let input = try fixturePath("bad-alarms.json")
    let result = runInProcess(["convert", input, "-o", output])
    #expect(result.status == 65)
    #expect(
      result.stderr == """
        alarmcal convert: error: \(input): alarm 1 ("Gym"): time "25:00" is not a valid HH:mm time
        alarmcal convert: error: \(input): alarm 2: repeat: "someday" is not a weekday name (mon, tue, wed, thu, fri, sat, sun) or number (1 = Sunday ... 7 = Saturday)

        """)
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test("data that is neither JSON nor iCalendar exits 65")
  func unknownContent() throws {
    let result = runInProcess(["convert", "-"], stdin: "hello")
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "alarmcal convert: error: <stdin>: not an alarm list (JSON) nor iCalendar data\n")
  }

  @Test("an .ics that is not UTF-8 exits 65 naming the line")
  func notUTF8() throws {
    let folder = try temporaryFolder()
    let path = folder.appendingPathComponent("latin1.ics").path
    let bytes =
      Array("BEGIN:VCALENDAR\r\nSUMMARY:caf".utf8) + [0xE9] + Array("\r\nEND:VCALENDAR\r\n".utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let result = runInProcess(["convert", path])
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "alarmcal convert: error: \(path):2: not UTF-8 text; iCalendar files must be UTF-8 (RFC 5545 §3.1.4)\n"
    )
  }

  @Test("losses are warned about one per line; --strict exits 1 and writes nothing")
  func strict() throws {
    let folder = try temporaryFolder()
    let output = folder.appendingPathComponent("out.json").path
    let input = try fixturePath("lossy.ics")
    let lenient = runInProcess([
      "convert", input, "--tz", "Europe/Berlin", "--now", "2026-12-02T08:00:00Z", "-o", output,
    ])
    #expect(lenient.status == 0)
    #expect(lenient.stderr.split(separator: "\n").count == 6)
    #expect(
      lenient.stderr.hasPrefix(
        "alarmcal convert: warning: \(input):68: event \"allday\" (Christmas Eve): ACTION:EMAIL alarm does not ring; this alarm is skipped\n"
      ))
    #expect(FileManager.default.fileExists(atPath: output))
    try FileManager.default.removeItem(atPath: output)
    let strict = runInProcess([
      "convert", input, "--tz", "Europe/Berlin", "--strict", "--now", "2026-12-02T08:00:00Z", "-o",
      output,
    ])
    #expect(strict.status == 1)
    #expect(
      strict.stderr.hasSuffix(
        "alarmcal convert: error: --strict: 6 item(s) could not be kept; nothing written\n"))
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test("a file that cannot be written exits 74")
  func writeError() throws {
    let result = runInProcess([
      "convert", try fixturePath("alarms-small.json"), "-o", "/nonexistent-folder/out.ics",
    ])
    #expect(result.status == 74)
    #expect(
      result.stderr.hasPrefix(
        "alarmcal convert: error: cannot create a file in /nonexistent-folder: "))
  }

  @Test("the input file is never the output")
  func refuseOverwrite() throws {
    let folder = try temporaryFolder()
    let path = folder.appendingPathComponent("alarms.json").path
    try FileManager.default.copyItem(atPath: try fixturePath("alarms-small.json"), toPath: path)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let result = runInProcess([
      "convert", path, "-o", folder.appendingPathComponent("./alarms.json").path, "--to", "json",
    ])
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix(
        "alarmcal convert: error: refusing to overwrite the input file \(path)\n"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test("stdin to stdout: '-' reads and writes the standard streams, direction from content")
  func standardStreams() throws {
    let json = try String(contentsOfFile: try fixturePath("alarms-small.json"), encoding: .utf8)
    let result = runInProcess(["convert", "-", "--now", "2027-03-13T12:00:00Z"], stdin: json)
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("BEGIN:VCALENDAR\r\n"))
    let back = runInProcess(["convert", "-", "-o", "-"], stdin: result.stdout)
    #expect(back.status == 0)
    #expect(back.stdout.hasPrefix("{\n  \"alarms\": ["))
  }

  @Test("SOURCE_DATE_EPOCH and --now make the export byte-identical")
  func deterministic() throws {
    let input = try fixturePath("alarms-small.json")
    let env = ["SOURCE_DATE_EPOCH": "1767225600"]  // 2026-01-01T00:00:00Z
    let first = runInProcess(["convert", input, "--now", "2026-12-02T08:00:00Z"], environment: env)
    let second = runInProcess(
      ["convert", input, "--now", "2026-12-02T08:00:00Z"], environment: env)
    #expect(first.status == 0)
    #expect(first.stdout == second.stdout)
    #expect(first.stdout.contains("DTSTAMP:20260101T000000Z\r\n"))
    let bad = runInProcess(["convert", input], environment: ["SOURCE_DATE_EPOCH": "soon"])
    #expect(bad.status == 64)
  }

  @Test("a written file equals what stdout gets, and no temporary file is left behind")
  func atomicOutput() throws {
    let folder = try temporaryFolder()
    let output = folder.appendingPathComponent("alarms.ics").path
    let input = try fixturePath("alarms-small.json")
    try "old content".write(toFile: output, atomically: true, encoding: .utf8)
    let toFile = runInProcess(["convert", input, "--now", "2026-12-02T08:00:00Z", "-o", output])
    let toStdout = runInProcess(["convert", input, "--now", "2026-12-02T08:00:00Z"])
    #expect(toFile.status == 0)
    #expect(try String(contentsOfFile: output, encoding: .utf8) == toStdout.stdout)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["alarms.ics"])
  }

  @Test("the output kind follows --to, else the output's extension, else the other kind")
  func outputKind() throws {
    let input = try fixturePath("alarms-small.json")
    #expect(runInProcess(["convert", input, "--to", "json"]).stdout.hasPrefix("{"))
    #expect(runInProcess(["convert", input]).stdout.hasPrefix("BEGIN:VCALENDAR"))
    let folder = try temporaryFolder()
    let output = folder.appendingPathComponent("copy.json").path
    #expect(runInProcess(["convert", input, "-o", output]).status == 0)
    #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("{"))
  }
}

@Suite struct OutputSafetyTests {
  @Test(
    "a symbolic link output replaces the file it points to and keeps the link; the mode is kept")
  func symlinkAndMode() throws {
    let folder = try temporaryFolder()
    let real = folder.appendingPathComponent("real.ics").path
    let link = folder.appendingPathComponent("link.ics").path
    try "old".write(toFile: real, atomically: true, encoding: .utf8)
    chmod(real, 0o600)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
    let result = runInProcess(["convert", try fixturePath("alarms-small.json"), "-o", link])
    #expect(result.status == 0)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real)
    #expect(try String(contentsOfFile: real, encoding: .utf8).hasPrefix("BEGIN:VCALENDAR"))
    var status = stat()
    stat(real, &status)
    #expect(status.st_mode & 0o777 == 0o600)
  }

  @Test("a device output such as /dev/null is written in place, not replaced by a file")
  func deviceOutput() throws {
    let result = runInProcess(["convert", try fixturePath("alarms-small.json"), "-o", "/dev/null"])
    #expect(result.status == 0)
    var status = stat()
    stat("/dev/null", &status)
    #expect(status.st_mode & S_IFMT == S_IFCHR)
  }

  @Test("an empty output name, a basic-format --now and a single-dash option are handled")
  func smallUsageCases() throws {
    let input = try fixturePath("alarms-small.json")
    let empty = runInProcess(["convert", input, "-o", ""])
    #expect(empty.status == 64)
    #expect(empty.stderr.hasPrefix("alarmcal convert: error: option -o needs a non-empty value\n"))
    let basic = runInProcess(["convert", input, "--now", "20261202T080000Z"])
    #expect(basic.status == 0)
    let dashed = runInProcess(["convert", input, "-xyz"])
    #expect(dashed.stderr.hasPrefix("alarmcal convert: error: unknown option -xyz\n"))
  }
}
