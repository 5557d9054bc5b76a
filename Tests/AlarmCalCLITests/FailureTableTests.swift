import Foundation
import Testing

/// Every command against every failure class that applies to it, run as the built binary: the
/// exit status and the shape of the first line on standard error come from the table in
/// docs/failures.md, written out here again (not taken from the program).
@Suite struct FailureTableTests {
  /// One row: the arguments (`@` stands for the test's folder), the environment, the exit
  /// status and a pattern the first line of standard error matches whole.
  struct Row: CustomTestStringConvertible, Sendable {
    let arguments: [String]
    var environment: [String: String] = [:]
    let status: Int32
    /// Whether a usage line and hint follow (a mistake on the command line, not in the
    /// credentials it leads to).
    var usageFollows = true
    let firstLine: String
    var testDescription: String { "\(arguments.joined(separator: " ")) → \(status)" }
  }

  private static let server = "http://127.0.0.1:1/c/"

  static let rows: [Row] = [
    // usage (64): one line, then the usage line and the hint.
    Row(
      arguments: ["convert", "@/ok.ics", "--to", "xml"], status: 64,
      firstLine: #"alarmcal convert: error: --to must be ics or json, not 'xml'"#),
    Row(
      arguments: ["upcoming", "@/ok.ics", "--tz", "europe/berlin"], status: 64,
      firstLine:
        #"alarmcal upcoming: error: --tz 'europe/berlin' is not a known IANA time zone; did you mean Europe/Berlin\?"#
    ),
    Row(
      arguments: ["upcoming", "@/ok.ics", "--limit", "99999999999999999999"], status: 64,
      firstLine: #"alarmcal upcoming: error: --limit '99999999999999999999' is too large: .*"#),
    Row(
      arguments: ["plan", "@/ok.ics", "--budget", "0"], status: 64,
      firstLine: #"alarmcal plan: error: --budget must be a whole number from 1 to 100000, not '0'"#
    ),
    Row(arguments: ["validate"], status: 64, firstLine: #"alarmcal validate: error: missing FILE"#),
    Row(
      arguments: ["snooze", "@/ok.ics", "--id", "x"], status: 64,
      firstLine: #"alarmcal snooze: error: missing --minutes or --until"#),
    Row(
      arguments: ["dismiss", "@/ok.ics", "--bogus"], status: 64,
      firstLine: #"alarmcal dismiss: error: unknown option --bogus"#),
    Row(
      arguments: ["calendars"], status: 64,
      firstLine: #"alarmcal calendars: error: missing --url URL"#),
    Row(
      arguments: ["push", "@/ok.ics"], status: 64,
      firstLine: #"alarmcal push: error: missing --url URL"#),
    Row(
      arguments: ["pull", "--url", server], status: 64,
      firstLine: #"alarmcal pull: error: missing -o FILE"#),
    Row(
      arguments: ["convert", "@/ok.ics"], environment: ["SOURCE_DATE_EPOCH": "abc"], status: 64,
      firstLine:
        #"alarmcal convert: error: SOURCE_DATE_EPOCH 'abc' is not a whole number of seconds"#),
    Row(
      arguments: ["push", "@/ok.ics", "--url", server], environment: ["SOURCE_DATE_EPOCH": "abc"],
      status: 64,
      firstLine: #"alarmcal push: error: SOURCE_DATE_EPOCH 'abc' is not a whole number of seconds"#),
    Row(
      arguments: ["calendars", "--url", server, "--password-file", "@/pw"], status: 64,
      usageFollows: false,
      firstLine: #"alarmcal calendars: error: .*no user name.* \(--user NAME\)"#),
    // missing input (66): the same words everywhere.
    Row(
      arguments: ["convert", "@/gone.ics"], status: 66,
      firstLine: #"alarmcal convert: error: .*/gone.ics: no such file"#),
    Row(
      arguments: ["upcoming", "@/gone.ics"], status: 66,
      firstLine: #"alarmcal upcoming: error: .*/gone.ics: no such file"#),
    Row(
      arguments: ["plan", "@/gone.ics"], status: 66,
      firstLine: #"alarmcal plan: error: .*/gone.ics: no such file"#),
    Row(
      arguments: ["validate", "@/gone.ics"], status: 66,
      firstLine: #"alarmcal validate: error: .*/gone.ics: no such file"#),
    Row(
      arguments: ["snooze", "@/gone.ics", "--id", "x", "--minutes", "5"], status: 66,
      firstLine: #"alarmcal snooze: error: .*/gone.ics: no such file"#),
    Row(
      arguments: ["dismiss", "@/gone.ics", "--id", "x"], status: 66,
      firstLine: #"alarmcal dismiss: error: .*/gone.ics: no such file"#),
    Row(
      arguments: ["push", "@/gone.ics", "--url", server], status: 66,
      firstLine: #"alarmcal push: error: .*/gone.ics: no such file"#),
    Row(
      arguments: ["pull", "--url", server, "-o", "@/folder"], status: 66,
      firstLine: #"alarmcal pull: error: .*/folder: is a folder, not a file"#),
    Row(
      arguments: ["upcoming", "@/ok.ics", "--max-file-size", "10"], status: 66,
      firstLine:
        #"alarmcal upcoming: error: .*/ok.ics: larger than the 10 bytes input limit \(--max-file-size raises it\)"#
    ),
    // unusable data (65): FILE:LINE: PROBLEM.
    Row(
      arguments: ["convert", "@/notical.ics"], status: 65,
      firstLine: #"alarmcal convert: error: .*/notical.ics:1: .*not iCalendar.*"#),
    Row(
      arguments: ["upcoming", "@/notical.ics"], status: 65,
      firstLine: #"alarmcal upcoming: error: .*/notical.ics:1: .*not iCalendar.*"#),
    Row(
      arguments: ["plan", "@/notical.ics"], status: 65,
      firstLine: #"alarmcal plan: error: .*/notical.ics:1: .*not iCalendar.*"#),
    Row(
      arguments: ["snooze", "@/notical.ics", "--id", "x", "--minutes", "5"], status: 65,
      firstLine: #"alarmcal snooze: error: .*/notical.ics:1: .*not iCalendar.*"#),
    Row(
      arguments: ["dismiss", "@/notical.ics", "--id", "x"], status: 65,
      firstLine: #"alarmcal dismiss: error: .*/notical.ics:1: .*not iCalendar.*"#),
    Row(
      arguments: ["push", "@/notical.ics", "--url", server], status: 65,
      firstLine: #"alarmcal push: error: .*/notical.ics:1: .*not iCalendar.*"#),
    Row(
      arguments: ["pull", "--url", server, "-o", "@/notical.ics"], status: 65,
      firstLine: #"alarmcal pull: error: .*/notical.ics:1: .*not iCalendar.*"#),
    // the job found problems (1).
    Row(
      arguments: ["dismiss", "@/ok.ics", "--id", "nope"], status: 1,
      firstLine: #"alarmcal dismiss: error: .*"#),
    // server unreachable (69).
    Row(
      arguments: ["calendars", "--url", server], status: 69,
      firstLine: #"alarmcal calendars: error: .*cannot reach the server.*"#),
    Row(
      arguments: ["push", "@/ok.ics", "--url", server], status: 69,
      firstLine: #"alarmcal push: error: .*cannot reach the server.*"#),
    Row(
      arguments: ["pull", "--url", server, "-o", "@/new.ics"], status: 69,
      firstLine: #"alarmcal pull: error: .*cannot reach the server.*"#),
    Row(
      arguments: ["upcoming", "--url", server], status: 69,
      firstLine: #"alarmcal upcoming: error: .*cannot reach the server.*"#),
    // output not writable (74).
    Row(
      arguments: ["convert", "@/ok.ics", "-o", "@/no/such/folder/out.json"], status: 74,
      firstLine: #"alarmcal convert: error: .*"#),
    // a file alarmcal may not edit (77).
    Row(
      arguments: ["dismiss", "@/readonly.ics", "--id", "x"], status: 77,
      firstLine: #"alarmcal dismiss: error: .*"#),
  ]

  /// A folder with the files the rows name.
  private static func folder() throws -> URL {
    let folder = try temporaryFolder()
    let ok = try String(
      contentsOf: samplesFolder.appendingPathComponent("nextcloud.ics"), encoding: .utf8)
    try ok.write(to: folder.appendingPathComponent("ok.ics"), atomically: true, encoding: .utf8)
    try ok.write(
      to: folder.appendingPathComponent("readonly.ics"), atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o444], ofItemAtPath: folder.appendingPathComponent("readonly.ics").path)
    try "hello\n".write(
      to: folder.appendingPathComponent("notical.ics"), atomically: true, encoding: .utf8)
    try "secret\n".write(to: folder.appendingPathComponent("pw"), atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o600], ofItemAtPath: folder.appendingPathComponent("pw").path)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("folder"), withIntermediateDirectories: true)
    return folder
  }

  @Test("each failure exits with its class's status and one line of the one shape", arguments: rows)
  func failure(row: Row) throws {
    let folder = try Self.folder().path
    let arguments = row.arguments.map { $0.replacingOccurrences(of: "@", with: folder) }
    let result = try runBinary(
      arguments, environment: row.environment.merging(["HOME": folder]) { $1 })
    #expect(result.status == row.status, "\(result.stderr)")
    // Warnings and notes may come before and after (an import's losses, what a push did).
    let lines = result.stderr.split(separator: "\n")
    let first = String(
      lines.first { !$0.contains(": warning: ") && !$0.contains(": note: ") } ?? "")
    #expect(first.wholeMatch(of: try Regex(row.firstLine)) != nil, "\(first)")
    // Only a usage error adds lines: the usage line and the hint.
    if row.status == 64 && row.usageFollows {
      #expect(lines.count == 3)
      #expect(lines.last == "Run 'alarmcal help \(arguments[0])' for details.")
    } else {
      #expect(lines.allSatisfy { $0.hasPrefix("alarmcal \(arguments[0]): ") }, "\(result.stderr)")
    }
  }

  /// The commands that write their result to standard output, each with a file to read.
  static let printing = [
    ["validate", "@/ok.ics"], ["upcoming", "@/ok.ics"], ["convert", "@/ok.ics"],
    ["plan", "@/ok.ics"],
  ]

  @Test("a write error on standard output is said once, with status 74", arguments: printing)
  func fullDisk(arguments: [String]) throws {
    let folder = try Self.folder().path
    let process = Process()
    process.executableURL = try alarmcalBinary()
    process.arguments = arguments.map { $0.replacingOccurrences(of: "@", with: folder) }
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
    let err = Pipe()
    process.standardError = err
    try process.run()
    let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 74)
    #expect(
      text.split(separator: "\n").filter { !$0.contains(": warning: ") }.joined() + "\n"
        == "alarmcal \(arguments[0]): error: cannot write to standard output: No space left on device\n"
    )
  }
}
