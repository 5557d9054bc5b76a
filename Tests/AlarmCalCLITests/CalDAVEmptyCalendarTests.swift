import CalDAVTestServers
import Foundation
import Testing

/// A new, empty calendar reads as an empty calendar, not as data that is no iCalendar.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct CalDAVEmptyCalendarTests {
  @Test(
    "an empty calendar pulls as an empty VCALENDAR; upcoming --url finds nothing, exit 0",
    arguments: CalDAVTestServer.Kind.allCases)
  func emptyCalendar(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let url = server.collectionURL.absoluteString
    let target = try temporaryFolder().appendingPathComponent("pulled.ics").path
    let pull = try CalDAVEndToEndTests.run(["pull", "--url", url, "-o", target], server)
    #expect(pull.status == 0, "\(pull.stderr)")
    #expect(pull.stdout == "pulled: 0 resources (full read)\n")
    #expect(
      try String(contentsOfFile: target, encoding: .utf8)
        == "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//alarmcal//alarmcal 0.1//EN\r\nEND:VCALENDAR\r\n"
    )
    let upcoming = try CalDAVEndToEndTests.run(
      ["upcoming", "--url", url] + CalDAVEndToEndTests.window, server)
    #expect(upcoming.status == 0, "\(upcoming.stderr)")
    #expect(upcoming.stdout.isEmpty && upcoming.stderr.isEmpty)
    // Pulled again (now incrementally, where the server offers it), and pushed back: nothing.
    #expect(try CalDAVEndToEndTests.run(["pull", "--url", url, "-o", target], server).status == 0)
    let push = try CalDAVEndToEndTests.run(["push", target, "--url", url], server)
    #expect(
      push.stdout == "pushed: 0 new, 0 changed, 0 unchanged, 0 deleted, 0 conflicts, 0 refused\n")
  }
}
