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
    #expect(
      first.stdout == "pushed: 2 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    let second = try Self.run(["push", file, "--url", url], server)
    #expect(
      second.stdout == "pushed: 0 new, 0 changed, 2 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
    let pulled = folder.appendingPathComponent("pulled.ics").path
    let pull = try Self.run(["pull", "--url", url, "-o", pulled], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    #expect(pull.stdout == "pulled: 2 resources (full read)\n")
    let original = try Self.firings(file)
    // 12 stand-ups with one alarm each, the dentist with two.
    #expect(original.count == 14)
    #expect(try Self.firings(pulled) == original)
  }

  /// A calendar of one VEVENT with `properties` and an AUDIO alarm at its start.
  static func event(uid: String, _ properties: [String]) -> [UInt8] {
    let lines =
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//alarmcal tests//cyrus//EN", "BEGIN:VEVENT",
        "UID:\(uid)", "DTSTAMP:20261206T080000Z", "SUMMARY:Wake",
      ] + properties + [
        "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:PT0S", "END:VALARM", "END:VEVENT", "END:VCALENDAR",
      ]
    return Array(lines.map { $0 + "\r\n" }.joined().utf8)
  }

  static func put(_ body: [UInt8], at url: URL, _ client: DAVClient) throws -> HTTPResponse {
    try client.send(
      HTTPRequest(
        method: "PUT", url: url, headers: ["Content-Type": "text/calendar; charset=utf-8"],
        body: body))
  }

  /// What Cyrus 3.6 stores: a timed VEVENT must end after it starts (RFC 5545 §3.6.1 lets it
  /// have DTSTART alone, which then takes no time; Cyrus refuses that, and a zero DURATION or
  /// an equal DTEND too). The forms alarmcal can write are pinned here, with their answers.
  static let eventForms: [(label: String, properties: [String], status: Int)] = [
    ("DTSTART alone", ["DTSTART:20261207T063000Z"], 403),
    ("DURATION:PT0S", ["DTSTART:20261207T063000Z", "DURATION:PT0S"], 403),
    ("DTEND equal to DTSTART", ["DTSTART:20261207T063000Z", "DTEND:20261207T063000Z"], 403),
    ("DURATION:PT1M", ["DTSTART:20261207T063000Z", "DURATION:PT1M"], 201),
    (
      "VALUE=DATE-TIME, DTEND a minute later",
      ["DTSTART;VALUE=DATE-TIME:20261207T063000Z", "DTEND;VALUE=DATE-TIME:20261207T063100Z"], 201
    ),
    (
      "weekly, DTSTART alone",
      ["DTSTART:20261207T063000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"], 403
    ),
    (
      "weekly, DTEND a minute later",
      [
        "DTSTART:20261207T063000Z", "DTEND:20261207T063100Z",
        "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
      ], 201
    ),
    // A DATE start alone lasts a day (RFC 5545 §3.6.1), so it is stored.
    ("all day, DTSTART alone", ["DTSTART;VALUE=DATE:20261207"], 201),
  ]

  @Test("Cyrus stores a timed event only if it ends after it starts; refusals say why")
  func eventFormsOnCyrus() throws {
    let server = try CalDAVTestServer(.cyrus)
    defer { server.stopAndRemove() }
    let client = DAVClient(credentials: server.credentials)
    for (index, form) in Self.eventForms.enumerated() {
      let url = server.collectionURL.appendingPathComponent("form-\(index).ics")
      let response = try Self.put(
        Self.event(uid: "form-\(index)@alarmcal.test", form.properties), at: url, client)
      #expect(response.status == form.status, "\(form.label)")
      if form.status == 201 {
        #expect(response.etag != nil, "\(form.label): no ETag")
      } else {
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body.contains("<C:valid-calendar-data/>"), "\(form.label): \(body)")
        #expect(body.contains("DTEND must occur after DTSTART"), "\(form.label): \(body)")
      }
    }
  }

  @Test("a UID is unique in a Cyrus account: a second calendar refuses it, naming the first")
  func uidUniqueAcrossCalendars() throws {
    let server = try CalDAVTestServer(.cyrus)
    defer { server.stopAndRemove() }
    let client = DAVClient(credentials: server.credentials)
    let other = server.collectionURL.deletingLastPathComponent()
      .appendingPathComponent("other", isDirectory: true)
    #expect(try client.send(HTTPRequest(method: "MKCALENDAR", url: other)).status == 201)
    let body = Self.event(
      uid: "same@alarmcal.test", ["DTSTART:20261207T063000Z", "DTEND:20261207T063100Z"])
    let first = server.collectionURL.appendingPathComponent("same.ics")
    #expect(try Self.put(body, at: first, client).status == 201)
    let second = try Self.put(body, at: other.appendingPathComponent("same.ics"), client)
    #expect(second.status == 403)
    let text = String(decoding: second.body, as: UTF8.self)
    #expect(text.contains("<C:unique-scheduling-object-resource><D:href>\(first.path)</D:href>"))
  }

  @Test("stopping ends Cyrus at once (its port is closed) and its helper removes its folder")
  func stopCleansUp() throws {
    let server = try CalDAVTestServer(.cyrus)
    #expect(FileManager.default.fileExists(atPath: server.folder.path))
    var policy = DAVClientPolicy()
    policy.retries = 0
    policy.timeout = 5
    let probe = DAVClient(credentials: server.credentials, policy: policy)
    #expect(try probe.send(HTTPRequest(method: "OPTIONS", url: server.baseURL)).status == 200)
    let start = Date()
    server.stop()
    // The helper stopped master's group and removed the folder itself, well before the 10 s
    // after which `stop` would kill them.
    #expect(Date().timeIntervalSince(start) < 8)
    #expect(!FileManager.default.fileExists(atPath: server.folder.path))
    #expect(throws: DAVError.self) {
      try probe.send(HTTPRequest(method: "OPTIONS", url: server.baseURL))
    }
  }
}
