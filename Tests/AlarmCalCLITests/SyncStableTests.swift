import CalDAV
import CalDAVTestServers
import Foundation
import Testing

/// A daily push of an unchanged alarm list sends nothing: the export's DTSTAMP, a done task's
/// COMPLETED and the date a once-ringing alarm got at its first push are kept while the rest
/// of a resource is unchanged. The real binary against Radicale and Xandikos.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct SyncStableTests {
  /// Repeating alarms, a once-ringing alarm without a date, a dated one, a done task.
  static func list(flightTime: String = "04:50", workTime: String = "06:30") -> String {
    """
    {"timeZone": "Europe/Berlin", "alarms": [
      {"id": "work", "time": "\(workTime)", "repeat": ["mon", "tue", "wed", "thu", "fri"],
       "label": "Work"},
      {"id": "weekend", "time": "09:00", "repeat": ["sat", "sun"], "label": "Weekend"},
      {"id": "flight", "time": "\(flightTime)", "repeat": [], "label": "Flight"},
      {"id": "dentist", "at": "2027-01-12T08:20", "label": "Dentist"}
    ], "tasks": [
      {"UUID": "passport", "title": "Renew the passport", "deadline": "2026-11-30T12:00:00Z",
       "completed": true}
    ]}
    """
  }

  static func push(_ file: String, _ server: CalDAVTestServer, now: String?) throws -> RunResult {
    let moment = now.map { ["--now", $0] } ?? []
    return try CalDAVEndToEndTests.run(
      ["push", file, "--url", server.collectionURL.absoluteString] + moment, server)
  }

  /// Each resource's ETag, by path.
  static func etags(_ server: CalDAVTestServer) throws -> [String: String] {
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    var etags: [String: String] = [:]
    for member in try session.members(of: server.collectionURL) {
      etags[member.url.path] = member.etag
    }
    return etags
  }

  static func summary(new: Int, changed: Int, unchanged: Int) -> String {
    "pushed: \(new) new, \(changed) changed, \(unchanged) unchanged, 0 deleted, 0 conflicts, 0 refused\n"
  }

  @Test(
    "the same list pushed on later days sends nothing; one changed alarm sends one PUT",
    arguments: CalDAVTestServer.Kind.allCases)
  func dailyPush(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let file = try temporaryFolder().appendingPathComponent("alarms.json").path
    try Self.list().write(toFile: file, atomically: true, encoding: .utf8)
    let first = try Self.push(file, server, now: "2026-12-01T12:00:00Z")
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout == Self.summary(new: 5, changed: 0, unchanged: 0))
    let written = try Self.etags(server)
    #expect(written.count == 5)
    // The once-ringing alarm rings at the first 04:50 after the first push.
    let flight = try SyncJointsTests.serverText(server, uid: "flight")
    #expect(flight?.contains("DTSTART;TZID=Europe/Berlin:20261202T045000") == true)

    // The next day, and today (the default --now): nothing sent, nothing changed there.
    for now in ["2026-12-02T12:00:00Z", nil] {
      let again = try Self.push(file, server, now: now)
      #expect(again.status == 0, "\(again.stderr)")
      #expect(again.stderr == "")
      #expect(again.stdout == Self.summary(new: 0, changed: 0, unchanged: 5))
      #expect(try Self.etags(server) == written)
    }

    // One repeating alarm changed: one PUT, the others keep their ETags.
    try Self.list(workTime: "06:40").write(toFile: file, atomically: true, encoding: .utf8)
    let edit = try Self.push(file, server, now: "2026-12-03T12:00:00Z")
    #expect(edit.status == 0, "\(edit.stderr)")
    #expect(edit.stdout == Self.summary(new: 0, changed: 1, unchanged: 4))
    let edited = try Self.etags(server)
    let resent = edited.filter { written[$0.key] != $0.value }.keys
    #expect(resent.map { URL(fileURLWithPath: $0).lastPathComponent } == ["work.ics"])

    // The once-ringing alarm's time changed: a new date, from this push's --now.
    try Self.list(flightTime: "05:10", workTime: "06:40").write(
      toFile: file, atomically: true, encoding: .utf8)
    let moved = try Self.push(file, server, now: "2026-12-04T12:00:00Z")
    #expect(moved.stdout == Self.summary(new: 0, changed: 1, unchanged: 4))
    let flightMoved = try SyncJointsTests.serverText(server, uid: "flight")
    #expect(flightMoved?.contains("DTSTART;TZID=Europe/Berlin:20261205T051000") == true)
    let after = try Self.push(file, server, now: "2026-12-09T12:00:00Z")
    #expect(after.stdout == Self.summary(new: 0, changed: 0, unchanged: 5))
  }

  @Test(
    "lost state on a later day: the server's copies differing only in DTSTAMP are adopted",
    arguments: CalDAVTestServer.Kind.allCases)
  func adoptionIgnoresStamp(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let file = try temporaryFolder().appendingPathComponent("alarms.json").path
    // Without the once-ringing alarm, whose date moves when nothing remembers it, and the done
    // task, whose COMPLETED is the export's moment.
    let list = Self.list().replacingOccurrences(
      of: #"{"id": "flight", "time": "04:50", "repeat": [], "label": "Flight"},"#, with: ""
    ).replacingOccurrences(of: "\"completed\": true", with: "\"completed\": false")
    try list.write(toFile: file, atomically: true, encoding: .utf8)
    #expect(try Self.push(file, server, now: "2026-12-01T12:00:00Z").status == 0)
    try FileManager.default.removeItem(atPath: CalDAVStatePath.of(file))
    let again = try Self.push(file, server, now: "2026-12-02T12:00:00Z")
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout == Self.summary(new: 0, changed: 0, unchanged: 4))
    let next = try Self.push(file, server, now: "2026-12-03T12:00:00Z")
    #expect(next.stdout == Self.summary(new: 0, changed: 0, unchanged: 4))
  }

  @Test(
    "a file's own values are sent as they are: a once-ringing alarm moved in an .ics is sent",
    arguments: CalDAVTestServer.Kind.allCases)
  func fileValuesSent(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let event =
      "BEGIN:VEVENT\r\nUID:once\r\nDTSTAMP:20261201T000000Z\r\nDTSTART:20261202T045000Z\r\n"
      + "DURATION:PT1M\r\nX-ALARMCAL-RINGS:ONCE\r\nSUMMARY:Flight\r\nEND:VEVENT\r\n"
    let file = try CalDAVScopeTests.alarmsFile(CalDAVScopeTests.calendar([event]))
    #expect(
      try Self.push(file, server, now: nil).stdout == Self.summary(new: 1, changed: 0, unchanged: 0)
    )
    let moved = CalDAVScopeTests.calendar([
      event.replacingOccurrences(of: "DTSTART:20261202", with: "DTSTART:20261206")
    ])
    try moved.write(toFile: file, atomically: true, encoding: .utf8)
    let push = try Self.push(file, server, now: nil)
    #expect(push.status == 0, "\(push.stderr)")
    #expect(push.stdout == Self.summary(new: 0, changed: 1, unchanged: 0))
    let text = try SyncJointsTests.serverText(server, uid: "once")
    #expect(text?.contains("DTSTART:20261206T045000Z") == true)
  }

  @Test("a field one edit away from a known name: convert's warning from upcoming and push too")
  func nearMissWarned() throws {
    let server = try CalDAVTestServer(.radicale)
    defer { server.stopAndRemove() }
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent("alarms.json").path
    try
      #"{"timeZone": "UTC", "alarms": [{"id": "a", "time": "07:00", "repeat": ["mon"], "lable": "Wake"}]}"#
      .write(toFile: file, atomically: true, encoding: .utf8)
    let warning =
      ": warning: \(file): alarm 1: field \"lable\" is not one alarmcal knows; did you mean \"label\"? It is kept as it is\n"
    let now = ["--now", "2026-12-01T00:00:00Z"]
    let convert = try runBinary(
      ["convert", file, "-o", folder.appendingPathComponent("a.ics").path] + now)
    #expect(convert.status == 0)
    #expect(convert.stderr == "alarmcal convert" + warning)
    let upcoming = try runBinary(
      ["upcoming", file, "--from", "2026-12-01T00:00:00Z", "--to", "2026-12-08T00:00:00Z"] + now)
    #expect(upcoming.status == 0)
    #expect(upcoming.stderr == "alarmcal upcoming" + warning)
    let push = try Self.push(file, server, now: "2026-12-01T00:00:00Z")
    #expect(push.status == 0)
    #expect(push.stderr == "alarmcal push" + warning)
    #expect(push.stdout == Self.summary(new: 1, changed: 0, unchanged: 0))
  }

  @Test("a create's 412 with what was sent on the server is that write (a retry met its first)")
  func retriedCreate() throws {
    typealias Scope = CalDAVScopeTests
    // As after a PUT whose answer was lost: the retry's If-None-Match: * meets the first
    // attempt's copy. a's copy is what was sent (in another order, another DTSTAMP); b's is not.
    let sentA = Scope.calendar([Scope.event("a", list: "alarms")])
      .replacingOccurrences(of: "DTSTAMP:20270101T000000Z", with: "DTSTAMP:20270102T000000Z")
      .replacingOccurrences(of: "SUMMARY:Wake\r\n", with: "")
      .replacingOccurrences(of: "BEGIN:VEVENT\r\n", with: "BEGIN:VEVENT\r\nSUMMARY:Wake\r\n")
    let otherB = Scope.calendar([Scope.event("b", summary: "Theirs", list: "alarms")])
    let server = try ScriptedServer(
      rules: [
        .init("PUT", "/cal/a.ics", status: 412), .init("PUT", "/cal/b.ics", status: 412),
        .init(
          "REPORT", "/cal/", status: 207,
          body: Scope.multistatus([
            Scope.response("/cal/a.ics", etag: "\"7\"", data: sentA),
            Scope.response("/cal/b.ics", etag: "\"8\"", data: otherB),
          ])),
      ] + Scope.collection([]))
    let collection = server.baseURL.appendingPathComponent("cal/").absoluteString
    let file = try Scope.alarmsFile(Scope.calendar([Scope.event("a"), Scope.event("b")]))
    let push = try Scope.run(["push", file, "--url", collection])
    #expect(push.status == 1, "\(push.stderr)")
    #expect(
      push.stdout == "pushed: 1 new, 0 changed, 0 unchanged, 0 deleted, 1 conflicts, 0 refused\n")
    #expect(
      push.stderr
        == "alarmcal push: error: conflict: b (\(collection)b.ics): changed on the server since it was read; not overwritten (pull first, or push --overwrite to replace the server's copy)\n"
    )
    let recorded = try SyncJointsTests.recorded(of: file)
    #expect(recorded.keys.sorted() == ["/cal/a.ics"])
    #expect(recorded["/cal/a.ics"]?["etag"] as? String == "\"7\"")
  }
}
