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

  /// Every firing of `files` in 2026–2027 as (trigger, id, uid), sorted.
  static func firings(_ files: [String]) throws -> [String] {
    let result = try runBinary(
      ["upcoming"] + files + [
        "--from", "2026-01-01T00:00:00Z", "--to", "2028-01-01T00:00:00Z", "--tz", "UTC",
        "--now", "2026-01-01T00:00:00Z", "--format", "ndjson",
      ])
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout.split(separator: "\n").map { line in
      let object =
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
      return ["trigger", "id", "uid"].map { "\(object[$0] ?? "-")" }.joined(separator: " ")
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
    #expect(first.stdout == "pushed: 19 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts\n")
    let second = try Self.run(["push"] + files + ["--url", url], server)
    #expect(second.stdout == "pushed: 0 new, 0 changed, 19 unchanged, 0 deleted, 0 conflicts\n")
    let pulled = folder.appendingPathComponent("pulled.ics").path
    let pull = try Self.run(["pull", "--url", url, "-o", pulled], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    #expect(pull.stdout == "pulled: 19 resources (full read)\n")
    let original = try Self.firings(files)
    #expect(original.count == 1941)
    #expect(try Self.firings([pulled]) == original)
    // The pulled file pushed back unchanged sends nothing either.
    let back = try Self.run(["push", pulled, "--url", url], server)
    #expect(back.stdout == "pushed: 0 new, 0 changed, 19 unchanged, 0 deleted, 0 conflicts\n")
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
    #expect(push.stdout == "pushed: 0 new, 0 changed, 2 unchanged, 0 deleted, 1 conflicts\n")
    #expect(push.stderr.hasPrefix("conflict: \(uid) ("))
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
    #expect(push.stdout == "pushed: 0 new, 0 changed, 2 unchanged, 1 deleted, 0 conflicts\n")
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
        == "alarmcal: error: push stopped; what is counted above was done\nalarmcal: error: \(server.collectionURL.absoluteString): 401 Unauthorized: the server refused the user name or password\n"
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
        == "alarmcal: error: http://127.0.0.1:9/.well-known/caldav: cannot reach the server: connection refused\n"
    )
  }
}
