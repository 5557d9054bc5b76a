import CalDAV
import CalDAVTestServers
import Foundation
import Testing

/// The client against real Radicale and Xandikos servers on loopback.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct DAVServerTests {
  static let event = Array(
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:one@t\r\nDTSTAMP:20270101T000000Z\r\nDTSTART:20270101T070000Z\r\nSUMMARY:One\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
      .utf8)

  @Test(
    "discovery from the server root finds the alarms calendar",
    arguments: CalDAVTestServer.Kind.allCases)
  func discovery(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    let calendars = try session.calendars(from: server.baseURL)
    let alarms = try #require(calendars.first { $0.url.absoluteString.hasSuffix("/alarms/") })
    #expect(alarms.url.absoluteString == server.collectionURL.absoluteString)
    #expect(alarms.name == "Alarms")
    #expect(alarms.components == ["VEVENT", "VTODO"])
    #expect(alarms.offersSync)
  }

  @Test(
    "conditional PUT and DELETE: new, stale ETag is a conflict, current ETag works",
    arguments: CalDAVTestServer.Kind.allCases)
  func conditionalWrites(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    let url = server.collectionURL.appendingPathComponent("one%40t.ics")
    guard case .done(let etag?) = try session.put(Self.event, at: url, replacing: nil) else {
      Issue.record("no ETag from the first PUT")
      return
    }
    #expect(try session.put(Self.event, at: url, replacing: nil) == .conflict)
    let changed = Array(
      String(decoding: Self.event, as: UTF8.self).replacingOccurrences(of: "One", with: "Two").utf8)
    guard case .done(let second?) = try session.put(changed, at: url, replacing: etag) else {
      Issue.record("no ETag from the second PUT")
      return
    }
    #expect(second != etag)
    #expect(try session.put(changed, at: url, replacing: etag) == .conflict)
    #expect(try session.members(of: server.collectionURL).map(\.etag) == [second])
    let objects = try session.calendarObjects(in: server.collectionURL)
    #expect(objects.count == 1)
    #expect(objects.first?.data?.contains("SUMMARY:Two") == true)
    #expect(try session.delete(url, etag: etag) == .conflict)
    #expect(try session.delete(url, etag: second) == .done(etag: nil))
    #expect(try session.members(of: server.collectionURL).isEmpty)
  }

  @Test(
    "sync-collection after a change lists only the change",
    arguments: CalDAVTestServer.Kind.allCases)
  func sync(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let session = CalDAVSession(client: DAVClient(credentials: server.credentials))
    let first = server.collectionURL.appendingPathComponent("one.ics")
    let second = server.collectionURL.appendingPathComponent("two.ics")
    _ = try session.put(Self.event, at: first, replacing: nil)
    let token = try #require(try session.syncToken(of: server.collectionURL))
    let two = Array(
      String(decoding: Self.event, as: UTF8.self).replacingOccurrences(of: "one@t", with: "two@t")
        .utf8)
    _ = try session.put(two, at: second, replacing: nil)
    let changes = try #require(try session.changes(in: server.collectionURL, since: token))
    #expect(changes.changed.map(\.url.lastPathComponent) == ["two.ics"])
    #expect(changes.removed.isEmpty)
    #expect(changes.token != token)
    #expect(try session.changes(in: server.collectionURL, since: "garbage") == nil)
  }

  @Test("a wrong password is a 401 on Radicale")
  func wrongPassword() throws {
    let server = try CalDAVTestServer(.radicale)
    defer { server.stopAndRemove() }
    let session = CalDAVSession(
      client: DAVClient(credentials: Credentials(user: "alice", password: "wrong")))
    #expect(throws: DAVError.unauthorized(url: server.collectionURL.absoluteString)) {
      try session.members(of: server.collectionURL)
    }
  }

  @Test("a stopped server is unreachable after the bounded retries")
  func unreachable() throws {
    let server = try CalDAVTestServer(.radicale)
    server.stopAndRemove()
    var policy = DAVClientPolicy()
    policy.backoff = 0.05
    let client = DAVClient(credentials: server.credentials, policy: policy)
    let session = CalDAVSession(client: client)
    #expect {
      try session.members(of: server.collectionURL)
    } throws: { error in
      if case .unreachable = error as? DAVError { return true }
      return false
    }
    #expect(client.requestCount == 4)
  }
}
