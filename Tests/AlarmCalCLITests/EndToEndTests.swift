import Foundation
import Testing

/// The real `alarmcal` binary, run as a separate process, for every command path and exit code.
@Suite struct EndToEndTests {
  @Test("--help, --version and help convert exit 0 with text on stdout")
  func helpAndVersion() throws {
    let help = try runBinary(["--help"])
    #expect(help.status == 0)
    #expect(
      help.stdout == (try String(contentsOfFile: try fixturePath("help.txt"), encoding: .utf8)))
    let version = try runBinary(["--version"])
    #expect(version.status == 0)
    #expect(version.stdout == "alarmcal 0.1.0\n")
    let convertHelp = try runBinary(["help", "convert"])
    #expect(convertHelp.status == 0)
    #expect(
      convertHelp.stdout
        == (try String(contentsOfFile: try fixturePath("help-convert.txt"), encoding: .utf8)))
  }

  @Test("convert writes a file and exits 0; the file converts back to the same alarms")
  func convertToFileAndBack() throws {
    let folder = try temporaryFolder()
    let ics = folder.appendingPathComponent("alarms.ics").path
    let json = folder.appendingPathComponent("again.json").path
    let input = try fixturePath("alarms-small.json")
    let first = try runBinary(["convert", input, "-o", ics, "--now", "2026-12-02T08:00:00Z"])
    #expect(first.status == 0)
    #expect(first.stdout == "")
    #expect(first.stderr == "")
    let back = try runBinary(["convert", ics, "-o", json])
    #expect(back.status == 0)
    let direct = try runBinary(["convert", input, "--to", "json"])
    #expect(try String(contentsOfFile: json, encoding: .utf8) == direct.stdout)
  }

  @Test("exit codes: 64 usage, 65 bad data, 66 missing input, 74 write error, 1 strict")
  func exitCodes() throws {
    #expect(try runBinary(["convert"]).status == 64)
    #expect(try runBinary(["convert", try fixturePath("bad-alarms.json")]).status == 65)
    #expect(try runBinary(["convert", "/nonexistent/x.json"]).status == 66)
    #expect(
      try runBinary([
        "convert", try fixturePath("alarms-small.json"), "-o", "/nonexistent-folder/x.ics",
      ]).status == 74)
    let strict = try runBinary([
      "convert", try fixturePath("lossy.ics"), "--strict", "--tz", "Europe/Berlin",
    ])
    #expect(strict.status == 1)
    #expect(strict.stdout == "")
  }

  @Test("stdin and stdout with '-'")
  func pipes() throws {
    let json = try String(contentsOfFile: try fixturePath("alarms-small.json"), encoding: .utf8)
    let result = try runBinary(
      ["convert", "-", "-o", "-", "--now", "2026-12-02T08:00:00Z"], stdin: json)
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
    #expect(result.stdout.hasSuffix("END:VCALENDAR\r\n"))
  }

  @Test(
    "every sample converts with exit 0; alarm lists survive a trip through iCalendar",
    arguments: try FileManager.default.contentsOfDirectory(atPath: samplesFolder.path)
      .filter { ($0.hasSuffix(".json") && !$0.contains("schema")) || $0.hasSuffix(".ics") }.sorted()
  )
  func samples(name: String) throws {
    let path = samplesFolder.appendingPathComponent(name).path
    let common = ["--tz", "Europe/Berlin", "--now", "2026-12-02T08:00:00Z"]
    let result = try runBinary(["convert", path] + common)
    #expect(result.status == 0, "\(name): \(result.stderr)")
    guard name.hasSuffix(".json") else {
      #expect(result.stdout.hasPrefix("{\n  \"alarms\": ["))
      return
    }
    #expect(result.stderr == "")
    let back = try runBinary(["convert", "-", "--to", "json"] + common, stdin: result.stdout)
    let direct = try runBinary(["convert", path, "--to", "json"] + common)
    #expect(back.status == 0)
    #expect(back.stdout == direct.stdout)
  }
}
