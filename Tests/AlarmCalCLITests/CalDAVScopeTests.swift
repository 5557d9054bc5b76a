import CalDAV
import CalDAVTestServers
import Foundation
import Testing

/// What the CalDAV commands send where: credentials only inside the URL the user gave, writes
/// only inside the collection, deletions only of this list's unchanged resources, and never a
/// write made unconditional by a missing ETag. The collection is a scripted server at `/cal/`;
/// a second one, the recorder, stands for another host and must get nothing.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct CalDAVScopeTests {
  static let environment = ["ALARMCAL_PASSWORD": "secret", "HOME": "/nonexistent"]

  /// The binary with credentials (so each request carries `Authorization`).
  static func run(_ arguments: [String]) throws -> RunResult {
    try runBinary(arguments + ["--user", "alice"], environment: environment)
  }

  /// One VEVENT, CRLF line ends.
  static func event(_ uid: String, summary: String = "Wake", list: String? = nil) -> String {
    "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20270101T000000Z\r\nDTSTART:20270101T070000Z\r\n"
      + "SUMMARY:\(summary)\r\n" + (list.map { "X-ALARMCAL-LIST:\($0)\r\n" } ?? "")
      + "END:VEVENT\r\n"
  }

  /// A VCALENDAR of these events.
  static func calendar(_ events: [String]) -> String {
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n" + events.joined() + "END:VCALENDAR\r\n"
  }

  /// A `DAV:multistatus` of these responses.
  static func multistatus(_ responses: [String]) -> String {
    "<?xml version=\"1.0\"?><D:multistatus xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\">"
      + responses.joined() + "</D:multistatus>"
  }

  /// One `DAV:response` with its ETag, data and resource type when given.
  static func response(
    _ href: String, etag: String? = nil, data: String? = nil, collection: Bool = false,
    extra: String = ""
  ) -> String {
    let escaped = data?.replacingOccurrences(of: "&", with: "&amp;")
      .replacingOccurrences(of: "<", with: "&lt;")
    return "<D:response><D:href>\(href)</D:href><D:propstat><D:prop>"
      + (etag.map { "<D:getetag>\($0)</D:getetag>" } ?? "")
      + (escaped.map { "<C:calendar-data>\($0)</C:calendar-data>" } ?? "")
      + (collection
        ? "<D:resourcetype><D:collection/><C:calendar/></D:resourcetype>"
        : "<D:resourcetype/>") + extra
      + "</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
  }

  /// Rules for a calendar at `/cal/` holding `members` (href, ETag, data): PROPFIND Depth 1
  /// and 0, calendar-query and multiget, and a PUT answered 201 with `putETag`, if any.
  static func collection(
    _ members: [(href: String, etag: String, data: String)], putETag: String? = "\"new\""
  ) -> [ScriptedServer.Rule] {
    [
      .init(
        "PROPFIND", "/cal/", depth: "1", status: 207,
        body: multistatus(
          [response("/cal/", collection: true)] + members.map { response($0.href, etag: $0.etag) }
        )),
      .init(
        "PROPFIND", "/cal/", depth: "0", status: 207,
        body: multistatus([response("/cal/", collection: true)])),
      .init(
        "REPORT", "/cal/", status: 207,
        body: multistatus(members.map { response($0.href, etag: $0.etag, data: $0.data) })),
      .init("PUT", "/cal/*", status: 201, headers: putETag.map { ["ETag": $0] } ?? [:]),
    ]
  }

  /// A fresh folder with `alarms.ics` holding `text`; its path.
  static func alarmsFile(_ text: String) throws -> String {
    let file = try temporaryFolder().appendingPathComponent("alarms.ics").path
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  /// Writes a state file for `file` recording `resources` (path → fields) for `collection`.
  static func writeState(
    for file: String, collection: URL, resources: [String: [String: Any]]
  ) throws {
    let url = URL(fileURLWithPath: file)
    let state = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).caldav.json")
    let json: [String: Any] = [
      "collections": [collection.absoluteString: ["resources": resources]]
    ]
    try JSONSerialization.data(withJSONObject: json).write(to: state)
  }

  @Test("push --delete-missing sends nothing to another host a multiget answer names")
  func deleteElsewhere() throws {
    let recorder = try ScriptedServer()
    let victim = "http://127.0.0.1:\(recorder.port)/victim/important.ics"
    let server = try ScriptedServer(
      rules: Self.collection([
        (victim, "\"1\"", Self.calendar([Self.event("old", list: "alarms")]))
      ]))
    let file = try Self.alarmsFile(Self.calendar([Self.event("kept")]))
    let url = server.baseURL.appendingPathComponent("cal/").absoluteString
    let push = try Self.run(["push", file, "--url", url, "--delete-missing"])
    #expect(try recorder.requests().isEmpty)
    #expect(!push.stdout.contains("1 deleted"), "\(push.stdout)")
    #expect(try server.requests().allSatisfy { $0.method != "DELETE" })
  }

  @Test(
    "a state file naming a resource outside the collection stops push before any request",
    arguments: [
      "//127.0.0.1:OTHER/stolen.ics", "http://127.0.0.1:OTHER/stolen.ics",
      "/cal/../other/dotdot.ics", "/other/kept.ics", "/cal/sub/kept.ics",
    ])
  func stateKeyOutside(key template: String) throws {
    let recorder = try ScriptedServer()
    let server = try ScriptedServer(rules: Self.collection([]))
    let key = template.replacingOccurrences(of: "OTHER", with: "\(recorder.port)")
    let file = try Self.alarmsFile(Self.calendar([Self.event("kept", summary: "Changed")]))
    let collection = server.baseURL.appendingPathComponent("cal/")
    try Self.writeState(
      for: file, collection: collection,
      resources: [key: ["uid": "kept", "etag": "\"1\"", "digest": "0", "marked": true]])
    let push = try Self.run(["push", file, "--url", collection.absoluteString])
    #expect(push.status == 65)
    #expect(push.stderr.split(separator: "\n").count == 1)
    #expect(push.stderr.contains("resource \(key) is not inside"), "\(push.stderr)")
    #expect(try recorder.requests().isEmpty)
    #expect(try server.requests().isEmpty)
  }

  @Test(
    "pull refuses an href outside the collection: exit 76, one line, nothing written",
    arguments: [
      "http://127.0.0.1:PORT//127.0.0.1:OTHER/stolen.ics", "/cal/../other/dotdot.ics",
      "http://127.0.0.1:OTHER/cal/x.ics", "//127.0.0.1:OTHER/cal/x.ics", "/cal/%2e%2e/x.ics",
    ])
  func pulledHrefOutside(href template: String) throws {
    let recorder = try ScriptedServer()
    let server = try ScriptedServer()
    let href = template.replacingOccurrences(of: "PORT", with: "\(server.port)")
      .replacingOccurrences(of: "OTHER", with: "\(recorder.port)")
    try server.answer(Self.collection([(href, "\"1\"", Self.calendar([Self.event("x")]))]))
    let target = try temporaryFolder().appendingPathComponent("pulled.ics").path
    let url = server.baseURL.appendingPathComponent("cal/").absoluteString
    let pull = try Self.run(["pull", "--url", url, "-o", target])
    #expect(pull.status == 76, "\(pull.stderr)")
    #expect(
      pull.stderr
        == "alarmcal pull: error: \(url): unusable response: href \(href) is outside the collection; nothing sent there\n"
    )
    #expect(!FileManager.default.fileExists(atPath: target))
    #expect(!FileManager.default.fileExists(atPath: CalDAVStatePath.of(target)))
    #expect(try recorder.requests().isEmpty)
  }

  @Test("calendars follows a principal on another port only with --allow-other-host")
  func principalElsewhere() throws {
    let recorder = try ScriptedServer()
    let principal = "http://127.0.0.1:\(recorder.port)/principal/"
    let server = try ScriptedServer(rules: [
      .init(
        "PROPFIND", "/start/", status: 207,
        body: Self.multistatus([
          Self.response(
            "/start/",
            extra:
              "<D:current-user-principal><D:href>\(principal)</D:href></D:current-user-principal>"
          )
        ]))
    ])
    let url = server.baseURL.appendingPathComponent("start/").absoluteString
    let refused = try Self.run(["calendars", "--url", url])
    #expect(refused.status == 76)
    #expect(
      refused.stderr
        == "alarmcal calendars: error: \(url): unusable response: current-user-principal \(principal) is on another host; not followed (--allow-other-host follows it)\n"
    )
    #expect(try recorder.requests().isEmpty)
    // Asked for, it goes there (and the recorder's 404 ends it).
    let allowed = try Self.run(["calendars", "--url", url, "--allow-other-host"])
    #expect(allowed.status == 69, "\(allowed.stderr)")
    let sent = try recorder.requests()
    #expect(sent.first?.method == "PROPFIND")
    #expect(sent.first?.headers["authorization"]?.hasPrefix("Basic ") == true)
  }

  @Test("a PUT answered without an ETag: it is asked for; still none, the next change conflicts")
  func putWithoutETag() throws {
    let server = try ScriptedServer(
      rules: Self.collection([], putETag: nil) + [
        .init(
          "PROPFIND", "/cal/a.ics", depth: "0", status: 207,
          body: Self.multistatus([Self.response("/cal/a.ics")]))
      ])
    let file = try Self.alarmsFile(Self.calendar([Self.event("a")]))
    let url = server.baseURL.appendingPathComponent("cal/").absoluteString
    let first = try Self.run(["push", file, "--url", url])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(
      first.stdout == "pushed: 1 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    let asked = try server.requests().filter { $0.method == "PROPFIND" && $0.path == "/cal/a.ics" }
    #expect(asked.count == 1)
    #expect(asked.first?.headers["depth"] == "0")
    // Now on the server (changed there, for all alarmcal can tell); the file changes too.
    try server.answer(
      Self.collection([("/cal/a.ics", "\"2\"", Self.calendar([Self.event("a")]))]))
    try Self.calendar([Self.event("a", summary: "Mine")]).write(
      toFile: file, atomically: true, encoding: .utf8)
    let before = try server.requests().count
    let second = try Self.run(["push", file, "--url", url])
    #expect(second.status == 1)
    #expect(
      second.stdout == "pushed: 0 new, 0 changed, 0 unchanged, 0 deleted, 1 conflicts, 0 refused\n")
    #expect(second.stderr.hasPrefix("alarmcal push: error: conflict: a ("), "\(second.stderr)")
    #expect(try server.requests().dropFirst(before).allSatisfy { $0.method != "PUT" })
  }

  @Test("an ETag holding a newline: no DELETE and no PUT go out, each is a conflict")
  func newlineETag() throws {
    let etag = "\"x\ny\""
    let old = Self.calendar([Self.event("old", list: "alarms")])
    let changed = Self.calendar([Self.event("a")])
    let server = try ScriptedServer(
      rules: Self.collection([("/cal/old.ics", etag, old), ("/cal/a.ics", etag, changed)]))
    let collection = server.baseURL.appendingPathComponent("cal/")
    let file = try Self.alarmsFile(Self.calendar([Self.event("a", summary: "Mine")]))
    try Self.writeState(
      for: file, collection: collection,
      resources: [
        "/cal/old.ics": [
          "uid": "old", "etag": etag, "digest": "0", "marked": true, "list": "alarms",
        ],
        "/cal/a.ics": ["uid": "a", "etag": etag, "digest": "0", "marked": true, "list": "alarms"],
      ])
    let push = try Self.run(["push", file, "--url", collection.absoluteString, "--delete-missing"])
    #expect(push.status == 1, "\(push.stderr)")
    #expect(
      push.stdout == "pushed: 0 new, 0 changed, 0 unchanged, 0 deleted, 2 conflicts, 0 refused\n")
    let sent = try server.requests()
    #expect(
      sent.allSatisfy { $0.method != "DELETE" && $0.method != "PUT" },
      "\(sent.map { "\($0.method) \($0.path) \($0.headers)" })")
  }

  @Test("a corrupt state file stops push and pull with exit 65 and one line naming it")
  func corruptState() throws {
    for text in [
      "not json {", "{\"collections\": 3}", "{\"collections\":{\"u\":{\"resources\":{\"/a\":{}}}}}",
    ] {
      let file = try Self.alarmsFile(Self.calendar([Self.event("a")]))
      let state = CalDAVStatePath.of(file)
      try text.write(toFile: state, atomically: true, encoding: .utf8)
      let push = runInProcess(["push", file, "--url", "http://127.0.0.1:9/cal/"])
      #expect(push.status == 65, "\(text): \(push.stderr)")
      #expect(push.stderr.hasPrefix("alarmcal push: error: \(state): "), "\(push.stderr)")
      #expect(push.stderr.split(separator: "\n").count == 1)
      let pull = runInProcess(["pull", "--url", "http://127.0.0.1:9/cal/", "-o", file])
      #expect(pull.status == 65, "\(text): \(pull.stderr)")
      #expect(pull.stderr.hasPrefix("alarmcal pull: error: \(state): "), "\(pull.stderr)")
      // Left as it was, for the user to look at.
      #expect(try String(contentsOfFile: state, encoding: .utf8) == text)
    }
  }
}

/// The state file's place, as push and pull keep it.
enum CalDAVStatePath {
  static func of(_ file: String) -> String {
    let url = URL(fileURLWithPath: file)
    return url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).caldav.json"
    ).path
  }
}

/// The same rules against real servers: what Radicale would take (a write into another of the
/// user's collections, an unconditional overwrite) is never sent, and an empty calendar reads.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct CalDAVScopeServerTests {
  typealias Scope = CalDAVScopeTests

  static func run(_ arguments: [String], _ server: CalDAVTestServer) throws -> RunResult {
    try CalDAVEndToEndTests.run(arguments, server)
  }

  /// The resource files Radicale keeps in one of alice's collections.
  static func stored(_ server: CalDAVTestServer, _ collection: String) -> [String] {
    let folder = server.folder.appendingPathComponent("data/collection-root/alice/\(collection)")
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
      $0.hasSuffix(".ics")
    }.sorted()
  }

  /// Edits the state file of `file` with `change` (on its JSON object).
  static func editState(of file: String, _ change: (inout [String: Any]) -> Void) throws {
    let path = CalDAVStatePath.of(file)
    var json =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
      as? [String: Any] ?? [:]
    change(&json)
    try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
  }

  /// `change` applied to each resource of each collection in the state JSON.
  static func eachResource(
    _ json: inout [String: Any], _ change: (String, inout [String: Any]) -> Void
  ) {
    var collections = json["collections"] as? [String: [String: Any]] ?? [:]
    for (url, var collection) in collections {
      var resources = collection["resources"] as? [String: [String: Any]] ?? [:]
      for (path, var resource) in resources {
        change(path, &resource)
        resources[path] = resource
      }
      collection["resources"] = resources
      collections[url] = collection
    }
    json["collections"] = collections
  }

  @Test("a state key in another of the user's collections is refused; nothing is created there")
  func writeIntoOtherCollection() throws {
    let server = try CalDAVTestServer(.radicale)
    defer { server.stopAndRemove() }
    let other = server.baseURL.appendingPathComponent("alice/other/")
    let made = try DAVClient(credentials: server.credentials).send(
      HTTPRequest(method: "MKCALENDAR", url: other))
    try #require(made.status == 201)
    let file = try Scope.alarmsFile(Scope.calendar([Scope.event("UID1")]))
    try Scope.writeState(
      for: file, collection: server.collectionURL,
      resources: [
        "/alice/other/UID1.ics": ["uid": "UID1", "etag": "", "digest": "0", "marked": true]
      ]
    )
    let push = try Self.run(["push", file, "--url", server.collectionURL.absoluteString], server)
    #expect(push.status == 65, "\(push.stderr)")
    #expect(
      push.stderr
        == "alarmcal push: error: \(CalDAVStatePath.of(file)): resource /alice/other/UID1.ics is not inside \(server.collectionURL.absoluteString); nothing sent\n"
    )
    #expect(Self.stored(server, "other").isEmpty)
    #expect(Self.stored(server, "alarms").isEmpty)
  }

  @Test("--delete-missing deletes only what this list wrote, unchanged on the server since")
  func deleteOnlyOwn() throws {
    let server = try CalDAVTestServer(.radicale)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    // Machine A pushes its alarms.ics: two events.
    let mine = try Scope.alarmsFile(Scope.calendar([Scope.event("a1"), Scope.event("a2")]))
    #expect(try Self.run(["push", mine, "--url", url], server).status == 0)
    // Another client writes an event marked as list "alarms".
    let marked = Scope.calendar([Scope.event("foreign", list: "alarms")])
    _ = try session.put(
      Array(marked.utf8), at: server.collectionURL.appendingPathComponent("foreign.ics"),
      replacing: nil)
    // Machine B pushes its own alarms.ics (same list name) with --delete-missing.
    let theirs = try Scope.alarmsFile(Scope.calendar([Scope.event("b1")]))
    let other = try Self.run(["push", theirs, "--url", url, "--delete-missing"], server)
    #expect(other.status == 0, "\(other.stderr)")
    #expect(
      other.stdout == "pushed: 1 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    #expect(Self.stored(server, "alarms").count == 4)
    // A's a1 is edited on the server; A then drops both of its events.
    let a1 = try #require(
      try session.calendarObjects(in: server.collectionURL).first {
        $0.data?.contains("UID:a1") == true
      })
    let edited = try #require(a1.data).replacingOccurrences(of: "SUMMARY:", with: "SUMMARY:Edited ")
    _ = try session.put(Array(edited.utf8), at: a1.url, replacing: a1.etag)
    try Scope.calendar([Scope.event("a3")]).write(toFile: mine, atomically: true, encoding: .utf8)
    let push = try Self.run(["push", mine, "--url", url, "--delete-missing"], server)
    #expect(push.status == 1, "\(push.stderr)")
    #expect(
      push.stdout == "pushed: 1 new, 0 changed, 0 unchanged, 1 deleted, 1 conflicts, 0 refused\n")
    #expect(push.stderr.hasPrefix("alarmcal push: error: conflict: a1 ("), "\(push.stderr)")
    #expect(Self.stored(server, "alarms") == ["a1.ics", "a3.ics", "b1.ics", "foreign.ics"])
    // A state file from before the record was kept: nothing of it is deleted.
    try Self.editState(of: mine) { json in
      Self.eachResource(&json) { _, resource in resource["list"] = nil }
    }
    try Scope.calendar([]).write(toFile: mine, atomically: true, encoding: .utf8)
    let old = try Self.run(["push", mine, "--url", url, "--delete-missing"], server)
    #expect(
      old.stdout.hasSuffix(" 0 deleted, 0 conflicts, 0 refused\n"), "\(old.stdout) \(old.stderr)")
    #expect(Self.stored(server, "alarms").count == 4)
  }

  @Test("a state ETag recorded empty is a conflict, not an overwrite of the server's edit")
  func emptyETagIsConflict() throws {
    let server = try CalDAVTestServer(.radicale)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let file = try Scope.alarmsFile(Scope.calendar([Scope.event("a")]))
    #expect(try Self.run(["push", file, "--url", url], server).status == 0)
    // As a PUT answered without ETag left it before.
    try Self.editState(of: file) { json in
      Self.eachResource(&json) { _, resource in resource["etag"] = "" }
    }
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    let object = try #require(try session.calendarObjects(in: server.collectionURL).first)
    let theirs = try #require(object.data).replacingOccurrences(
      of: "SUMMARY:", with: "SUMMARY:Theirs ")
    _ = try session.put(Array(theirs.utf8), at: object.url, replacing: object.etag)
    try Scope.calendar([Scope.event("a", summary: "Mine")]).write(
      toFile: file, atomically: true, encoding: .utf8)
    let push = try Self.run(["push", file, "--url", url], server)
    #expect(push.status == 1, "\(push.stderr)")
    #expect(
      push.stdout == "pushed: 0 new, 0 changed, 0 unchanged, 0 deleted, 1 conflicts, 0 refused\n")
    let now = try session.calendarObjects(in: server.collectionURL)
    #expect(now.first?.data?.contains("Theirs") == true)
    #expect(now.first?.data?.contains("Mine") != true)
  }
}
