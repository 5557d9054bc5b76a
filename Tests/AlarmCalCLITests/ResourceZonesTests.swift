import CalDAV
import CalDAVTestServers
import Foundation
import Testing

/// Each resource keeps its own VTIMEZONEs through `pull` and `push` (RFC 4791 §4.1, RFC 5545
/// §3.6.5): khal's cut-down Europe/Berlin in one resource moves no ring of another resource
/// that names Europe/Berlin, and is never sent back into it. The real binary on Radicale and
/// Xandikos (Cyrus refuses the khal-like event, which has no end).
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct ResourceZonesTests {
  static func run(_ arguments: [String], _ server: CalDAVTestServer) throws -> RunResult {
    try CalDAVEndToEndTests.run(arguments, server)
  }

  /// The firings of `uid` in `file` (2026–2027, UTC) as "trigger id".
  static func firings(of uid: String, in file: String) throws -> [String] {
    try CalDAVEndToEndTests.firings([file]).filter { $0.hasSuffix(" \(uid)") }
  }

  @Test(
    "a resource's cut-down VTIMEZONE moves no other resource's ring and is not pushed into it",
    arguments: CalDAVTestServer.Kind.allCases)
  func ownZones(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let folder = try temporaryFolder()
    let list = folder.appendingPathComponent("other.json").path
    try FileManager.default.copyItem(
      atPath: try fixturePath("caldav-resource-other.json"), toPath: list)
    let pushed = try Self.run(
      ["push", list, "--url", url, "--now", "2026-12-06T12:00:00Z"], server)
    #expect(pushed.status == 0, "\(pushed.stderr)")

    let pulled = folder.appendingPathComponent("cal.ics").path
    let first = try Self.run(["pull", "--url", url, "-o", pulled], server)
    #expect(first.status == 0, "\(first.stderr)")
    let before = try Self.firings(of: "b", in: pulled)
    #expect(before.count > 90)

    // Another client (khal) stores an event with its cut-down definition of Europe/Berlin, in a
    // resource read before the other one.
    let khal = try String(
      contentsOfFile: try fixturePath("caldav-resource-cut-vtimezone.ics"), encoding: .utf8)
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    let member = try #require(CollectionScope(server.collectionURL)?.member("0-edited-by-khal.ics"))
    _ = try session.put(Array(khal.utf8), at: member, replacing: nil)
    let second = try Self.run(["pull", "--url", url, "-o", pulled], server)
    #expect(second.status == 0, "\(second.stderr)")

    let text = try String(contentsOfFile: pulled, encoding: .utf8)
    #expect(text.components(separatedBy: "BEGIN:VCALENDAR").count - 1 == 2)
    #expect(try Self.firings(of: "b", in: pulled) == before)
    let khalFile = folder.appendingPathComponent("khal.ics").path
    try khal.write(toFile: khalFile, atomically: true, encoding: .utf8)
    #expect(
      try Self.firings(of: "edited-by-khal", in: pulled)
        == Self.firings(of: "edited-by-khal", in: khalFile))

    let validated = try runBinary(["validate", pulled])
    #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
    #expect(!validated.stdout.contains("multiple-calendars"), "\(validated.stdout)")
    #expect(validated.stdout.contains("[timezone.continued-by-iana]"), "\(validated.stdout)")

    // Each resource goes back with its own definition: nothing changed, nothing is sent; a
    // dismissal sends the one resource, with its own full Europe/Berlin.
    let again = try Self.run(["push", pulled, "--url", url], server)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.hasPrefix("pushed: 0 new, 0 changed, 2 unchanged"), "\(again.stdout)")
    let ring = try #require(before.first { $0.hasPrefix("2027-01-03") })
    let id = String(ring.split(separator: " ")[1])
    let dismissed = try runBinary(["dismiss", pulled, "--id", id, "--now", "2027-01-03T08:00:00Z"])
    #expect(dismissed.status == 0, "\(id) \(dismissed.stderr)")
    let sent = try Self.run(["push", pulled, "--url", url], server)
    #expect(sent.stdout.hasPrefix("pushed: 0 new, 1 changed, 1 unchanged"), "\(sent.stdout)")
    let stored = try #require(try SyncJointsTests.serverText(server, uid: "b"))
    #expect(stored.contains("ACKNOWLEDGED:"))
    #expect(stored.contains("DTSTART:19810329T020000"))
    #expect(!stored.contains("DTSTART:20261025T030000"))
  }
}
