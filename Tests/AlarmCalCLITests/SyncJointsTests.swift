import CalDAV
import CalDAVTestServers
import Foundation
import Testing

/// Push where it meets the server's own mind: a refused resource is that resource's problem
/// (the push goes on), and a copy on the server that nothing records is adopted when it is
/// what would be sent. The real binary against Radicale, Xandikos (and Cyrus when installed)
/// and a scripted server.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct SyncJointsTests {
  typealias Scope = CalDAVScopeTests

  static func run(_ arguments: [String], _ server: CalDAVTestServer) throws -> RunResult {
    try CalDAVEndToEndTests.run(arguments, server)
  }

  /// One VEVENT that ends (Cyrus refuses a timed one with DTSTART alone).
  static func event(_ uid: String, summary: String = "Wake") -> String {
    Scope.event(uid, summary: summary).replacingOccurrences(
      of: "DTSTART:20270101T070000Z\r\n",
      with: "DTSTART:20270101T070000Z\r\nDTEND:20270101T071000Z\r\n")
  }

  /// Radicale and Xandikos, and Cyrus when it is installed (the samples' events all end, so
  /// Cyrus stores them).
  static let servers =
    CalDAVTestServer.Kind.allCases + (CalDAVTestServer.cyrusShouldRun ? [.cyrus] : [])

  /// The text of the server's resource holding `uid`.
  static func serverText(_ server: CalDAVTestServer, uid: String) throws -> String? {
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    return try session.calendarObjects(in: server.collectionURL).first {
      $0.data?.contains("UID:\(uid)") == true
    }?.data
  }

  /// Another client changes the summary of the resource holding `uid` on the server.
  static func editOnServer(_ server: CalDAVTestServer, uid: String, prefix: String) throws {
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    let object = try #require(
      try session.calendarObjects(in: server.collectionURL).first {
        $0.data?.contains("UID:\(uid)") == true
      })
    let theirs = try #require(object.data).replacingOccurrences(
      of: "SUMMARY:", with: "SUMMARY:\(prefix) ")
    let outcome = try session.put(Array(theirs.utf8), at: object.url, replacing: object.etag)
    guard case .done = outcome else {
      Issue.record("the other client's PUT: \(outcome)")
      return
    }
  }

  /// The resources the state file records for its (one) collection, by path.
  static func recorded(of file: String) throws -> [String: [String: Any]] {
    let data = try Data(contentsOf: URL(fileURLWithPath: CalDAVStatePath.of(file)))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let collections = try #require(json["collections"] as? [String: [String: Any]])
    return try #require(collections.values.first?["resources"] as? [String: [String: Any]])
  }

  /// The list each resource of the state file records.
  static func recordedLists(of file: String) throws -> [String] {
    try recorded(of: file).values.map { $0["list"] as? String ?? "-" }.sorted()
  }

  /// The paths the state file records.
  static func recordedPaths(of file: String) throws -> [String] {
    try recorded(of: file).keys.sorted()
  }

  // MARK: - Lost state

  @Test(
    "lost state: the server's equal copies are adopted as this list's, without a word",
    arguments: servers)
  func adoption(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let file = try Scope.alarmsFile(
      Scope.calendar([
        Self.event("a"), Self.event("b"), Self.event("c"),
      ]))
    #expect(try Self.run(["push", file, "--url", url], server).status == 0)
    try FileManager.default.removeItem(atPath: CalDAVStatePath.of(file))
    let again = try Self.run(["push", file, "--url", url], server)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stderr == "")
    #expect(
      again.stdout
        == "pushed: 0 new, 0 changed, 3 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    #expect(try Self.recordedLists(of: file) == ["alarms", "alarms", "alarms"])
    // Adopted means this list's: --delete-missing may take one the file dropped.
    try Scope.calendar([Self.event("a"), Self.event("b")]).write(
      toFile: file, atomically: true, encoding: .utf8)
    let delete = try Self.run(["push", file, "--url", url, "--delete-missing"], server)
    #expect(delete.status == 0, "\(delete.stderr)")
    #expect(
      delete.stdout
        == "pushed: 0 new, 0 changed, 2 unchanged, 1 deleted, 0 conflicts, 0 refused\n")
    #expect(try Self.serverText(server, uid: "c") == nil)
  }

  @Test(
    "lost state: a different server copy is a conflict saying how to resolve it; --overwrite",
    arguments: servers)
  func lostStateConflict(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let file = try Scope.alarmsFile(
      Scope.calendar([Self.event("a"), Self.event("b")]))
    #expect(try Self.run(["push", file, "--url", url], server).status == 0)
    try FileManager.default.removeItem(atPath: CalDAVStatePath.of(file))
    // The copy on the server carries this list's mark; that alone makes it nobody's.
    try Scope.calendar([Self.event("a", summary: "Mine"), Self.event("b")]).write(
      toFile: file, atomically: true, encoding: .utf8)
    let push = try Self.run(["push", file, "--url", url], server)
    #expect(push.status == 1, "\(push.stderr)")
    #expect(
      push.stdout == "pushed: 0 new, 0 changed, 1 unchanged, 0 deleted, 1 conflicts, 0 refused\n")
    #expect(
      push.stderr
        == "alarmcal push: error: conflict: a (\(url)a.ics): exists on the server with other content but was not pushed or pulled here; not overwritten (pull first, or push --overwrite to replace the server's copy)\n"
    )
    #expect(try Self.serverText(server, uid: "a")?.contains("SUMMARY:Wake") == true)
    let overwrite = try Self.run(["push", file, "--url", url, "--overwrite"], server)
    #expect(overwrite.status == 0, "\(overwrite.stderr)")
    #expect(
      overwrite.stdout
        == "pushed: 0 new, 1 changed, 1 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    #expect(try Self.serverText(server, uid: "a")?.contains("SUMMARY:Mine") == true)
  }

  // MARK: - Refusals

  @Test("409 and 415 on a PUT, 403 on a DELETE: refused with the server's words, the rest goes")
  func scriptedRefusals() throws {
    let refusal =
      "<?xml version=\"1.0\"?><D:error xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\"><C:no-uid-conflict><D:href>/cal/other.ics</D:href></C:no-uid-conflict></D:error>"
    let forbidden =
      "<D:error xmlns:D=\"DAV:\"><D:need-privileges/><D:responsedescription>read\nonly</D:responsedescription></D:error>"
    let old = Scope.calendar([Scope.event("old", list: "alarms")])
    let server = try ScriptedServer(
      rules: [
        .init("PUT", "/cal/a.ics", status: 409, body: refusal),
        .init("PUT", "/cal/b.ics", status: 415, body: "text/calendar\u{1B}[2J only, please\n"),
        .init("DELETE", "/cal/old.ics", status: 403, body: forbidden),
      ] + Scope.collection([("/cal/old.ics", "\"1\"", old)]))
    let collection = server.baseURL.appendingPathComponent("cal/")
    let file = try Scope.alarmsFile(
      Scope.calendar([Scope.event("a"), Scope.event("b"), Scope.event("c")]))
    try Scope.writeState(
      for: file, collection: collection,
      resources: [
        "/cal/old.ics": [
          "uid": "old", "etag": "\"1\"", "digest": "0", "marked": true, "list": "alarms",
        ]
      ])
    let base = collection.absoluteString
    let push = try Scope.run(["push", file, "--url", base, "--delete-missing"])
    #expect(push.status == 1, "\(push.stderr)")
    #expect(
      push.stdout == "pushed: 1 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts, 3 refused\n")
    #expect(
      push.stderr == """
        alarmcal push: error: refused: a (\(base)a.ics): 409 Conflict: CALDAV:no-uid-conflict: already at /cal/other.ics
        alarmcal push: error: refused: b (\(base)b.ics): 415 Unsupported Media Type: text/calendar\\u{1B}[2J only, please
        alarmcal push: error: refused: old (\(base)old.ics): 403 Forbidden: DAV:need-privileges: read\\nonly

        """)
    let sent = try server.requests().filter { $0.method == "PUT" }.map(\.path)
    #expect(sent == ["/cal/a.ics", "/cal/b.ics", "/cal/c.ics"])
    // Only c is recorded as written; old stays this list's, for the next try.
    #expect(try Self.recordedPaths(of: file) == ["/cal/c.ics", "/cal/old.ics"])
  }

  @Test("401 on a PUT still stops the push as a credentials error")
  func unauthorizedPut() throws {
    let server = try ScriptedServer(
      rules: [.init("PUT", "/cal/*", status: 401)] + Scope.collection([]))
    let file = try Scope.alarmsFile(Scope.calendar([Scope.event("a"), Scope.event("b")]))
    let url = server.baseURL.appendingPathComponent("cal/").absoluteString
    let push = try Scope.run(["push", file, "--url", url])
    #expect(push.status == 77, "\(push.stderr)")
    #expect(
      push.stderr.hasSuffix(
        "401 Unauthorized: the server refused the user name or password\n"
          + "alarmcal push: note: push stopped; what is counted above was done\n"))
    #expect(try server.requests().filter { $0.method == "PUT" }.count == 1)
  }
}

/// Cyrus refuses what it will not store, one resource at a time.
@Suite(.serialized, .enabled(if: CalDAVTestServer.cyrusShouldRun))
struct CyrusRefusalTests {
  static func event(_ uid: String, end: Bool) -> String {
    String(
      decoding: CyrusTests.event(
        uid: uid,
        ["DTSTART:20261207T063000Z"] + (end ? ["DTEND:20261207T063100Z"] : [])),
      as: UTF8.self)
  }

  /// A fresh alarms.ics of `events` (whole calendars, joined into one).
  static func file(_ events: [String]) throws -> String {
    let body = events.map { text in
      text.replacingOccurrences(of: "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n", with: "")
        .replacingOccurrences(of: "PRODID:-//alarmcal tests//cyrus//EN\r\n", with: "")
        .replacingOccurrences(of: "END:VCALENDAR\r\n", with: "")
    }
    return try CalDAVScopeTests.alarmsFile(
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + body.joined() + "END:VCALENDAR\r\n")
  }

  @Test("an event with DTSTART alone is refused with Cyrus's reason; the valid ones are pushed")
  func invalidDataRefused() throws {
    let server = try CalDAVTestServer(.cyrus)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let file = try Self.file([
      Self.event("first", end: true), Self.event("bad", end: false), Self.event("last", end: true),
    ])
    let push = try CyrusTests.run(["push", file, "--url", url], server)
    #expect(push.status == 1, "\(push.stderr)")
    #expect(
      push.stdout == "pushed: 2 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts, 1 refused\n")
    #expect(
      push.stderr
        == "alarmcal push: error: refused: bad (\(url)bad.ics): 403 Forbidden: CALDAV:valid-calendar-data: DTEND must occur after DTSTART\n"
    )
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    let names = try session.members(of: server.collectionURL).map(\.url.lastPathComponent).sorted()
    #expect(names == ["first.ics", "last.ics"])
  }

  @Test("one UID pushed to a second calendar of the account: refused, naming the first")
  func uidTakenRefused() throws {
    let server = try CalDAVTestServer(.cyrus)
    defer { server.stopAndRemove() }
    let other = server.collectionURL.deletingLastPathComponent()
      .appendingPathComponent("other", isDirectory: true)
    let client = DAVClient(credentials: server.credentials)
    #expect(try client.send(HTTPRequest(method: "MKCALENDAR", url: other)).status == 201)
    let file = try Self.file([Self.event("same", end: true)])
    let first = try CyrusTests.run(
      ["push", file, "--url", server.collectionURL.absoluteString], server)
    #expect(first.status == 0, "\(first.stderr)")
    let second = try CyrusTests.run(["push", file, "--url", other.absoluteString], server)
    #expect(second.status == 1, "\(second.stderr)")
    #expect(
      second.stdout
        == "pushed: 0 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts, 1 refused\n")
    #expect(
      second.stderr
        == "alarmcal push: error: refused: same (\(other.absoluteString)same.ics): 403 Forbidden: CALDAV:unique-scheduling-object-resource: already at \(server.collectionURL.appendingPathComponent("same.ics").path)\n"
    )
  }
}
