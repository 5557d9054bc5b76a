import CalDAV
import CalDAVTestServers
import Foundation
import Testing

/// A server that trickles its answer never keeps a request past the policy's deadline, in
/// this process or in the transport process.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct TransportDeadlineTests {
  /// The built `alarmcal`, whose `_http-transport` command is the transport process.
  static func transportCommand() throws -> TransportCommand {
    let folder = try #require(Bundle.main.executableURL).deletingLastPathComponent()
    let binary = folder.appendingPathComponent("alarmcal")
    try #require(FileManager.default.isExecutableFile(atPath: binary.path), "\(folder.path)")
    return TransportCommand(executable: binary, arguments: ["_http-transport"])
  }

  @Test(
    "one byte a second: timed out at the deadline, retries included",
    arguments: [false, true])
  func trickle(inChild: Bool) throws {
    var policy = DAVClientPolicy()
    policy.transportCommand = inChild ? try Self.transportCommand() : nil
    policy.deadline = 3
    policy.backoff = 0.01
    try HostileServer.withServer { base in
      let client = DAVClient(credentials: nil, policy: policy)
      let session = CalDAVSession(client: client)
      let url = base.appendingPathComponent("trickle")
      let start = Date()
      #expect(throws: DAVError.timedOut(url: url.absoluteString)) {
        try session.members(of: url)
      }
      // Well past the 3 s deadline, far short of the minute a single try would trickle for.
      #expect(Date().timeIntervalSince(start) < 20)
    }
  }
}
