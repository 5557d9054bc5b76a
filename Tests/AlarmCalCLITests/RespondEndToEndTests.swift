import Foundation
import Testing

/// `snooze` and `dismiss` with the real binary, on files `convert` wrote.
@Suite struct RespondEndToEndTests {
  /// The firings `upcoming` lists from `now` as JSON objects.
  private func upcoming(_ file: String, now: String, limit: Int = 64) throws -> [[String: Any]] {
    try upcomingFirings(file, now: now, limit: limit, zone: "UTC")
  }

  /// `2026-12-07T05:30:00Z` plus `seconds`, as ISO 8601.
  private func iso(_ text: String, plus seconds: Int) throws -> String {
    let formatter = ISO8601DateFormatter()
    let date = try #require(formatter.date(from: text))
    return formatter.string(from: date.addingTimeInterval(TimeInterval(seconds)))
  }

  /// Exports `Samples/alarms.json` (or `json`) into a fresh folder at `now`.
  private func exported(now: String, json: String? = nil) throws -> String {
    let folder = try temporaryFolder()
    var input = samplesFolder.appendingPathComponent("alarms.json").path
    if let json {
      input = folder.appendingPathComponent("alarms.json").path
      try Data(json.utf8).write(to: URL(fileURLWithPath: input))
    }
    let output = folder.appendingPathComponent("alarms.ics").path
    let result = try runBinary(["convert", input, "-o", output, "--now", now])
    #expect(result.status == 0, "\(result.stderr)")
    return output
  }

  @Test("export → upcoming → snooze 30 min → the snooze rings, the rest keep their ids → dismiss")
  func samplesFlow() throws {
    let file = try exported(now: "2026-12-04T00:00:00Z")
    let before = try upcoming(file, now: "2026-12-04T00:00:00Z")
    #expect(before.count == 64)
    let rang = before[2]
    let trigger = try #require(rang["trigger"] as? String)
    let rangID = try #require(rang["id"] as? String)
    let now = try iso(trigger, plus: 20)
    let snoozed = try runBinary(["snooze", file, "--id", rangID, "--minutes", "30", "--now", now])
    #expect(snoozed.status == 0, "\(snoozed.stderr)")
    let until = try iso(trigger, plus: 20 + 1800)
    #expect(snoozed.stdout.hasPrefix("snoozed \(rangID) until \(until); the snooze rings as "))
    let after = try upcoming(file, now: now)
    let snooze = try #require(after.first { $0["isSnooze"] as? Bool == true })
    #expect(snooze["trigger"] as? String == until)
    #expect(snooze["snoozeOf"] as? String != nil)
    #expect(snooze["snoozeOf"] as? String == before[2]["alarmUid"] as? String)
    #expect(!firingIDs(after).contains(rangID))
    // Every firing after now that is not the snooze keeps its id.
    let later = firingIDs(before.filter { ($0["trigger"] as? String ?? "") > now })
    let kept = firingIDs(after.filter { $0["isSnooze"] as? Bool == false })
    #expect(Array(kept.prefix(later.count)) == later)

    let snoozeID = try #require(snooze["id"] as? String)
    let dismissNow = try iso(until, plus: 5)
    let dismissed = try runBinary(["dismiss", file, "--id", snoozeID, "--now", dismissNow])
    #expect(dismissed.status == 0, "\(dismissed.stderr)")
    #expect(dismissed.stdout == "dismissed \(snoozeID)\n")
    let last = try upcoming(file, now: now)
    #expect(!last.contains { $0["isSnooze"] as? Bool == true })
    #expect(Array(firingIDs(last).prefix(later.count)) == later)
  }

  @Test("a weekly alarm's instance on the day clocks change: the snooze rings 5 minutes on")
  func dstDay() throws {
    let json = """
      {"timeZone": "Europe/Berlin", "alarms": [
        {"id": "wk", "time": "02:30", "repeat": ["sun"], "label": "Sunday"}]}
      """
    let file = try exported(now: "2027-03-20T00:00:00Z", json: json)
    let before = try upcoming(file, now: "2027-03-20T00:00:00Z", limit: 4)
    // 2027-03-28: 02:30 does not exist in Berlin; it rings at 03:30 CEST, 01:30Z.
    #expect(
      before.map { $0["trigger"] as? String } == [
        "2027-03-21T01:30:00Z", "2027-03-28T01:30:00Z", "2027-04-04T00:30:00Z",
        "2027-04-11T00:30:00Z",
      ])
    let rangID = try #require(before[1]["id"] as? String)
    let snoozed = try runBinary([
      "snooze", file, "--id", rangID, "--minutes", "5", "--now", "2027-03-28T01:30:10Z",
    ])
    #expect(snoozed.status == 0, "\(snoozed.stderr)")
    let after = try upcoming(file, now: "2027-03-28T01:30:10Z", limit: 3)
    #expect(
      after.map { $0["trigger"] as? String } == [
        "2027-03-28T01:35:10Z", "2027-04-04T00:30:00Z", "2027-04-11T00:30:00Z",
      ])
    #expect(after.map { $0["isSnooze"] as? Bool } == [true, false, false])
    #expect(Array(firingIDs(after).dropFirst()) == Array(firingIDs(before).dropFirst(2)))
  }

  @Test("an id that matches nothing exits 1 naming it, and the file is untouched")
  func unknownID() throws {
    let file = try exported(now: "2026-12-04T00:00:00Z")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    let result = try runBinary([
      "dismiss", file, "--id", "00000000-0000-8000-8000-000000000000", "--now",
      "2026-12-08T00:00:00Z",
    ])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "alarmcal dismiss: error: \(file): no firing with id 00000000-0000-8000-8000-000000000000 in the year before or after 2026-12-08T00:00:00Z\n"
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == bytes)
    let early = try upcoming(file, now: "2026-12-04T00:00:00Z", limit: 1)
    let id = try #require(early.first?["id"] as? String)
    let notYet = try runBinary([
      "snooze", file, "--id", id, "--minutes", "5", "--now", "2026-12-04T00:00:00Z",
    ])
    #expect(notYet.status == 1)
    #expect(notYet.stderr.contains("only a firing that has rung can be snoozed or dismissed"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == bytes)
  }

  @Test("the edited file keeps its permissions")
  func permissions() throws {
    let file = try exported(now: "2026-12-04T00:00:00Z")
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file)
    let first = try upcoming(file, now: "2026-12-04T00:00:00Z", limit: 1)
    let id = try #require(first.first?["id"] as? String)
    let trigger = try #require(first.first?["trigger"] as? String)
    let result = try runBinary(["dismiss", file, "--id", id, "--now", trigger])
    #expect(result.status == 0, "\(result.stderr)")
    let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
    #expect(mode == 0o640)
  }

  @Test("two snoozes of one file at once: both land, or one reports the conflict")
  func concurrentSnoozes() throws {
    for round in 0..<4 {
      let file = try exported(now: "2026-12-04T00:00:00Z")
      let firings = try upcoming(file, now: "2026-12-04T00:00:00Z", limit: 4)
      // Two firings of different alarms that have both rung by `now`.
      let now = try #require(firings[3]["trigger"] as? String)
      let chosen = [firings[0], firings[1]].compactMap { $0["id"] as? String }
      var processes: [(Process, Pipe)] = []
      for id in chosen {
        let process = Process()
        process.executableURL = try alarmcalBinary()
        process.arguments = ["snooze", file, "--id", id, "--minutes", "9", "--now", now]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        processes.append((process, errors))
      }
      for (process, _) in processes { try process.run() }
      var landed = 0
      for (process, errors) in processes {
        process.waitUntilExit()
        let message = String(
          decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if process.terminationStatus == 0 {
          landed += 1
        } else {
          #expect(process.terminationStatus == 75, "round \(round): \(message)")
          #expect(message.contains("try again"), "round \(round): \(message)")
        }
      }
      // What was reported as done is in the file: one acknowledged alarm and one snooze each.
      let text = try String(contentsOfFile: file, encoding: .utf8)
      #expect(text.components(separatedBy: "RELATED-TO;RELTYPE=SNOOZE:").count - 1 == landed)
      #expect(text.components(separatedBy: "\r\nACKNOWLEDGED:").count - 1 == landed)
      #expect(landed >= 1)
    }
  }
}
