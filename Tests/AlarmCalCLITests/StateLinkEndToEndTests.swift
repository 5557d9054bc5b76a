import CalDAVTestServers
import Foundation
import Testing

/// push and pull with their state file (`.FILE.caldav.json`) replaced by a symbolic link to
/// the calendar: the state is not written through it (issue 37, item 5).
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct StateLinkEndToEndTests {
  private func run(_ arguments: [String], _ server: CalDAVTestServer) throws -> RunResult {
    try runBinary(
      arguments + ["--user", server.user],
      environment: ["ALARMCAL_PASSWORD": server.password, "HOME": "/nonexistent"])
  }

  @Test("push and pull refuse a state file that is a link, and the calendar keeps its text")
  func linkedState() throws {
    let server = try CalDAVTestServer(.radicale)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent("s.ics").path
    try FileManager.default.copyItem(
      atPath: samplesFolder.appendingPathComponent("nextcloud.ics").path, toPath: file)
    let link = folder.appendingPathComponent(".s.ics.caldav.json").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "s.ics")
    let before = try Data(contentsOf: URL(fileURLWithPath: file))
    let refusal =
      ": error: \(link): is a symbolic link; alarmcal neither reads nor writes through it (remove it)\n"

    // Refused as the state is read, before anything is sent: unusable input data.
    let push = try run(["push", file, "--url", url], server)
    #expect(push.status == 65)
    #expect(push.stderr == "alarmcal push" + refusal)
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)

    let pull = try run(["pull", "--url", url, "-o", file], server)
    #expect(pull.status == 65)
    #expect(pull.stderr == "alarmcal pull" + refusal)
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
    var status = stat()
    #expect(lstat(link, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
  }
}
