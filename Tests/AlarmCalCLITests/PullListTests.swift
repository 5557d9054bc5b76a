import CalDAV
import CalDAVTestServers
import Foundation
import Testing

@testable import AlarmCalCLI

/// A JSON alarm list and a calendar server: a list's identity is its `--list` name, not its
/// file's; `pull -o list.json` merges the server's changes into the list in the list's own
/// shape; a change made on both sides is named, and settled with `--keep`. The real binary on
/// Radicale and Xandikos, and Cyrus when installed.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct PullListTests {
  typealias Joints = SyncJointsTests

  static func run(_ arguments: [String], _ server: CalDAVTestServer) throws -> RunResult {
    try CalDAVEndToEndTests.run(arguments, server)
  }

  static let now = ["--now", "2026-12-04T12:00:00Z", "--tz", "Europe/Berlin"]

  /// The repro's app records (ids with spaces, colons, `/` and `%`; `vibrate` and `volume`
  /// unknown to alarmcal) copied into a new folder as `list.json`.
  static func appList() throws -> String {
    let folder = try temporaryFolder()
    let list = folder.appendingPathComponent("list.json")
    let repro = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/app-records.json")
    try FileManager.default.copyItem(at: repro, to: list)
    return list.path
  }

  /// Another client replaces `old` with `new` in the server's copy of `uid`, over its ETag.
  static func editOnServer(
    _ server: CalDAVTestServer, uid: String, _ old: String, _ new: String
  ) throws {
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    let object = try #require(
      try session.calendarObjects(in: server.collectionURL).first {
        $0.data?.contains("UID:\(uid)") == true
      })
    let text = try #require(object.data)
    #expect(text.contains(old), "\(text)")
    let outcome = try session.put(
      Array(text.replacingOccurrences(of: old, with: new).utf8), at: object.url,
      replacing: object.etag)
    guard case .done = outcome else {
      Issue.record("the other client's PUT: \(outcome)")
      return
    }
  }

  /// Another client adds an event of its own.
  static func addForeignEvent(_ server: CalDAVTestServer) throws {
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    let text = CalDAVScopeTests.calendar([Joints.event("foreign-1@other.test", summary: "Dentist")])
    let url = server.collectionURL.appendingPathComponent("foreign-1.ics")
    guard case .done = try session.put(Array(text.utf8), at: url, replacing: nil) else {
      Issue.record("the other client's PUT failed")
      return
    }
  }

  /// Replaces `old` with `new` in the file (a local edit of the list).
  static func edit(_ file: String, _ old: String, _ new: String) throws {
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(text.contains(old))
    try text.replacingOccurrences(of: old, with: new).write(
      toFile: file, atomically: true, encoding: .utf8)
  }

  @Test(
    "an app list: the server's change comes back in the record's shape, nothing else moves",
    arguments: Joints.servers)
  func serverChangeReachesList(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let list = try Self.appList()
    let before = try String(contentsOfFile: list, encoding: .utf8)
    let push = try Self.run(["push", list, "--url", url] + Self.now, server)
    #expect(push.status == 0, "\(push.stderr)")
    #expect(
      push.stdout == "pushed: 3 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    // "Wake up" rings at 07:30 on weekdays; the other client moves it to 08:15.
    try Self.editOnServer(server, uid: "2025-03-14 07:02:11", "T073000", "T081500")
    try Self.addForeignEvent(server)
    let pull = try Self.run(["pull", "--url", url, "-o", list], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    #expect(pull.stdout.hasSuffix("\n1 item in the calendar is not in this list\n"))
    let after = try String(contentsOfFile: list, encoding: .utf8)
    let (old, new) = (before.components(separatedBy: "\n"), after.components(separatedBy: "\n"))
    #expect(new.count == old.count)
    // The changed record: only its time's value, on its one line; its other members' bytes,
    // its keys' order and the unknown fields kept.
    #expect(
      new[1]
        == #"  {"alarmTime": "08:15", "name": "Wake up", "repeatDays": [false, true, true, true, true, true, false], "sound": "Radar", "snoozeEnabled": true, "isEnabled": true, "creatTime": "2025-03-14 07:02:11", "vibrate": true, "volume": 0.8},"#
    )
    #expect(new[1] == old[1].replacingOccurrences(of: #""07:30""#, with: #""08:15""#))
    // Every other byte as it was.
    #expect(Array(new[2...]) == Array(old[2...]))
    #expect(new[0] == old[0])
    #expect(!after.contains("Dentist"))
    let again = try Self.run(["push", list, "--url", url] + Self.now, server)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(
      again.stdout == "pushed: 0 new, 0 changed, 3 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    let quiet = try Self.run(["pull", "--url", url, "-o", list], server)
    #expect(quiet.status == 0, "\(quiet.stderr)")
    #expect(try String(contentsOfFile: list, encoding: .utf8) == after)
  }

  @Test(
    "an alarm changed in the list and on the server: named, kept; --keep local or server settles it",
    arguments: Joints.servers)
  func conflictSettled(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let list = try Self.appList()
    #expect(try Self.run(["push", list, "--url", url] + Self.now, server).status == 0)
    // "Weekend" at 9:05: moved to 9:30 here and to 09:45 on the server.
    try Self.edit(list, #""alarmTime": "9:05""#, #""alarmTime": "9:30""#)
    try Self.editOnServer(server, uid: "2025-03-14 07:03:40", "T090500", "T094500")
    let pull = try Self.run(["pull", "--url", url, "-o", list], server)
    #expect(pull.status == 1)
    #expect(
      pull.stderr.hasPrefix("alarmcal pull: error: conflict: 2025-03-14 07:03:40 (\(url)"),
      "\(pull.stderr)")
    #expect(
      pull.stderr.contains(".ics): changed here and on the server; this file's version is kept"))
    #expect(try String(contentsOfFile: list, encoding: .utf8).contains(#""alarmTime": "9:30""#))
    let keepLocal = try Self.run(["pull", "--url", url, "-o", list, "--keep", "local"], server)
    #expect(keepLocal.status == 0, "\(keepLocal.stderr)")
    #expect(keepLocal.stderr.hasPrefix("alarmcal pull: note: settled: 2025-03-14 07:03:40 ("))
    #expect(try String(contentsOfFile: list, encoding: .utf8).contains(#""alarmTime": "9:30""#))
    let push = try Self.run(["push", list, "--url", url] + Self.now, server)
    #expect(
      push.stdout == "pushed: 0 new, 1 changed, 2 unchanged, 0 deleted, 0 conflicts, 0 refused\n",
      "\(push.stderr)")
    // "Pills" at 22:10: 22:20 here, 22:40 on the server; the server's is taken.
    try Self.edit(list, #""alarmTime": "22:10""#, #""alarmTime": "22:20""#)
    try Self.editOnServer(server, uid: "2025-04-01 22:10:00/x%y", "T221000", "T224000")
    let keepServer = try Self.run(["pull", "--url", url, "-o", list, "--keep", "server"], server)
    #expect(keepServer.status == 0, "\(keepServer.stderr)")
    let text = try String(contentsOfFile: list, encoding: .utf8)
    #expect(text.contains(#""alarmTime": "22:40""#))
    #expect(text.contains(#""vibrate": true, "volume": 1}"#))
    let quiet = try Self.run(["push", list, "--url", url] + Self.now, server)
    #expect(
      quiet.stdout == "pushed: 0 new, 0 changed, 3 unchanged, 0 deleted, 0 conflicts, 0 refused\n",
      "\(quiet.stderr)")
  }

  @Test(
    "an alarm deleted on the server leaves the list",
    arguments: Joints.servers)
  func deletedOnServer(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let list = try Self.appList()
    #expect(try Self.run(["push", list, "--url", url] + Self.now, server).status == 0)
    // No pull between: Xandikos leaves out of its sync-collection report a resource made and
    // deleted after the token the push took; pull's listing still finds it gone.
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    for object in try session.calendarObjects(in: server.collectionURL)
    where object.data?.contains("UID:2025-03-14 07:02:11") == true {
      let outcome = try session.delete(object.url, etag: object.etag)
      guard case .done = outcome else {
        Issue.record("the other client's DELETE: \(outcome)")
        return
      }
    }
    let pull = try Self.run(["pull", "--url", url, "-o", list], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    let text = try String(contentsOfFile: list, encoding: .utf8)
    #expect(!text.contains("Wake up"), "\(pull.stdout)")
    #expect(text.hasPrefix("[\n  {\"alarmTime\": \"9:05\""))
    #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [Any])
  }

  @Test(
    "pull into a .json file with no list there writes a JSON list, never iCalendar",
    arguments: CalDAVTestServer.Kind.allCases)
  func freshList(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let list = try Self.appList()
    #expect(try Self.run(["push", list, "--url", url] + Self.now, server).status == 0)
    try Self.addForeignEvent(server)
    let fresh = URL(fileURLWithPath: list).deletingLastPathComponent()
      .appendingPathComponent("fresh.json").path
    let pull = try Self.run(["pull", "--url", url, "-o", fresh], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    #expect(pull.stdout.hasSuffix("\n1 item in the calendar is not in this list\n"))
    let text = try String(contentsOfFile: fresh, encoding: .utf8)
    #expect(text.hasPrefix("{\n  \"alarms\": ["))
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let alarms = try #require(root["alarms"] as? [[String: Any]])
    #expect(
      alarms.compactMap { $0["label"] as? String }.sorted() == ["Pills", "Wake up", "Weekend"])
    // The new list is this collection's: pulling again changes nothing.
    let again = try Self.run(["pull", "--url", url, "-o", fresh], server)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try String(contentsOfFile: fresh, encoding: .utf8) == text)
  }

  @Test(
    "a dated copy pushed with the same --list updates the same resources: one PUT for one change",
    arguments: CalDAVTestServer.Kind.allCases)
  func datedCopySameList(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let folder = try temporaryFolder()
    let monday = folder.appendingPathComponent("alarms-2026-12-07.json").path
    let tuesday = folder.appendingPathComponent("alarms-2026-12-08.json").path
    try FileManager.default.copyItem(
      atPath: samplesFolder.appendingPathComponent("ios-alarms.json").path, toPath: monday)
    let first = try Self.run(
      ["push", monday, "--url", url, "--list", "alarms"] + Self.now, server)
    #expect(
      first.stdout == "pushed: 4 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts, 0 refused\n",
      "\(first.stderr)")
    try FileManager.default.copyItem(atPath: monday, toPath: tuesday)
    try Self.edit(tuesday, #""alarmTime": "07:30""#, #""alarmTime": "07:45""#)
    let second = try Self.run(
      ["push", tuesday, "--url", url, "--list", "alarms"] + Self.now, server)
    #expect(
      second.stdout
        == "pushed: 0 new, 1 changed, 3 unchanged, 0 deleted, 0 conflicts, 0 refused\n",
      "\(second.stderr)")
    #expect(
      FileManager.default.fileExists(
        atPath: folder.appendingPathComponent(".alarms.list.caldav.json").path))
    // Pull into the dated copy under the list's name: nothing changed on the server.
    let pull = try Self.run(["pull", "--url", url, "-o", tuesday, "--list", "alarms"], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    #expect(pull.stdout == "pulled: 0 changed, 0 removed (sync-collection)\n")
  }

  @Test(
    "an alarm changed in the list is kept while the server's change to another comes in",
    arguments: CalDAVTestServer.Kind.allCases)
  func localChangeKept(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let list = try Self.appList()
    #expect(try Self.run(["push", list, "--url", url] + Self.now, server).status == 0)
    try Self.edit(list, #""alarmTime": "22:10""#, #""alarmTime": "22:20""#)
    try Self.editOnServer(server, uid: "2025-03-14 07:02:11", "T073000", "T081500")
    let pull = try Self.run(["pull", "--url", url, "-o", list], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    let text = try String(contentsOfFile: list, encoding: .utf8)
    #expect(text.contains(#""alarmTime": "22:20""#))
    #expect(text.contains(#""alarmTime": "08:15""#))
    let push = try Self.run(["push", list, "--url", url] + Self.now, server)
    #expect(
      push.stdout == "pushed: 0 new, 1 changed, 2 unchanged, 0 deleted, 0 conflicts, 0 refused\n",
      "\(push.stderr)")
  }

  @Test(
    "a calendar file's conflict, named by one pull, is settled by the next with --keep server",
    arguments: CalDAVTestServer.Kind.allCases)
  func calendarConflictSettled(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let (pulled, uid) = try PullMergeTests.pulledAndSnoozed(server)
    try Joints.editOnServer(server, uid: uid, prefix: "Theirs")
    #expect(try Self.run(["pull", "--url", url, "-o", pulled], server).status == 1)
    let keep = try Self.run(["pull", "--url", url, "-o", pulled, "--keep", "server"], server)
    #expect(keep.status == 0, "\(keep.stderr)")
    #expect(keep.stderr.hasPrefix("alarmcal pull: note: settled: \(uid) ("), "\(keep.stderr)")
    let text = try String(contentsOfFile: pulled, encoding: .utf8)
    #expect(text.contains("SUMMARY:Theirs "))
    #expect(!text.contains("RELTYPE=SNOOZE"))
    let push = try Self.run(["push", pulled, "--url", url], server)
    #expect(push.stdout.hasPrefix("pushed: 0 new, 0 changed, "), "\(push.stderr)")
  }

  @Test("a list that does not read is not overwritten: one line per problem, exit 65")
  func brokenListKept() throws {
    let folder = try temporaryFolder()
    let list = folder.appendingPathComponent("my.json").path
    let calendar = "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"
    try calendar.write(toFile: list, atomically: true, encoding: .utf8)
    let result = try runBinary(["pull", "--url", "http://127.0.0.1:1/c/", "-o", list])
    #expect(result.status == 65)
    #expect(
      result.stderr.hasPrefix("alarmcal pull: error: \(list): not valid JSON"), "\(result.stderr)")
    #expect(result.stderr.hasSuffix("; not overwritten\n"))
    #expect(try String(contentsOfFile: list, encoding: .utf8) == calendar)
  }

  @Test("a list named for the first time reads the state its file had")
  func listStateFallsBack() throws {
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent("a.json").path
    let old = CalDAVStatePath.of(file)
    try Data("{}".utf8).write(to: URL(fileURLWithPath: old))
    #expect(CalDAVState.readPath(for: file, list: "a") == old)
    #expect(CalDAVState.readPath(for: file, list: nil) == old)
    let own = folder.appendingPathComponent(".a.list.caldav.json").path
    #expect(CalDAVState.path(for: file, list: "a") == own)
    try Data("{}".utf8).write(to: URL(fileURLWithPath: own))
    #expect(CalDAVState.readPath(for: file, list: "a") == own)
    #expect(
      CalDAVState.path(for: file, list: "../x/y\n")
        == folder.appendingPathComponent("..._x_y_.list.caldav.json").path)
  }

  @Test("pull --keep takes 'local' or 'server' only")
  func keepValues() throws {
    let result = try runBinary([
      "pull", "--url", "http://127.0.0.1:1/c/", "-o", "x.json", "--keep", "mine",
    ])
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix(
        "alarmcal pull: error: --keep must be local or server, not 'mine'\n"))
  }
}

/// Editing a list's records in place, without a server.
@Suite struct AlarmListFileTests {
  @Test(
    "a record replaced keeps its members' order and unknown members; the rest stays byte for byte")
  func replaceKeepsShape() throws {
    let text = """
      {
        "alarms": [
          {
            "id": "a",
            "time": "07:00",
            "repeat": [],
            "label": "A",
            "vibrate": true,
            "enabled": true,
            "timeZone": "UTC"
          },
          {"id": "b", "time": "08:00", "label": "B", "timeZone": "UTC"}
        ]
      }

      """
    let file = try #require(
      try? AlarmListFile.read(Array(text.utf8), file: "l.json", zone: "UTC").get())
    var alarm = file.alarms[0]
    alarm.label = "A2"
    alarm.enabled = false
    let edited = String(decoding: try file.edited([0: .replace(alarm)]), as: UTF8.self)
    let expected = """
      {
        "alarms": [
          {
            "id": "a",
            "time": "07:00",
            "repeat": [],
            "label": "A2",
            "vibrate": true,
            "enabled": false,
            "timeZone": "UTC",
            "snooze": true,
            "snoozeMinutes": 9
          },
          {"id": "b", "time": "08:00", "label": "B", "timeZone": "UTC"}
        ]
      }

      """
    #expect(edited == expected)
    let removed = String(decoding: try file.edited([0: .remove]), as: UTF8.self)
    #expect(
      removed == """
        {
          "alarms": [
            {"id": "b", "time": "08:00", "label": "B", "timeZone": "UTC"}
          ]
        }

        """)
    let none = String(decoding: try file.edited([0: .remove, 1: .remove]), as: UTF8.self)
    #expect(none == "{\n  \"alarms\": [\n  ]\n}\n")
  }

  @Test("a bare array with a task among the alarms: the alarm's record is the one edited")
  func bareArrayWithTask() throws {
    let text = """
      [{"title": "Taxes", "deadline": "2027-01-10"}, {"alarmTime": "07:30", "name": "W", "creatTime": "x y", "vibrate": 1}]

      """
    let file = try #require(
      try? AlarmListFile.read(Array(text.utf8), file: "l.json", zone: "UTC").get())
    #expect(file.alarms.count == 1)
    var alarm = file.alarms[0]
    alarm.label = "V"
    let edited = String(decoding: try file.edited([0: .replace(alarm)]), as: UTF8.self)
    #expect(
      edited == """
        [{"title": "Taxes", "deadline": "2027-01-10"}, {"alarmTime": "07:30", "name": "V", "creatTime": "x y", "vibrate": 1, "repeatDays": [false,false,false,false,false,false,false], "sound": "", "snoozeEnabled": true, "isEnabled": true}]

        """)
  }
}

/// A to-do app's task list and a calendar server: the server's edits to the list's tasks come
/// back into the app's dictionary, a task deleted there leaves it, every other byte stays.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct PullTaskListTests {
  @Test(
    "a task changed and one deleted on the server: the dictionary follows, nothing else moves",
    arguments: CalDAVTestServer.Kind.allCases)
  func tasksFollowTheServer(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let folder = try temporaryFolder()
    let list = folder.appendingPathComponent("tasks.json").path
    try FileManager.default.copyItem(
      atPath: samplesFolder.appendingPathComponent("tasks.json").path, toPath: list)
    let before = try String(contentsOfFile: list, encoding: .utf8)
    let pushed = try PullListTests.run(["push", list, "--url", url] + PullListTests.now, server)
    #expect(pushed.status == 0, "\(pushed.stderr)")
    try PullListTests.editOnServer(
      server, uid: "6F1C2B7A-3D4E-4F50-9A1B-2C3D4E5F6A70", "SUMMARY:File the tax return",
      "SUMMARY:File the tax return today")
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    for object in try session.calendarObjects(in: server.collectionURL)
    where object.data?.contains("UID:0B8E5D21-7C3A-4E9F-8D6B-1A2F3E4D5C6B") == true {
      guard case .done = try session.delete(object.url, etag: object.etag) else {
        Issue.record("the other client's DELETE failed")
        return
      }
    }
    let pull = try PullListTests.run(["pull", "--url", url, "-o", list], server)
    #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
    // The expected file: the title's value changed, the deleted task's entry gone.
    var lines = before.components(separatedBy: "\n")
    let first = try #require(
      lines.firstIndex { $0.contains("\"0B8E5D21-7C3A-4E9F-8D6B-1A2F3E4D5C6B\": {") })
    let last = try #require(lines[first...].firstIndex { $0 == "  }," })
    lines.removeSubrange(first...last)
    let expected = lines.joined(separator: "\n").replacingOccurrences(
      of: "\"title\": \"File the tax return\"", with: "\"title\": \"File the tax return today\"")
    let after = try String(contentsOfFile: list, encoding: .utf8)
    #expect(after == expected, "\(after)")
    let again = try PullListTests.run(["push", list, "--url", url] + PullListTests.now, server)
    #expect(again.stdout.hasPrefix("pushed: 0 new, 0 changed,"), "\(again.stdout)\(again.stderr)")
  }
}

extension PullTaskListTests {
  @Test(
    "an app record that cannot hold the server's change says so",
    arguments: [CalDAVTestServer.Kind.radicale])
  func shapeLossSaid(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let list = try PullListTests.appList()
    #expect(
      try PullListTests.run(["push", list, "--url", url] + PullListTests.now, server).status == 0)
    // Another client makes the weekday alarm a one-off on its first day.
    try PullListTests.editOnServer(
      server, uid: "2025-03-14 07:02:11", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
      "X-OTHER-CLIENT:one-off")
    try PullListTests.editOnServer(
      server, uid: "2025-03-14 07:02:11", "DTSTART;TZID=Europe/Berlin:20260101T073000",
      "DTSTART;TZID=Europe/Berlin:20270104T073000")
    let pull = try PullListTests.run(["pull", "--url", url, "-o", list], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    #expect(
      pull.stderr.contains(
        "warning: 2025-03-14 07:02:11: the server's version (\"Wake up\"): the ios shape has no place for its date"
      ),
      "\(pull.stderr)")
  }

  @Test(
    "a list never pulled here whose item the server holds otherwise: a conflict, the list's kept",
    arguments: CalDAVTestServer.Kind.allCases)
  func neverPulledCopyKept(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let list = try PullListTests.appList()
    #expect(
      try PullListTests.run(["push", list, "--url", url] + PullListTests.now, server).status == 0)
    // A copy in another folder has no record of this collection: its items were added there.
    // Where the server's versions say what the records say, that is no conflict.
    let same = try temporaryFolder().appendingPathComponent("list.json").path
    try FileManager.default.copyItem(atPath: list, toPath: same)
    let quiet = try PullListTests.run(["pull", "--url", url, "-o", same], server)
    #expect(quiet.status == 0, "\(quiet.stderr)")
    #expect(!quiet.stderr.contains("conflict:"), "\(quiet.stderr)")
    #expect(
      try String(contentsOfFile: same, encoding: .utf8)
        == String(contentsOfFile: list, encoding: .utf8))
    // Where one differs, that item is a conflict and the list's version is kept.
    let copy = try temporaryFolder().appendingPathComponent("list.json").path
    try FileManager.default.copyItem(atPath: list, toPath: copy)
    try PullListTests.edit(copy, "\"name\": \"Wake up\"", "\"name\": \"Wake up early\"")
    let before = try String(contentsOfFile: copy, encoding: .utf8)
    let pull = try PullListTests.run(["pull", "--url", url, "-o", copy], server)
    #expect(pull.status == 1, "\(pull.stderr)")
    let conflicts = pull.stderr.split(separator: "\n").filter { $0.contains("conflict:") }
    #expect(conflicts.count == 1, "\(pull.stderr)")
    #expect(
      conflicts.first?.wholeMatch(
        of: try Regex(
          #"alarmcal pull: error: conflict: 2025-03-14 07:02:11 \(http://127\.0\.0\.1:\d+/\S+\): exists on the server with other content but was not pulled here; this list's version is kept \(push --overwrite replaces the server's copy\)"#
        )) != nil, "\(pull.stderr)")
    // The list's version is kept; the other items, the same on both sides, are unchanged.
    #expect(try String(contentsOfFile: copy, encoding: .utf8) == before)
  }
}
