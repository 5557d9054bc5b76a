import CalDAV
import CalDAVTestServers
import Foundation
import Testing

/// Pull after local edits and after pushes: a local change that was not pushed survives (a
/// change on both sides is named and kept), and a push leaves a token the next pull starts
/// from without skipping another client's edit. The real binary on Radicale and Xandikos, and
/// Cyrus when installed.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct PullMergeTests {
  typealias Scope = CalDAVScopeTests
  typealias Joints = SyncJointsTests

  static func run(_ arguments: [String], _ server: CalDAVTestServer) throws -> RunResult {
    try CalDAVEndToEndTests.run(arguments, server)
  }

  // MARK: - A local change survives a pull

  /// The samples' nextcloud.ics pushed, pulled into `pulled.ics` and snoozed there; the folder,
  /// the pulled file and the snoozed event's UID.
  static func pulledAndSnoozed(_ server: CalDAVTestServer, dismiss: Bool = false) throws -> (
    pulled: String, uid: String
  ) {
    let (folder, files) = try CalDAVEndToEndTests.copiedSamples()
    let url = server.collectionURL.absoluteString
    #expect(try Self.run(["push", files[2], "--url", url], server).status == 0)
    let pulled = folder.appendingPathComponent("pulled.ics").path
    #expect(try Self.run(["pull", "--url", url, "-o", pulled], server).status == 0)
    let listed = try runBinary([
      "upcoming", pulled, "--from", "2026-09-15T00:00:00Z", "--limit", "1", "--tz", "UTC",
      "--format", "ndjson", "--now", "2026-09-15T00:00:00Z",
    ])
    let firing = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
    let uid = try #require(firing["uid"] as? String)
    let id = try #require(firing["id"] as? String)
    let edit = try runBinary(
      (dismiss
        ? ["dismiss", pulled, "--id", id] : ["snooze", pulled, "--id", id, "--minutes", "5"])
        + ["--now", "2026-09-15T04:31:00Z", "--tz", "UTC"])
    #expect(edit.status == 0, "\(edit.stderr)")
    let text = try String(contentsOfFile: pulled, encoding: .utf8)
    #expect(text.contains(dismiss ? "ACKNOWLEDGED:20260915T043100Z" : "RELTYPE=SNOOZE"))
    return (pulled, uid)
  }

  @Test(
    "pull keeps a local snooze, merges the server's other changes; push then sends the snooze",
    arguments: Joints.servers)
  func pullKeepsSnooze(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let (pulled, uid) = try Self.pulledAndSnoozed(server)
    let again = try Self.run(["pull", "--url", url, "-o", pulled], server)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout == "pulled: 0 changed, 0 removed (sync-collection)\n")
    #expect(try String(contentsOfFile: pulled, encoding: .utf8).contains("RELTYPE=SNOOZE"))
    // Another client renames another event: that change comes in, the snooze stays.
    let other = "8a5d0f3c-2e91-4b76-9c48-e1b7a3d6f025"
    #expect(uid != other)
    try Joints.editOnServer(server, uid: other, prefix: "Theirs")
    let merged = try Self.run(["pull", "--url", url, "-o", pulled], server)
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stdout == "pulled: 1 changed, 0 removed (sync-collection)\n")
    let text = try String(contentsOfFile: pulled, encoding: .utf8)
    #expect(text.contains("RELTYPE=SNOOZE"))
    #expect(text.contains("SUMMARY:Theirs "))
    // The snooze is this file's change: push sends it, and only it.
    let push = try Self.run(["push", pulled, "--url", url], server)
    #expect(push.status == 0, "\(push.stderr)")
    #expect(
      push.stdout == "pushed: 0 new, 1 changed, 2 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    #expect(try Joints.serverText(server, uid: uid)?.contains("RELTYPE=SNOOZE") == true)
    #expect(try Joints.serverText(server, uid: other)?.contains("SUMMARY:Theirs ") == true)
  }

  @Test(
    "a resource changed here and on the server: pull keeps this file's, names it, exits 1",
    arguments: Joints.servers)
  func pullConflict(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let (pulled, uid) = try Self.pulledAndSnoozed(server)
    try Joints.editOnServer(server, uid: uid, prefix: "Theirs")
    let pull = try Self.run(["pull", "--url", url, "-o", pulled], server)
    #expect(pull.status == 1, "\(pull.stderr)")
    #expect(pull.stdout == "pulled: 1 changed, 0 removed (sync-collection)\n")
    #expect(pull.stderr.hasPrefix("alarmcal pull: error: conflict: \(uid) ("), "\(pull.stderr)")
    #expect(pull.stderr.contains("changed here and on the server; this file's version is kept"))
    #expect(pull.stderr.split(separator: "\n").count == 1)
    let text = try String(contentsOfFile: pulled, encoding: .utf8)
    #expect(text.contains("RELTYPE=SNOOZE"))
    #expect(!text.contains("SUMMARY:Theirs "))
    // Push still sends over the ETag the snooze was based on: the server's edit is not lost.
    let push = try Self.run(["push", pulled, "--url", url], server)
    #expect(push.status == 1)
    #expect(
      push.stdout == "pushed: 0 new, 0 changed, 2 unchanged, 0 deleted, 1 conflicts, 0 refused\n")
    #expect(try Joints.serverText(server, uid: uid)?.contains("SUMMARY:Theirs ") == true)
    let overwrite = try Self.run(["push", pulled, "--url", url, "--overwrite"], server)
    #expect(overwrite.status == 0, "\(overwrite.stderr)")
    #expect(try Joints.serverText(server, uid: uid)?.contains("RELTYPE=SNOOZE") == true)
  }

  // MARK: - A push leaves a token

  @Test(
    "after a push, pull asks only for the changes: another client's edit comes in",
    arguments: Joints.servers)
  func pullAfterPush(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let file = try Scope.alarmsFile(
      Scope.calendar([Joints.event("a"), Joints.event("b"), Joints.event("c")]))
    #expect(try Self.run(["push", file, "--url", url], server).status == 0)
    try Joints.editOnServer(server, uid: "b", prefix: "Theirs")
    let pull = try Self.run(["pull", "--url", url, "-o", file], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    #expect(pull.stdout == "pulled: 1 changed, 0 removed (sync-collection)\n")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(text.contains("SUMMARY:Theirs Wake"))
    #expect(text.components(separatedBy: "BEGIN:VEVENT").count == 4)
    // Nothing changed since: nothing to send, nothing to read.
    let push = try Self.run(["push", file, "--url", url], server)
    #expect(
      push.stdout == "pushed: 0 new, 0 changed, 3 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    #expect(
      try Self.run(["pull", "--url", url, "-o", file], server).stdout
        == "pulled: 0 changed, 0 removed (sync-collection)\n")
  }

  @Test(
    "an edit another client made before a push is not skipped by the token the push keeps",
    arguments: Joints.servers)
  func editBeforePushNotSkipped(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let file = try Scope.alarmsFile(Scope.calendar([Joints.event("a"), Joints.event("b")]))
    #expect(try Self.run(["push", file, "--url", url], server).status == 0)
    #expect(try Self.run(["pull", "--url", url, "-o", file], server).status == 0)
    // Another client edits b and adds d; then this file adds c and is pushed.
    try Joints.editOnServer(server, uid: "b", prefix: "Theirs")
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    _ = try session.put(
      Array(Scope.calendar([Joints.event("d")]).utf8),
      at: server.collectionURL.appendingPathComponent("d.ics"), replacing: nil)
    var text = try String(contentsOfFile: file, encoding: .utf8)
    text = text.replacingOccurrences(
      of: "END:VCALENDAR", with: Joints.event("c") + "END:VCALENDAR")
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    let push = try Self.run(["push", file, "--url", url], server)
    #expect(
      push.stdout == "pushed: 1 new, 0 changed, 2 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    let pull = try Self.run(["pull", "--url", url, "-o", file], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    #expect(pull.stdout == "pulled: 2 changed, 0 removed (sync-collection)\n")
    let merged = try String(contentsOfFile: file, encoding: .utf8)
    #expect(merged.contains("SUMMARY:Theirs Wake"))
    for uid in ["a", "b", "c", "d"] { #expect(merged.contains("UID:\(uid)\r\n"), "\(uid)") }
  }

  @Test(
    "pull keeps a local dismissal",
    arguments: Joints.servers)
  func pullKeepsDismissal(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let (pulled, uid) = try Self.pulledAndSnoozed(server, dismiss: true)
    let again = try Self.run(["pull", "--url", url, "-o", pulled], server)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout == "pulled: 0 changed, 0 removed (sync-collection)\n")
    #expect(
      try String(contentsOfFile: pulled, encoding: .utf8).contains(
        "ACKNOWLEDGED:20260915T043100Z"))
    let push = try Self.run(["push", pulled, "--url", url], server)
    #expect(
      push.stdout == "pushed: 0 new, 1 changed, 2 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    #expect(
      try Joints.serverText(server, uid: uid)?.contains("ACKNOWLEDGED:20260915T043100Z") == true)
  }

  @Test(
    "a resource changed here and deleted on the server: kept in the file, named, pushed again",
    arguments: Joints.servers)
  func changedHereDeletedThere(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let (pulled, uid) = try Self.pulledAndSnoozed(server)
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    let object = try #require(
      try session.calendarObjects(in: server.collectionURL).first {
        $0.data?.contains("UID:\(uid)") == true
      })
    #expect(try session.delete(object.url, etag: object.etag) == .done(etag: nil))
    let pull = try Self.run(["pull", "--url", url, "-o", pulled], server)
    #expect(pull.status == 1, "\(pull.stderr)")
    #expect(pull.stdout == "pulled: 0 changed, 1 removed (sync-collection)\n")
    #expect(pull.stderr.hasPrefix("alarmcal pull: error: conflict: \(uid) ("), "\(pull.stderr)")
    #expect(pull.stderr.contains("changed here and deleted on the server"))
    let text = try String(contentsOfFile: pulled, encoding: .utf8)
    #expect(text.contains("UID:\(uid)"))
    #expect(text.contains("RELTYPE=SNOOZE"))
    let push = try Self.run(["push", pulled, "--url", url], server)
    #expect(push.status == 0, "\(push.stderr)")
    #expect(
      push.stdout == "pushed: 1 new, 0 changed, 2 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
  }
}
