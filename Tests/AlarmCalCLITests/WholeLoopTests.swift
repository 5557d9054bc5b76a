import CalDAV
import CalDAVTestServers
import Foundation
import Testing

/// Issue 36's loop as one piece, on Radicale, Xandikos and Cyrus IMAP (when installed): the
/// app's list (iOS records) is the one local source; another CalDAV client (python's `caldav`)
/// edits on the server; every step asserts exact values. The real binary throughout.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct WholeLoopTests {
  static let servers =
    CalDAVTestServer.Kind.allCases + (CalDAVTestServer.cyrusShouldRun ? [.cyrus] : [])

  /// The app's records: ids from `creatTime` with spaces and colons, one field alarmcal does
  /// not know (`vibrate`), sounds as the app writes them.
  static let appList = """
    [
      {
        "alarmTime": "06:30",
        "name": "Work",
        "repeatDays": [false, true, true, true, true, true, false],
        "sound": "Radar",
        "snoozeEnabled": true,
        "isEnabled": true,
        "creatTime": "2026-11-02 06:30:00",
        "vibrate": true
      },
      {
        "alarmTime": "09:00",
        "name": "Weekend",
        "repeatDays": [true, false, false, false, false, false, true],
        "sound": "",
        "snoozeEnabled": true,
        "isEnabled": true,
        "creatTime": "2026-11-02 09:00:00"
      },
      {
        "alarmTime": "21:00",
        "name": "Pill",
        "repeatDays": [true, true, true, true, true, true, true],
        "sound": "",
        "snoozeEnabled": false,
        "isEnabled": true,
        "creatTime": "2026-11-03 21:00:00"
      }
    ]

    """

  static let zone = ["--tz", "Europe/Berlin"]

  static func run(_ arguments: [String], _ server: CalDAVTestServer) throws -> RunResult {
    try CalDAVEndToEndTests.run(arguments, server)
  }

  /// python's `caldav` as another client: `scripts/caldav-client.py URL USER ARGUMENTS...`.
  static func otherClient(_ arguments: [String], _ server: CalDAVTestServer, url: String) throws
    -> String
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CalDAVTestServer.python)
    let script = samplesFolder.deletingLastPathComponent().appendingPathComponent(
      "scripts/caldav-client.py")
    process.arguments = [script.path, url, server.user] + arguments
    process.environment = ["ALARMCAL_PASSWORD": server.password]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let problems = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(
      process.terminationStatus == 0,
      "caldav-client \(arguments): \(String(decoding: problems, as: UTF8.self))")
    return String(decoding: data, as: UTF8.self)
  }

  /// The records of a JSON list, as objects.
  static func records(_ path: String) throws -> [[String: Any]] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
  }

  /// The firings `upcoming FILE` lists from `now`, as (trigger, id, uid, snooze) lines.
  static func firings(_ file: String, now: String, limit: Int = 20) throws -> [[String: Any]] {
    let listed = try runBinary(
      ["upcoming", file, "--now", now, "--from", now, "--limit", "\(limit)", "--format", "ndjson"]
        + zone)
    #expect(listed.status == 0, "\(listed.stderr)")
    return listed.stdout.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  @Test(
    "app list → push → server edit → pull into the list → snooze → push → back", arguments: servers)
  func appListLoop(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let folder = try temporaryFolder()
    let list = folder.appendingPathComponent("alarms.json").path
    try Self.appList.write(toFile: list, atomically: true, encoding: .utf8)

    // 1. The app's list goes to the server.
    let day1 = "2026-12-07T05:00:00Z"
    let push = try Self.run(["push", list, "--url", url, "--now", day1] + Self.zone, server)
    #expect(push.status == 0, "\(push.stderr)")
    #expect(
      push.stdout == "pushed: 3 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts, 0 refused\n")

    // 2. Another client moves "Work" to 07:45 and adds an event of its own.
    _ = try Self.otherClient(["move", "2026-11-02 06:30:00", "07:45"], server, url: url)
    _ = try Self.otherClient(["add", "foreign-standup", "Standup"], server, url: url)

    // 3. The server's change reaches the list, in the list's shape; the foreign event stays out.
    let before = try String(contentsOfFile: list, encoding: .utf8)
    let pull = try Self.run(["pull", "--url", url, "-o", list], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    #expect(pull.stdout.contains("1 item in the calendar is not in this list"), "\(pull.stdout)")
    let after = try String(contentsOfFile: list, encoding: .utf8)
    #expect(
      after
        == before.replacingOccurrences(
          of: "\"alarmTime\": \"06:30\"", with: "\"alarmTime\": \"07:45\""))
    #expect(!after.contains("Standup"))

    // 4. upcoming on the list; the Monday 07:45 ring is snoozed for 5 minutes on the list.
    let monday = try #require(
      try Self.firings(list, now: day1).first {
        $0["uid"] as? String == "2026-11-02 06:30:00"
      })
    #expect(monday["trigger"] as? String == "2026-12-07T06:45:00Z")
    let id = try #require(monday["id"] as? String)
    let snooze = try runBinary(
      ["snooze", list, "--id", id, "--minutes", "5", "--now", "2026-12-07T06:46:00Z"] + Self.zone)
    #expect(snooze.status == 0, "\(snooze.stderr)")
    let snoozed = try Self.records(list)
    #expect(snoozed[0]["snoozedUntil"] != nil)
    #expect(
      try String(contentsOfFile: list, encoding: .utf8).components(separatedBy: "\n").count
        >= after.components(separatedBy: "\n").count)
    let next = try Self.firings(list, now: "2026-12-07T06:46:00Z", limit: 1)
    #expect(next.first?["trigger"] as? String == "2026-12-07T06:51:00Z")

    // 5. One PUT carries the snooze; the other client reads it as RFC 9074.
    let sent = try Self.run(
      ["push", list, "--url", url, "--now", "2026-12-07T06:47:00Z"] + Self.zone, server)
    #expect(
      sent.stdout == "pushed: 0 new, 1 changed, 2 unchanged, 0 deleted, 0 conflicts, 0 refused\n",
      "\(sent.stderr)")
    let alarmsText = try Self.otherClient(["alarms", "2026-11-02 06:30:00"], server, url: url)
    let alarms = try #require(
      try JSONSerialization.jsonObject(with: Data(alarmsText.utf8)) as? [[String: Any]])
    let original = try #require(alarms.first { $0["reltype"] as? String == nil })
    #expect(original["acknowledged"] as? String == "20261207T064600Z")
    let snoozeAlarm = try #require(alarms.first { $0["reltype"] as? String == "SNOOZE" })
    #expect(snoozeAlarm["relatedTo"] as? String == original["uid"] as? String)
    #expect(snoozeAlarm["trigger"] as? String == "20261207T065100Z")

    // 6. The next day the app changes one alarm: exactly that one is sent.
    let edited = try String(contentsOfFile: list, encoding: .utf8).replacingOccurrences(
      of: "\"alarmTime\": \"21:00\"", with: "\"alarmTime\": \"21:30\"")
    try edited.write(toFile: list, atomically: true, encoding: .utf8)
    let day2 = try Self.run(
      ["push", list, "--url", url, "--now", "2026-12-08T05:00:00Z"] + Self.zone, server)
    #expect(
      day2.stdout == "pushed: 0 new, 1 changed, 2 unchanged, 0 deleted, 0 conflicts, 0 refused\n",
      "\(day2.stderr)")

    // 7. After pushes on two days, another change on the server still merges cleanly.
    _ = try Self.otherClient(["move", "2026-11-02 09:00:00", "10:00"], server, url: url)
    let again = try Self.run(["pull", "--url", url, "-o", list], server)
    #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    #expect(!again.stderr.contains("conflict"), "\(again.stderr)")

    // 8. Back to the app: the server's changes and the unknown field are there.
    let back = folder.appendingPathComponent("back.json").path
    let converted = try runBinary(
      [
        "convert", list, "--to", "json", "--shape", "ios", "-o", back, "--now",
        "2026-12-08T05:00:00Z",
      ]
        + Self.zone)
    #expect(converted.status == 0, "\(converted.stderr)")
    let records = try Self.records(back)
    #expect(records.map { $0["alarmTime"] as? String } == ["07:45", "10:00", "21:30"])
    #expect(
      records.map { $0["creatTime"] as? String } == [
        "2026-11-02 06:30:00", "2026-11-02 09:00:00", "2026-11-03 21:00:00",
      ])
    #expect(records[0]["vibrate"] as? Bool == true)
    #expect(records[1]["sound"] as? String == "")
  }

  @Test(
    "an .ics pulled, snoozed, pushed, pulled: the snooze stays, another's edit arrives",
    arguments: servers)
  func icsLoop(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    // A second collection of the account, beside the one the app list's test uses.
    let second = server.collectionURL.deletingLastPathComponent()
      .appendingPathComponent("second", isDirectory: true)
    let client = DAVClient(credentials: server.credentials)
    #expect(try client.send(HTTPRequest(method: "MKCALENDAR", url: second)).status == 201)
    let url = second.absoluteString
    let folder = try temporaryFolder()
    let list = folder.appendingPathComponent("seed.json").path
    try Self.appList.write(toFile: list, atomically: true, encoding: .utf8)
    let seeded = try Self.run(
      ["push", list, "--url", url, "--now", "2026-12-07T05:00:00Z"] + Self.zone, server)
    #expect(seeded.status == 0, "\(seeded.stderr)")

    let file = folder.appendingPathComponent("cal.ics").path
    #expect(try Self.run(["pull", "--url", url, "-o", file], server).status == 0)
    let pill = try #require(
      try Self.firings(file, now: "2026-12-07T05:00:00Z").first {
        $0["uid"] as? String == "2026-11-03 21:00:00"
      })
    #expect(pill["trigger"] as? String == "2026-12-07T20:00:00Z")
    let snooze = try runBinary([
      "snooze", file, "--id", try #require(pill["id"] as? String), "--minutes", "10", "--now",
      "2026-12-07T20:01:00Z",
    ])
    #expect(snooze.status == 0, "\(snooze.stderr)")
    let pushed = try Self.run(["push", file, "--url", url], server)
    #expect(
      pushed.stdout
        == "pushed: 0 new, 1 changed, 2 unchanged, 0 deleted, 0 conflicts, 0 refused\n",
      "\(pushed.stderr)")
    // Another client's edit lands after the push; the next pull brings it and keeps the snooze.
    _ = try Self.otherClient(["move", "2026-11-02 09:00:00", "10:15"], server, url: url)
    let pulled = try Self.run(["pull", "--url", url, "-o", file], server)
    #expect(pulled.status == 0, "\(pulled.stderr)")
    #expect(pulled.stdout.hasPrefix("pulled: 1 changed, 0 removed"), "\(pulled.stdout)")
    let next = try Self.firings(file, now: "2026-12-07T20:01:00Z", limit: 1)
    #expect(next.first?["trigger"] as? String == "2026-12-07T20:11:00Z")
    #expect(next.first?["isSnooze"] as? Bool == true)
    let weekend = try #require(
      try Self.firings(file, now: "2026-12-07T20:01:00Z").first {
        $0["uid"] as? String == "2026-11-02 09:00:00"
      })
    #expect(weekend["trigger"] as? String == "2026-12-12T09:15:00Z")
  }
}
