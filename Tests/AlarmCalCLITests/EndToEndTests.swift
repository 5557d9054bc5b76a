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

@Suite struct StandardOutputFailureTests {
  @Test("a full disk on standard output exits 74 instead of claiming success")
  func fullDisk() throws {
    let process = Process()
    process.executableURL = try alarmcalBinary()
    process.arguments = [
      "convert", try fixturePath("alarms-small.json"), "--now", "2026-12-02T08:00:00Z",
    ]
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
    let err = Pipe()
    process.standardError = err
    try process.run()
    let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 74)
    #expect(
      message.hasPrefix(
        "alarmcal convert: error: cannot write to standard output: No space left on device")
    )
  }
}

/// `alarmcal upcoming` as a separate process: each option and error path.
@Suite struct UpcomingEndToEndTests {
  private func dst() throws -> String { try fixturePath("dst.ics") }

  @Test("ndjson over a window; json with a limit; text by default; help")
  func formats() throws {
    let window = ["--from", "2007-01-01T00:00:00Z", "--to", "2008-01-01T00:00:00Z", "--tz", "UTC"]
    let ndjson = try runBinary(["upcoming", try dst(), "--format", "ndjson"] + window)
    #expect(ndjson.status == 0)
    #expect(ndjson.stdout.split(separator: "\n").count == 6)
    let json = try runBinary(["upcoming", try dst(), "--format", "json", "--limit", "2"] + window)
    let array = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
    #expect(
      array?.map { $0["trigger"] as? String } == ["2007-03-04T07:30:00Z", "2007-03-11T07:30:00Z"])
    let text = try runBinary([
      "upcoming", try dst(), "--now", "2007-03-01T00:00:00Z", "--limit", "1", "--tz", "UTC",
    ])
    #expect(text.stdout.hasPrefix("Sun 2007-03-04  07:30     in 3d 07h"))
    #expect(!text.stdout.contains("\u{1B}["))  // no colour when stdout is not a terminal
    let help = try runBinary(["help", "upcoming"])
    #expect(
      help.stdout
        == (try String(contentsOfFile: try fixturePath("help-upcoming.txt"), encoding: .utf8)))
  }

  @Test("several files merge in time order; stdin works; --include-acknowledged adds firings")
  func mergeAndStdin() throws {
    let window = [
      "--from", "2007-01-01T00:00:00Z", "--to", "2028-01-01T00:00:00Z", "--format", "ndjson",
    ]
    let both = try runBinary(["upcoming", try fixturePath("ack.ics"), try dst()] + window)
    let triggers = both.stdout.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["trigger"]
        as? String
    }
    #expect(triggers.count == 9)
    #expect(triggers == triggers.sorted())
    let piped = try runBinary(
      ["upcoming", "-"] + window, stdin: try String(contentsOfFile: try dst(), encoding: .utf8))
    #expect(piped.stdout.split(separator: "\n").count == 6)
    #expect(piped.stdout.contains("\"file\":\"-\""))
    let acknowledged = try runBinary(
      ["upcoming", try fixturePath("ack.ics"), "--include-acknowledged"] + window)
    #expect(acknowledged.stdout.split(separator: "\n").count == 6)
  }

  @Test("exit 1 when a file fails while the others are listed; 64 for usage errors")
  func errors() throws {
    let mixed = try runBinary([
      "upcoming", "/nonexistent/a.ics", try dst(), "--from", "2007-01-01T00:00:00Z", "--limit", "1",
      "--format", "ndjson",
    ])
    #expect(mixed.status == 66)
    #expect(mixed.stderr == "alarmcal upcoming: error: /nonexistent/a.ics: no such file\n")
    #expect(mixed.stdout.split(separator: "\n").count == 1)
    #expect(try runBinary(["upcoming"]).status == 64)
    #expect(try runBinary(["upcoming", try dst(), "--limit", "many"]).status == 64)
  }
}

/// `alarmcal validate` as a separate process.
@Suite struct ValidateEndToEndTests {
  @Test("errors exit 1 with compiler-style lines; a clean sample exits 0; json; help; 66 and 64")
  func paths() throws {
    let broken = try fixturePath("validate-timezones.ics")
    let result = try runBinary(["validate", broken])
    #expect(result.status == 1)
    #expect(
      result.stdout.split(separator: "\n").first
        == "\(broken):6:1: error: STANDARD of VTIMEZONE \"Own\" lacks DTSTART [timezone.malformed]")
    let clean = try runBinary([
      "validate", samplesFolder.appendingPathComponent("outlook.ics").path,
    ])
    #expect(clean.status == 0)
    let json = try runBinary(["validate", broken, "--format", "json"])
    let array = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
    #expect(array?.count == 5)
    #expect(array?.first?["rfc"] as? String == "RFC 5545 §3.6.5")
    #expect(try runBinary(["validate", "/nonexistent/x.ics"]).status == 66)
    #expect(try runBinary(["validate"]).status == 64)
    #expect(
      try runBinary(["help", "validate"]).stdout.hasPrefix("Usage: alarmcal validate FILE..."))
  }
}

/// The input limits as a separate process: each refusal is one line naming the file and limit.
@Suite struct LimitsEndToEndTests {
  @Test("--max-file-size refuses larger files, /dev/zero included, on every command")
  func fileSize() throws {
    let dstFile = try fixturePath("dst.ics")
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: dstFile)[.size] as? Int)
    for command in [["upcoming"], ["validate"], ["convert", "--to", "json"]] {
      let small = try runBinary(command + [dstFile, "--max-file-size", "100"])
      #expect(small.status != 0)
      #expect(
        small.stderr
          == "alarmcal \(command[0]): error: \(dstFile): larger than the 100 bytes input limit (--max-file-size raises it)\n"
      )
      let enough = try runBinary(command + [dstFile, "--max-file-size", String(size)])
      #expect(!enough.stderr.contains("input limit"), "\(command)")
    }
    let zero = try runBinary(["validate", "/dev/zero", "--max-file-size", "2M"])
    #expect(zero.status == 66)
    #expect(
      zero.stderr.hasSuffix(
        "/dev/zero: larger than the 2 MiB input limit (--max-file-size raises it)\n"))
    #expect(try runBinary(["upcoming", dstFile, "--max-file-size", "lots"]).status == 64)
  }

  @Test("--max-instances cuts a rule off with a warning; --max-problems caps validate's list")
  func instancesAndProblems() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("alarmcal-limits-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let secondly = folder.appendingPathComponent("secondly.ics").path
    try
      ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:s\r\n"
      + "DTSTAMP:20200101T000000Z\r\nDTSTART:20261130T000000Z\r\n"
      + "RRULE:FREQ=SECONDLY;BYSECOND=0,30;COUNT=2000000000\r\n"
      + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:x\r\nTRIGGER:PT0S\r\nEND:VALARM\r\n"
      + "END:VEVENT\r\nEND:VCALENDAR\r\n").write(
        toFile: secondly, atomically: true, encoding: .utf8)
    let now = ["--now", "2026-12-02T00:00:00Z", "--limit", "2", "--format", "ndjson"]
    let cut = try runBinary(["upcoming", secondly, "--max-instances", "1000"] + now)
    #expect(cut.status == 0)
    #expect(cut.stdout.isEmpty)
    #expect(
      cut.stderr
        == "alarmcal upcoming: warning: \(secondly):4: event \"s\": stopped after 1000 recurrence candidates; later instances are not listed\n"
    )
    let whole = try runBinary(["upcoming", secondly] + now)
    #expect(whole.stdout.split(separator: "\n").count == 2)

    let broken = try fixturePath("validate-timezones.ics")
    let capped = try runBinary(["validate", broken, "--max-problems", "2"])
    #expect(capped.status == 1)
    #expect(capped.stdout.split(separator: "\n").count == 2)
    #expect(
      capped.stderr
        == "alarmcal validate: note: \(broken): 3 more problems not shown (--max-problems 0 shows all)\n"
    )
    let all = try runBinary(["validate", broken, "--max-problems", "0"])
    #expect(all.stdout.split(separator: "\n").count == 5)
    #expect(all.stderr.isEmpty)
  }
}

/// Killing `alarmcal convert` with SIGKILL while it writes never leaves a partial output file.
@Suite struct CrashSafeOutputTests {
  @Test("after SIGKILL at any moment the output is the old file or the whole new one")
  func killWhileWriting() throws {
    let folder = try temporaryFolder()
    let input = folder.appendingPathComponent("many.json")
    var json = "{\"timeZone\":\"Europe/Berlin\",\"alarms\":["
    for index in 0..<20_000 {
      json +=
        (index == 0 ? "" : ",")
        + "{\"id\":\"a\(index)\",\"time\":\"07:\(index % 50 + 10)\",\"repeat\":[\"mon\",\"fri\"],\"label\":\"Alarm number \(index)\"}"
    }
    try (json + "]}").write(to: input, atomically: true, encoding: .utf8)
    let output = folder.appendingPathComponent("out.ics").path
    let arguments = ["convert", input.path, "-o", output, "--now", "2026-12-02T08:00:00Z"]
    let complete = try runBinary(arguments)
    #expect(complete.status == 0)
    let whole = try String(contentsOfFile: output, encoding: .utf8)
    try "old content\n".write(toFile: output, atomically: true, encoding: .utf8)
    var sawOld = 0
    var sawNew = 0
    // Kill at spread-out moments: early (parsing), middle (building), late (writing, renaming).
    for delay in [0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2, 2.0] {
      let process = Process()
      process.executableURL = try alarmcalBinary()
      process.arguments = arguments
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(useconds_t(delay * 1_000_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let now = try String(contentsOfFile: output, encoding: .utf8)
      #expect(now == "old content\n" || now == whole, "partial output after a kill at \(delay) s")
      if now == whole {
        sawNew += 1
        try "old content\n".write(toFile: output, atomically: true, encoding: .utf8)
      } else {
        sawOld += 1
      }
    }
    #expect(sawOld > 0, "no kill landed before the rename")
    #expect(sawOld + sawNew == 9)
  }
}
