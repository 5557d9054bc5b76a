import CalDAV
import CalDAVTestServers
import Foundation
import Testing

/// The client against a loopback server whose every answer is hostile: each is refused with
/// one error, in bounded memory and time.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct HostileServerTests {
  /// Starts `Fixtures/hostile_server.py`, runs `body` with its base URL, stops it.
  func withServer(_ body: (URL) throws -> Void) throws {
    let script = try #require(
      Bundle.module.url(
        forResource: "hostile_server", withExtension: "py", subdirectory: "Fixtures"))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CalDAVTestServer.python)
    process.arguments = [script.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    defer {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    let line = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let port = try #require(Int(line.trimmingCharacters(in: .whitespacesAndNewlines)))
    try body(try #require(URL(string: "http://127.0.0.1:\(port)")))
  }

  func session(maximumBodyBytes: Int = 1 << 20) -> (CalDAVSession, DAVClient) {
    var policy = DAVClientPolicy()
    policy.maximumBodyBytes = maximumBodyBytes
    policy.backoff = 0.01
    policy.timeout = 10
    let client = DAVClient(credentials: nil, policy: policy)
    return (CalDAVSession(client: client), client)
  }

  @Test("an endless body is cut off at the bound")
  func huge() throws {
    try withServer { base in
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
    try withServer { base in
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
    try withServer { base in
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
}
