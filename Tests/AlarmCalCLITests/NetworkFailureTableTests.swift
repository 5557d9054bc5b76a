import CalDAVTestServers
import Foundation
import Testing

/// The failure classes only a CalDAV server can produce, for every command that talks to one,
/// against a real Radicale on loopback: refused credentials (77) and a server that refuses a
/// resource this large (73). Statuses and message shapes are the table's in docs/failures.md,
/// written out here again; unreachable servers (69) are in ``FailureTableTests``.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct NetworkFailureTableTests {
  /// A command line against the server (`@` stands for the test's folder, `URL` for the
  /// collection, `BASE` for the server's root).
  static let refusedRows: [[String]] = [
    ["calendars", "--url", "BASE"],
    ["push", "@/small.ics", "--url", "URL"],
    ["pull", "--url", "URL", "-o", "@/new.ics"],
    ["upcoming", "--url", "URL"],
  ]

  /// A folder with a small calendar and one whose event is larger than the server takes.
  static func folder() throws -> URL {
    let folder = try temporaryFolder()
    let event = { (uid: String, description: String) in
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//alarmcal//tests//EN", "BEGIN:VEVENT",
        "UID:\(uid)", "DTSTAMP:20261201T000000Z", "DTSTART:20261208T070000Z",
        "SUMMARY:Wake up", "DESCRIPTION:\(description)", "BEGIN:VALARM", "ACTION:DISPLAY",
        "DESCRIPTION:Wake up", "TRIGGER:PT0S", "END:VALARM", "END:VEVENT", "END:VCALENDAR", "",
      ].joined(separator: "\r\n")
    }
    try event("small-1", "short").write(
      to: folder.appendingPathComponent("small.ics"), atomically: true, encoding: .utf8)
    // 8,000 octets of description, folded: far over the 4,000 the server below accepts.
    let long = String(repeating: "a", count: 8_000)
    let folded = stride(from: 0, to: long.count, by: 60).map { start -> String in
      let begin = long.index(long.startIndex, offsetBy: start)
      let end = long.index(begin, offsetBy: min(60, long.count - start))
      return String(long[begin..<end])
    }.joined(separator: "\r\n ")
    try event("large-1", folded).write(
      to: folder.appendingPathComponent("large.ics"), atomically: true, encoding: .utf8)
    return folder
  }

  static func arguments(_ row: [String], folder: URL, server: CalDAVTestServer) -> [String] {
    row.map {
      $0.replacingOccurrences(of: "@", with: folder.path)
        .replacingOccurrences(of: "BASE", with: server.baseURL.absoluteString)
        .replacingOccurrences(of: "URL", with: server.collectionURL.absoluteString)
    } + ["--user", server.user]
  }

  /// The lines on standard error that are neither warnings nor notes.
  static func errors(_ stderr: String) -> [String] {
    stderr.split(separator: "\n").map(String.init).filter {
      !$0.contains(": warning: ") && !$0.contains(": note: ")
    }
  }

  @Test("refused credentials: 77 and one error line naming the URL and the 401", arguments: 0..<4)
  func refused(row: Int) throws {
    let server = try CalDAVTestServer(.radicale)
    defer { server.stopAndRemove() }
    let folder = try Self.folder()
    let arguments = Self.arguments(Self.refusedRows[row], folder: folder, server: server)
    let result = try runBinary(
      arguments, environment: ["ALARMCAL_PASSWORD": "wrong-horse", "HOME": folder.path])
    let command = arguments[0]
    #expect(result.status == 77, "\(result.stderr)")
    let errors = Self.errors(result.stderr)
    #expect(errors.count == 1, "\(result.stderr)")
    let pattern = try Regex(
      #"alarmcal \#(command): error: http://127\.0\.0\.1:\d+/\S*: 401 Unauthorized: .*"#)
    #expect(errors.first?.wholeMatch(of: pattern) != nil, "\(result.stderr)")
    #expect(
      result.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("alarmcal \(command): ") })
    #expect(!(result.stdout + result.stderr).contains("wrong-horse"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("new.ics").path))
  }

  @Test("a resource larger than the server takes: 73, the server's own status named")
  func tooLarge() throws {
    let server = try CalDAVTestServer(
      .radicale, radicaleOptions: ["--server-max-content-length", "4000"])
    defer { server.stopAndRemove() }
    let folder = try Self.folder()
    // The small calendar goes in: the limit is on the request, not the collection.
    let small = try runBinary(
      Self.arguments(["push", "@/small.ics", "--url", "URL"], folder: folder, server: server),
      environment: ["ALARMCAL_PASSWORD": server.password, "HOME": folder.path])
    #expect(small.status == 0, "\(small.stderr)")
    let large = try runBinary(
      Self.arguments(["push", "@/large.ics", "--url", "URL"], folder: folder, server: server),
      environment: ["ALARMCAL_PASSWORD": server.password, "HOME": folder.path])
    #expect(large.status == 73, "\(large.stderr)")
    let errors = Self.errors(large.stderr)
    #expect(errors.count == 1, "\(large.stderr)")
    // RFC 9110 §15.5.14: 413 is this request's content, not a full server (507).
    let pattern = try Regex(
      #"alarmcal push: error: http://127\.0\.0\.1:\d+/\S+\.ics: 413 Content Too Large: .*"#)
    #expect(errors.first?.wholeMatch(of: pattern) != nil, "\(large.stderr)")
  }
}
