import CalDAV
import CalDAVTestServers
import Foundation
import Testing

/// The real `alarmcal` binary against real Radicale and Xandikos servers on loopback.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct CalDAVEndToEndTests {
  static let sampleFiles = [
    "apple-calendar.ics", "google-calendar.ics", "nextcloud.ics", "outlook.ics",
    "thunderbird.ics",
  ]

  /// The samples copied into a fresh folder (push keeps its state next to the first file).
  static func copiedSamples() throws -> (folder: URL, files: [String]) {
    let folder = try temporaryFolder()
    var files: [String] = []
    for name in sampleFiles {
      let target = folder.appendingPathComponent(name)
      try FileManager.default.copyItem(at: samplesFolder.appendingPathComponent(name), to: target)
      files.append(target.path)
    }
    return (folder, files)
  }

  static func run(_ arguments: [String], _ server: CalDAVTestServer, password: String? = nil)
    throws -> RunResult
  {
    try runBinary(
      arguments + ["--user", server.user],
      environment: ["ALARMCAL_PASSWORD": password ?? server.password, "HOME": "/nonexistent"])
  }

  /// `upcoming`'s window and format for comparing firings: 2026–2027, UTC, NDJSON.
  static let window = [
    "--from", "2026-01-01T00:00:00Z", "--to", "2028-01-01T00:00:00Z", "--tz", "UTC", "--now",
    "2026-01-01T00:00:00Z", "--format", "ndjson",
  ]

  /// Every firing of `files` in 2026–2027 as (trigger, id, uid), sorted.
  static func firings(_ files: [String]) throws -> [String] {
    let result = try runBinary(["upcoming"] + files + window)
    #expect(result.status == 0, "\(result.stderr)")
    return fields(["trigger", "id", "uid"], of: result.stdout)
  }

  /// The named fields of each NDJSON firing, one line of text per firing, sorted.
  static func fields(_ names: [String], of ndjson: String) -> [String] {
    ndjson.split(separator: "\n").map { line in
      let object =
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
      return names.map { "\(object[$0] ?? "-")" }.joined(separator: " ")
    }.sorted()
  }

  @Test(
    "calendars lists the alarms calendar with its name and components",
    arguments: CalDAVTestServer.Kind.allCases)
  func calendars(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let result = try Self.run(["calendars", "--url", server.baseURL.absoluteString], server)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains("\(server.collectionURL.absoluteString)\tAlarms\tVEVENT,VTODO\n"))
  }

  @Test(
    "push, push again (nothing sent), pull, upcoming: the same firings and ids",
    arguments: CalDAVTestServer.Kind.allCases)
  func roundTrip(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let (folder, files) = try Self.copiedSamples()
    let url = server.collectionURL.absoluteString
    let first = try Self.run(["push"] + files + ["--url", url], server)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(
      first.stdout == "pushed: 19 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    let second = try Self.run(["push"] + files + ["--url", url], server)
    #expect(
      second.stdout == "pushed: 0 new, 0 changed, 19 unchanged, 0 deleted, 0 conflicts, 0 refused\n"
    )
    let pulled = folder.appendingPathComponent("pulled.ics").path
    let pull = try Self.run(["pull", "--url", url, "-o", pulled], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    #expect(pull.stdout == "pulled: 19 resources (full read)\n")
    let original = try Self.firings(files)
    #expect(original.count == 1941)
    #expect(try Self.firings([pulled]) == original)
    // validate and convert take the pulled file as they take the originals.
    #expect(try runBinary(["validate", pulled]).status == 0)
    let alarms = { (file: String) throws -> [String] in
      let json = folder.appendingPathComponent(UUID().uuidString + ".json").path
      let result = try runBinary(["convert", file, "-o", json, "--now", "2026-12-04T12:00:00Z"])
      #expect(result.status == 0, "\(result.stderr)")
      let list = try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: json)))
      return ((list as? [String: Any])?["alarms"] as? [[String: Any]] ?? []).map {
        "\($0["id"] ?? "-") \($0["time"] ?? $0["date"] ?? "-") \($0["label"] ?? "-")"
      }
    }
    let converted = try files.flatMap(alarms).sorted()
    #expect(converted.count > 10)
    #expect(try alarms(pulled).sorted() == converted)
    // The pulled file pushed back unchanged sends nothing either.
    let back = try Self.run(["push", pulled, "--url", url], server)
    #expect(
      back.stdout == "pushed: 0 new, 0 changed, 19 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    // upcoming reads the calendar straight from the server: the pulled file's firings, with
    // the collection's URL as their file.
    let direct = try Self.run(["upcoming", "--url", url] + Self.window, server)
    #expect(direct.status == 0, "\(direct.stderr)")
    let fromFile = try runBinary(["upcoming", pulled] + Self.window)
    #expect(direct.stdout.split(separator: "\n").count == 1941)
    #expect(
      direct.stdout
        == fromFile.stdout.replacingOccurrences(
          of: "\"file\":\"\(pulled)\"", with: "\"file\":\"\(url)\""))
  }

  @Test(
    "alarm and task lists (JSON) are pushed as convert exports them at --now",
    arguments: CalDAVTestServer.Kind.allCases)
  func lists(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let folder = try temporaryFolder()
    var files: [String] = []
    for name in ["alarms.json", "tasks.json"] {
      let target = folder.appendingPathComponent(name)
      try FileManager.default.copyItem(at: samplesFolder.appendingPathComponent(name), to: target)
      files.append(target.path)
    }
    let url = server.collectionURL.absoluteString
    let now = ["--now", "2026-12-04T12:00:00Z", "--tz", "Europe/Berlin"]
    let first = try Self.run(["push"] + files + ["--url", url] + now, server)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(
      first.stdout == "pushed: 15 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    let again = try Self.run(["push"] + files + ["--url", url] + now, server)
    #expect(
      again.stdout == "pushed: 0 new, 0 changed, 15 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    let pulled = folder.appendingPathComponent("pulled.ics").path
    #expect(try Self.run(["pull", "--url", url, "-o", pulled], server).status == 0)
    let window = [
      "--from", "2026-12-04T12:00:00Z", "--to", "2027-12-04T00:00:00Z", "--include-due",
      "--format", "ndjson",
    ]
    let fromLists = try runBinary(["upcoming"] + files + window + now)
    let fromServer = try runBinary(["upcoming", pulled] + window + now)
    #expect(fromLists.status == 0, "\(fromLists.stderr)")
    let firings = { Self.fields(["trigger", "uid", "action", "summary"], of: $0) }
    #expect(firings(fromLists.stdout).count > 100)
    #expect(firings(fromServer.stdout) == firings(fromLists.stdout))
  }

  @Test(
    "a change on the server between pull and push is a reported conflict, not overwritten",
    arguments: CalDAVTestServer.Kind.allCases)
  func conflict(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let (folder, files) = try Self.copiedSamples()
    let url = server.collectionURL.absoluteString
    #expect(try Self.run(["push", files[2], "--url", url], server).status == 0)
    let pulled = folder.appendingPathComponent("pulled.ics").path
    #expect(try Self.run(["pull", "--url", url, "-o", pulled], server).status == 0)
    // Another client renames one event on the server...
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    let uid = "1c8f4e2a-7b3d-4a90-b6e5-0d2f9a8c3e71"
    let object = try #require(
      try session.calendarObjects(in: server.collectionURL).first {
        $0.data?.contains("UID:\(uid)") == true
      })
    let theirs = try #require(object.data).replacingOccurrences(
      of: "SUMMARY:", with: "SUMMARY:Theirs ")
    _ = try session.put(Array(theirs.utf8), at: object.url, replacing: object.etag)
    // ...while this file changes the same event.
    let text = try String(contentsOfFile: pulled, encoding: .utf8)
    try text.replacingOccurrences(of: "SUMMARY:L-Thyroxin", with: "SUMMARY:Mine L-Thyroxin")
      .write(toFile: pulled, atomically: true, encoding: .utf8)
    let push = try Self.run(["push", pulled, "--url", url], server)
    #expect(push.status == 1)
    #expect(
      push.stdout == "pushed: 0 new, 0 changed, 2 unchanged, 0 deleted, 1 conflicts, 0 refused\n")
    #expect(push.stderr.hasPrefix("alarmcal push: error: conflict: \(uid) ("))
    #expect(push.stderr.contains("not overwritten"))
    let now = try session.calendarObjects(at: [object.url], in: server.collectionURL)
    #expect(now.first?.data?.contains("Theirs") == true)
    #expect(now.first?.data?.contains("Mine") == false)
  }

  @Test(
    "--delete-missing removes only this list's marked resources",
    arguments: CalDAVTestServer.Kind.allCases)
  func deleteMissing(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let (folder, files) = try Self.copiedSamples()
    let url = server.collectionURL.absoluteString
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    // Someone else's event, and another list of alarmcal's.
    let foreign =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//other//EN\r\nBEGIN:VEVENT\r\nUID:foreign@t\r\nDTSTAMP:20270101T000000Z\r\nDTSTART:20270101T070000Z\r\nSUMMARY:Not alarmcal's\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    _ = try session.put(
      Array(foreign.utf8), at: server.collectionURL.appendingPathComponent("foreign.ics"),
      replacing: nil)
    // List "apple-calendar" (5 events).
    #expect(try Self.run(["push", files[0], "--url", url], server).status == 0)
    let list = folder.appendingPathComponent("mine.ics").path
    try FileManager.default.copyItem(atPath: files[2], toPath: list)  // 3 events, list "mine"
    #expect(try Self.run(["push", list, "--url", url], server).status == 0)
    let before = try session.members(of: server.collectionURL).count
    // One event leaves the list.
    let text = try String(contentsOfFile: list, encoding: .utf8)
    let uid = try #require(text.range(of: "UID:8a5d0f3c"))
    let start = try #require(
      text.range(of: "BEGIN:VEVENT", options: .backwards, range: text.startIndex..<uid.lowerBound))
    let end = try #require(text.range(of: "END:VEVENT\r\n", range: uid.upperBound..<text.endIndex))
    try text.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "")
      .write(toFile: list, atomically: true, encoding: .utf8)
    let push = try Self.run(["push", list, "--url", url, "--delete-missing"], server)
    #expect(push.status == 0, "\(push.stderr)")
    #expect(
      push.stdout == "pushed: 0 new, 0 changed, 2 unchanged, 1 deleted, 0 conflicts, 0 refused\n")
    let after = try session.members(of: server.collectionURL)
    #expect(after.count == before - 1)
    #expect(after.contains { $0.url.lastPathComponent == "foreign.ics" })
    #expect(!after.contains { $0.url.lastPathComponent.hasPrefix("8a5d0f3c") })
    let data = try session.calendarObjects(in: server.collectionURL).compactMap(\.data)
    #expect(data.filter { $0.contains("X-ALARMCAL-LIST:apple-calendar") }.count == 5)
  }

  @Test("a wrong password: exit 77, one line, the password never shown")
  func wrongPassword() throws {
    let server = try CalDAVTestServer(.radicale)
    defer { server.stopAndRemove() }
    let (_, files) = try Self.copiedSamples()
    let result = try Self.run(
      ["push", files[0], "--url", server.collectionURL.absoluteString], server,
      password: "hunter2-wrong")
    #expect(result.status == 77)
    #expect(
      result.stderr
        == "alarmcal push: error: \(server.collectionURL.absoluteString): 401 Unauthorized: the server refused the user name or password\n"
        + "alarmcal push: note: push stopped; what is counted above was done\n"
    )
    #expect(!(result.stdout + result.stderr).contains("hunter2"))
    let calendars = try Self.run(
      ["calendars", "--url", server.baseURL.absoluteString], server, password: "nope")
    #expect(calendars.status == 77)
  }

  @Test("a password file others can read is refused before any request")
  func passwordFile() throws {
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent("pw").path
    try "secret\n".write(toFile: file, atomically: true, encoding: .utf8)
    chmod(file, 0o644)
    let result = try runBinary([
      "calendars", "--url", "http://127.0.0.1:9/", "--user", "alice", "--password-file", file,
    ])
    #expect(result.status == 64)
    #expect(result.stderr.contains("others can read this password file"))
  }

  @Test("an unreachable server: exit 69 with one line")
  func unreachable() throws {
    let result = try runBinary(["calendars", "--url", "http://127.0.0.1:9/"])
    #expect(result.status == 69)
    #expect(
      result.stderr
        == "alarmcal calendars: error: http://127.0.0.1:9/.well-known/caldav: cannot reach the server: connection refused\n"
    )
  }
}

/// Incremental pull, a server that dies mid-push, and a snooze seen by another client.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct CalDAVEndToEndMoreTests {
  @Test(
    "after a change on the server, pull brings only the change (sync-collection)",
    arguments: CalDAVTestServer.Kind.allCases)
  func incrementalPull(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let (folder, files) = try CalDAVEndToEndTests.copiedSamples()
    let url = server.collectionURL.absoluteString
    #expect(try CalDAVEndToEndTests.run(["push"] + files + ["--url", url], server).status == 0)
    let pulled = folder.appendingPathComponent("pulled.ics").path
    #expect(
      try CalDAVEndToEndTests.run(["pull", "--url", url, "-o", pulled], server).stdout
        == "pulled: 19 resources (full read)\n")
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    let objects = try session.calendarObjects(in: server.collectionURL)
    let changed = try #require(objects.first { $0.data?.contains("L-Thyroxin") == true })
    let removed = try #require(objects.first { $0.url != changed.url })
    let text = try #require(changed.data).replacingOccurrences(
      of: "L-Thyroxin", with: "Levothyroxin")
    _ = try session.put(Array(text.utf8), at: changed.url, replacing: changed.etag)
    _ = try session.delete(removed.url, etag: removed.etag)
    let again = try CalDAVEndToEndTests.run(["pull", "--url", url, "-o", pulled], server)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout == "pulled: 1 changed, 1 removed (sync-collection)\n")
    let written = try String(contentsOfFile: pulled, encoding: .utf8)
    #expect(written.contains("Levothyroxin"))
    #expect(!written.contains("L-Thyroxin"))
    #expect(
      written.components(separatedBy: "BEGIN:VEVENT").count - 1
        + written.components(separatedBy: "BEGIN:VTODO").count - 1 < 19 + 10)
    // The same as a full pull into a fresh file.
    let fresh = folder.appendingPathComponent("fresh.ics").path
    _ = try CalDAVEndToEndTests.run(["pull", "--url", url, "-o", fresh], server)
    #expect(try CalDAVEndToEndTests.firings([pulled]) == CalDAVEndToEndTests.firings([fresh]))
  }

  @Test("a server stopped mid-push: exit 69, and what is reported and remembered was stored")
  func serverStoppedMidPush() throws {
    let server = try CalDAVTestServer(.radicale)
    defer { server.stopAndRemove() }
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent("many.ics").path
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
    for index in 0..<3000 {
      text +=
        "BEGIN:VEVENT\r\nUID:e\(index)@t\r\nDTSTAMP:20270101T000000Z\r\nDTSTART:20270101T070000Z\r\nRRULE:FREQ=DAILY\r\nSUMMARY:Alarm \(index)\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Wake\r\nTRIGGER:PT0S\r\nEND:VALARM\r\nEND:VEVENT\r\n"
    }
    try (text + "END:VCALENDAR\r\n").write(toFile: file, atomically: true, encoding: .utf8)
    // The password from the environment, and no ~/.netrc.
    let push = try RunningBinary(
      ["push", file, "--url", server.collectionURL.absoluteString, "--user", server.user],
      environment: ["ALARMCAL_PASSWORD": server.password, "HOME": "/nonexistent"])
    let stored = server.folder.appendingPathComponent("data/collection-root/alice/alarms")
    let count = {
      ((try? FileManager.default.contentsOfDirectory(atPath: stored.path)) ?? []).filter {
        $0.hasSuffix(".ics")
      }.count
    }
    let deadline = Date().addingTimeInterval(60)
    while count() < 50 && Date() < deadline && push.process.isRunning { usleep(20_000) }
    server.stop()
    let result = push.finish()
    let (output, errors) = (result.stdout, result.stderr)
    #expect(result.status == 69)
    #expect(errors.contains("cannot reach the server"))
    let reported = try #require(
      output.split(separator: " ").dropFirst().first.flatMap { Int($0) }, "\(output)")
    #expect(reported >= 40 && reported < 3000, "\(output) \(errors)")
    let onDisk = count()
    #expect(onDisk >= reported && onDisk <= reported + 1)
    let state = try #require(
      FileManager.default.contents(
        atPath: folder.appendingPathComponent(".many.ics.caldav.json").path))
    let json = try #require(try JSONSerialization.jsonObject(with: state) as? [String: Any])
    let collections = try #require(json["collections"] as? [String: [String: Any]])
    let resources = try #require(collections.values.first?["resources"] as? [String: Any])
    #expect(resources.count == reported)
  }

  @Test(
    "a snooze written on a pulled file and pushed back is RFC 9074 to python's caldav",
    arguments: CalDAVTestServer.Kind.allCases)
  func snoozeSeenByPythonCaldav(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let (folder, files) = try CalDAVEndToEndTests.copiedSamples()
    let url = server.collectionURL.absoluteString
    #expect(try CalDAVEndToEndTests.run(["push", files[2], "--url", url], server).status == 0)
    let pulled = folder.appendingPathComponent("pulled.ics").path
    #expect(try CalDAVEndToEndTests.run(["pull", "--url", url, "-o", pulled], server).status == 0)
    let uid = "1c8f4e2a-7b3d-4a90-b6e5-0d2f9a8c3e71"
    let listed = try runBinary([
      "upcoming", pulled, "--from", "2026-09-15T00:00:00Z", "--limit", "1", "--tz", "UTC",
      "--format", "ndjson", "--now", "2026-09-15T00:00:00Z",
    ])
    let firing = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
    #expect(firing["uid"] as? String == uid)
    let id = try #require(firing["id"] as? String)
    let snooze = try runBinary([
      "snooze", pulled, "--id", id, "--minutes", "10", "--now", "2026-09-15T04:31:00Z", "--tz",
      "UTC",
    ])
    #expect(snooze.status == 0, "\(snooze.stderr)")
    let push = try CalDAVEndToEndTests.run(["push", pulled, "--url", url], server)
    #expect(
      push.stdout == "pushed: 0 new, 1 changed, 2 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    let check = Process()
    check.executableURL = URL(fileURLWithPath: CalDAVTestServer.python)
    let script = samplesFolder.deletingLastPathComponent().appendingPathComponent(
      "scripts/caldav-client.py")
    check.arguments = [script.path, url, server.user, "alarms", uid]
    check.environment = ["ALARMCAL_PASSWORD": server.password]
    let pipe = Pipe()
    check.standardOutput = pipe
    try check.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    check.waitUntilExit()
    #expect(check.terminationStatus == 0)
    let alarms = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    let original = try #require(alarms.first { $0["reltype"] as? String == nil })
    #expect(original["acknowledged"] as? String == "20260915T043100Z")
    let originalUID = try #require(original["uid"] as? String)
    let snoozeAlarm = try #require(alarms.first { $0["reltype"] as? String == "SNOOZE" })
    #expect(snoozeAlarm["relatedTo"] as? String == originalUID)
    #expect(snoozeAlarm["trigger"] as? String == "20260915T044100Z")
  }
}

/// The binary against a server whose answers are errors or break the HTTP stack: one line
/// each, its exit status, and no file written.
@Suite(.enabled(if: CalDAVTestServer.shouldRun))
struct CalDAVFailureTests {
  @Test("an answer cut off inside its header lines: exit 69, one line, no file written")
  func cutHeaders() throws {
    let folder = try temporaryFolder()
    let target = folder.appendingPathComponent("pulled.ics").path
    try HostileServer.withServer { base in
      let url = base.appendingPathComponent("cut-headers/").absoluteString
      let pull = try runBinary(
        ["pull", "--url", url, "-o", target], environment: ["HOME": "/nonexistent"])
      #expect(pull.status == 69)
      #expect(
        pull.stderr == "alarmcal pull: error: \(url): cannot reach the server: connection lost\n")
      #expect(!FileManager.default.fileExists(atPath: target))
      let calendars = try runBinary(
        ["calendars", "--url", url], environment: ["HOME": "/nonexistent"])
      #expect(calendars.status == 69, "\(calendars.stderr)")
    }
  }

  @Test(
    "403, 404 and 507: their own line and exit status",
    arguments: [
      (403, 77, "403 Forbidden: this user may not do that here"),
      (404, 69, "404 Not Found"),
      (507, 73, "507 Insufficient Storage: the server has no room for this"),
    ])
  func statuses(status: Int, exit: Int32, message: String) throws {
    let folder = try temporaryFolder()
    let target = folder.appendingPathComponent("pulled.ics").path
    let file = folder.appendingPathComponent("alarms.ics").path
    try FileManager.default.copyItem(
      atPath: samplesFolder.appendingPathComponent("nextcloud.ics").path, toPath: file)
    try HostileServer.withServer { base in
      let url = base.appendingPathComponent("status/\(status)/").absoluteString
      for arguments in [["pull", "--url", url, "-o", target], ["push", file, "--url", url]] {
        let result = try runBinary(arguments, environment: ["HOME": "/nonexistent"])
        #expect(result.status == exit, "\(arguments[0]): \(result.stderr)")
        #expect(
          result.stderr.contains("alarmcal \(arguments[0]): error: \(url): \(message)\n"),
          "\(arguments[0]): \(result.stderr)")
      }
      #expect(!FileManager.default.fileExists(atPath: target))
    }
  }

  /// The `openssl` that makes the test's certificate (.ci/run installs it).
  static let hasOpenSSL = FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")

  @Test(
    "a certificate the system does not trust: a TLS failure, exit 69, nothing sent",
    .enabled(if: hasOpenSSL || CalDAVTestServer.required))
  func untrustedCertificate() throws {
    let folder = try temporaryFolder()
    let certificate = folder.appendingPathComponent("cert.pem").path
    let key = folder.appendingPathComponent("key.pem").path
    let openssl = Process()
    openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    openssl.arguments = [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-days", "1",
      "-keyout", key, "-out", certificate,
    ]
    openssl.standardError = FileHandle.nullDevice
    try openssl.run()
    openssl.waitUntilExit()
    try #require(openssl.terminationStatus == 0)
    let target = folder.appendingPathComponent("pulled.ics").path
    try HostileServer.withServer(tls: (certificate, key)) { base in
      let url = base.appendingPathComponent("status/200/").absoluteString
      let pull = try runBinary(
        ["pull", "--url", url, "-o", target, "--user", "alice"],
        environment: ["HOME": "/nonexistent", "ALARMCAL_PASSWORD": "secret"])
      #expect(pull.status == 69)
      #expect(
        pull.stderr.hasPrefix("alarmcal pull: error: \(url): TLS failure: "), "\(pull.stderr)")
      #expect(pull.stderr.split(separator: "\n").count == 1)
      #expect(!FileManager.default.fileExists(atPath: target))
    }
  }
}
