import CalDAV
import CalDAVTestServers
import Foundation
import Testing

/// The client against a loopback server whose every answer is hostile: each is refused with
/// one error, in bounded memory and time.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct HostileServerTests {
  func session(maximumBodyBytes: Int = 1 << 20, transport: TransportCommand? = nil) -> (
    CalDAVSession, DAVClient
  ) {
    var policy = DAVClientPolicy()
    policy.transportCommand = transport
    policy.maximumBodyBytes = maximumBodyBytes
    policy.backoff = 0.01
    policy.timeout = 10
    let client = DAVClient(credentials: nil, policy: policy)
    return (CalDAVSession(client: client), client)
  }

  @Test("a body far past the bound is cut off at the bound")
  func huge() throws {
    try HostileServer.withServer { base in
      let (session, _) = session()
      let url = base.appendingPathComponent("huge")
      #expect(throws: DAVError.bodyTooLarge(url: url.absoluteString, limit: 1 << 20)) {
        try session.members(of: url)
      }
    }
  }

  @Test(
    "truncated, an XML bomb, HTML: one bad-response error each",
    arguments: ["truncated", "bomb", "html"])
  func badBodies(path: String) throws {
    try HostileServer.withServer { base in
      let (session, _) = session()
      #expect {
        try session.members(of: base.appendingPathComponent(path))
      } throws: { error in
        guard case .badResponse = error as? DAVError else { return false }
        return true
      }
    }
  }

  @Test("a redirect to another host is not followed; a 503 is retried 3 times, then reported")
  func redirectAndRetries() throws {
    try HostileServer.withServer { base in
      let (session, client) = session()
      let redirect = base.appendingPathComponent("redirect")
      #expect(
        throws: DAVError.redirectRefused(
          url: redirect.absoluteString, location: "http://elsewhere.example/")
      ) { try session.members(of: redirect) }
      let before = client.requestCount
      let flaky = base.appendingPathComponent("flaky")
      #expect(throws: DAVError.status(503, url: flaky.absoluteString)) {
        try session.members(of: flaky)
      }
      #expect(client.requestCount - before == 4)
    }
  }

  @Test("an answer cut off inside its header lines is a lost connection, in a child process")
  func cutHeaders() throws {
    // FoundationNetworking ends the process on this answer, so only the transport process
    // may meet it: `alarmcal _http-transport`, as the CLI runs it.
    let folder = try #require(Bundle.main.executableURL).deletingLastPathComponent()
    let binary = folder.appendingPathComponent("alarmcal")
    try #require(FileManager.default.isExecutableFile(atPath: binary.path), "\(folder.path)")
    try HostileServer.withServer { base in
      let (session, client) = session(
        transport: TransportCommand(executable: binary, arguments: ["_http-transport"]))
      let url = base.appendingPathComponent("cut-headers")
      #expect(throws: DAVError.unreachable(url: url.absoluteString, reason: "connection lost")) {
        try session.members(of: url)
      }
      #expect(client.requestCount == 4)
      // The transport starts again for the next request.
      let flaky = base.appendingPathComponent("flaky")
      #expect(throws: DAVError.status(503, url: flaky.absoluteString)) {
        try session.members(of: flaky)
      }
    }
  }
}
