import CalDAV
import CalDAVTestServers
import Foundation
import Testing

/// The real `alarmcal` binary against a private Cyrus IMAP (CalDAV) on loopback, started by
/// `scripts/cyrus-server`.
@Suite(.serialized, .enabled(if: CalDAVTestServer.cyrusShouldRun))
struct CyrusTests {
  static func run(_ arguments: [String], _ server: CalDAVTestServer) throws -> RunResult {
    try runBinary(
      arguments + ["--user", server.user],
      environment: ["ALARMCAL_PASSWORD": server.password, "HOME": "/nonexistent"])
  }

  /// The fixture with events that have DTSTART and DTEND, copied into a fresh folder (push
  /// keeps its state next to the file).
  static func copiedFixture() throws -> (folder: URL, file: String) {
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent("timed-events.ics").path
    try FileManager.default.copyItem(atPath: try fixturePath("timed-events.ics"), toPath: file)
    return (folder, file)
  }

  /// Every firing of `file` in 2027, one line each: trigger, uid, action, summary.
  static func firings(_ file: String) throws -> [String] {
    let result = try runBinary([
      "upcoming", file, "--from", "2027-01-01T00:00:00Z", "--to", "2028-01-01T00:00:00Z",
      "--tz", "UTC", "--now", "2026-12-06T08:00:00Z", "--format", "ndjson",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    return CalDAVEndToEndTests.fields(["trigger", "uid", "action", "summary"], of: result.stdout)
  }

  @Test("calendars finds the alarms calendar on Cyrus, from the server's root")
  func calendars() throws {
    let server = try CalDAVTestServer(.cyrus)
    defer { server.stopAndRemove() }
    let result = try Self.run(["calendars", "--url", server.baseURL.absoluteString], server)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains("\(server.collectionURL.absoluteString)\tAlarms\tVEVENT,VTODO\n"),
      "\(result.stdout)")
  }

  @Test("events with DTSTART and DTEND: push, push again (nothing sent), pull, same firings")
  func pushAndPull() throws {
    let server = try CalDAVTestServer(.cyrus)
    defer { server.stopAndRemove() }
    let (folder, file) = try Self.copiedFixture()
    let url = server.collectionURL.absoluteString
    let first = try Self.run(["push", file, "--url", url], server)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout == "pushed: 2 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts\n")
    let second = try Self.run(["push", file, "--url", url], server)
    #expect(second.stdout == "pushed: 0 new, 0 changed, 2 unchanged, 0 deleted, 0 conflicts\n")
    let pulled = folder.appendingPathComponent("pulled.ics").path
    let pull = try Self.run(["pull", "--url", url, "-o", pulled], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    #expect(pull.stdout == "pulled: 2 resources (full read)\n")
    let original = try Self.firings(file)
    // 12 stand-ups with one alarm each, the dentist with two.
    #expect(original.count == 14)
    #expect(try Self.firings(pulled) == original)
  }

  @Test("stopping ends Cyrus (its port is closed) and removes its folder")
  func stopCleansUp() throws {
    let server = try CalDAVTestServer(.cyrus)
    #expect(FileManager.default.fileExists(atPath: server.folder.path))
    var policy = DAVClientPolicy()
    policy.retries = 0
    policy.timeout = 5
    let probe = DAVClient(credentials: server.credentials, policy: policy)
    #expect(try probe.send(HTTPRequest(method: "OPTIONS", url: server.baseURL)).status == 200)
    server.stopAndRemove()
    #expect(!FileManager.default.fileExists(atPath: server.folder.path))
    #expect(throws: DAVError.self) {
      try probe.send(HTTPRequest(method: "OPTIONS", url: server.baseURL))
    }
  }
}
