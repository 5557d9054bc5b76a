import CalDAVTestServers
import Foundation
import Testing

/// The joints of the loop a user runs (app list → calendar server → ring → snooze/stop →
/// back), each tested where one command hands over to the next, with the real binary and real
/// servers on loopback.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct LoopEndToEndTests {
  /// UIDs that servers refuse as resource names when merely percent-encoded.
  static let awkwardUIDs = [
    "2025-03-14 07:02:11", "a:b:c", "slash/in/uid", "100%done", "Wecker früh ⏰",
    String(repeating: "long", count: 75),
  ]

  /// A calendar with one weekly alarm per UID (each event lasts a minute: Cyrus 3.6 refuses a
  /// timed event with a start alone).
  static func calendar(uids: [String]) -> String {
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
    for (offset, uid) in uids.enumerated() {
      text += """
        BEGIN:VEVENT\r
        UID:\(uid)\r
        DTSTAMP:20261201T000000Z\r
        DTSTART:2027010\(offset + 1)T070000Z\r
        DURATION:PT1M\r
        RRULE:FREQ=WEEKLY\r
        SUMMARY:Alarm \(offset)\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Alarm \(offset)\r
        TRIGGER:PT0S\r
        END:VALARM\r
        END:VEVENT\r

        """
    }
    return text + "END:VCALENDAR\r\n"
  }

  @Test(
    "the app's own records push: ids with spaces and colons name safe resources",
    arguments: CalDAVTestServer.Kind.allCases)
  func appRecordsPush(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let folder = try temporaryFolder()
    let list = folder.appendingPathComponent("ios-alarms.json")
    try FileManager.default.copyItem(
      at: samplesFolder.appendingPathComponent("ios-alarms.json"), to: list)
    let url = server.collectionURL.absoluteString
    let now = ["--now", "2026-12-04T12:00:00Z", "--tz", "Europe/Berlin"]
    let push = try CalDAVEndToEndTests.run(["push", list.path, "--url", url] + now, server)
    #expect(push.status == 0, "\(push.stderr)")
    #expect(
      push.stdout == "pushed: 4 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    let pulled = folder.appendingPathComponent("pulled.ics").path
    let pull = try CalDAVEndToEndTests.run(["pull", "--url", url, "-o", pulled], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    let text = try String(contentsOfFile: pulled, encoding: .utf8)
    #expect(text.contains("UID:2025-03-14 07:02:11\r\n"))
  }

  @Test(
    "any UID pushes and comes back unchanged: spaces, colons, slashes, %, non-ASCII, 300 bytes",
    arguments: SyncJointsTests.servers)
  func awkwardUIDsPush(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent("awkward.ics")
    try Self.calendar(uids: Self.awkwardUIDs).write(to: file, atomically: true, encoding: .utf8)
    let url = server.collectionURL.absoluteString
    let push = try CalDAVEndToEndTests.run(["push", file.path, "--url", url], server)
    #expect(push.status == 0, "\(push.stderr)")
    #expect(
      push.stdout == "pushed: 6 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    let again = try CalDAVEndToEndTests.run(["push", file.path, "--url", url], server)
    #expect(
      again.stdout == "pushed: 0 new, 0 changed, 6 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    let pulled = folder.appendingPathComponent("pulled.ics").path
    let pull = try CalDAVEndToEndTests.run(["pull", "--url", url, "-o", pulled], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    #expect(pull.stdout == "pulled: 6 resources (full read)\n")
    let original = try CalDAVEndToEndTests.firings([file.path])
    #expect(original.count > 6 * 50)
    #expect(try CalDAVEndToEndTests.firings([pulled]) == original)
  }

  @Test(
    "every server takes every exported alarm: Radicale, Xandikos and Cyrus IMAP",
    arguments: CalDAVTestServer.Kind.everyServer)
  func exportedAlarmsAccepted(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let folder = try temporaryFolder()
    var files: [String] = []
    for name in ["alarms.json", "ios-alarms.json"] {
      let target = folder.appendingPathComponent(name)
      try FileManager.default.copyItem(at: samplesFolder.appendingPathComponent(name), to: target)
      files.append(target.path)
    }
    let url = server.collectionURL.absoluteString
    let now = ["--now", "2026-12-04T12:00:00Z", "--tz", "Europe/Berlin"]
    let push = try CalDAVEndToEndTests.run(["push"] + files + ["--url", url] + now, server)
    #expect(push.status == 0, "\(push.stderr)")
    #expect(
      push.stdout == "pushed: 14 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    let pulled = folder.appendingPathComponent("pulled.ics").path
    let pull = try CalDAVEndToEndTests.run(["pull", "--url", url, "-o", pulled], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    let window = ["--from", "2026-12-04T12:00:00Z", "--to", "2027-12-04T00:00:00Z"]
    let fields = { (text: String) in
      CalDAVEndToEndTests.fields(["trigger", "uid", "action", "summary"], of: text)
    }
    let local = try runBinary(["upcoming"] + files + window + now + ["--format", "ndjson"])
    let served = try runBinary(["upcoming", pulled] + window + now + ["--format", "ndjson"])
    #expect(fields(local.stdout).count > 500)
    #expect(fields(served.stdout) == fields(local.stdout))
  }
}
