import CalDAV
import Foundation

/// A real CalDAV server on loopback for one test: Radicale (htpasswd authentication, user
/// `alice`), Xandikos (no authentication over HTTP) or Cyrus IMAP (sasldb, user `alice`), with
/// a fresh storage folder and one empty calendar, `alarms`. Radicale and Xandikos run from the
/// Python environment `scripts/setup` makes; Cyrus from Debian's packages, which it installs,
/// through `scripts/cyrus-server`.
public final class CalDAVTestServer: @unchecked Sendable {
  // @unchecked: the process is only touched by `stop()`, which runs once.

  /// Which server.
  public enum Kind: String, Sendable, CustomStringConvertible {
    case radicale
    case xandikos
    case cyrus

    /// The servers every CalDAV test runs on: the two from the Python environment. Cyrus is
    /// left out because it refuses some of what alarmcal writes (a VEVENT with DTSTART and no
    /// DTEND or DURATION gets 403); its tests name it, or use `everyServer`.
    public static let allCases: [Kind] = [.radicale, .xandikos]

    /// Every server, Cyrus too.
    public static let everyServer: [Kind] = allCases + [.cyrus]

    /// Its name.
    public var description: String { rawValue }
  }

  /// Why a server could not be started.
  public struct StartError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
  }

  /// Which server this is.
  public let kind: Kind
  /// `http://127.0.0.1:PORT/`.
  public let baseURL: URL
  /// The principal's URL.
  public let principalURL: URL
  /// The `alarms` calendar collection.
  public let collectionURL: URL
  /// The user name (Radicale and Cyrus check it; Xandikos ignores it).
  public let user = "alice"
  /// The password.
  public let password = "secret"
  /// The storage folder.
  public let folder: URL
  private let process: Process
  /// Cyrus only: the helper's standard input, whose end stops it; and master's process group.
  private let cyrusControl: (input: FileHandle, group: pid_t)?
  private let stopped = NSLock()
  private var isStopped = false

  /// The Python environment with the servers: `ALARMCAL_CALDAV_VENV`, else the one
  /// `scripts/setup` makes in `~/.cache/alarmcal/caldav-venv`.
  public static var venv: String {
    if let path = ProcessInfo.processInfo.environment["ALARMCAL_CALDAV_VENV"], !path.isEmpty {
      return path
    }
    let cache =
      ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]
      ?? (NSHomeDirectory() + "/.cache")
    return cache + "/alarmcal/caldav-venv"
  }

  /// The environment's python.
  public static var python: String { venv + "/bin/python" }

  /// Whether `ALARMCAL_REQUIRE_SERVERS=1`: then a missing server fails the tests.
  public static var required: Bool {
    ProcessInfo.processInfo.environment["ALARMCAL_REQUIRE_SERVERS"] == "1"
  }

  /// Whether the server tests run: the environment exists, or it is required (and its absence
  /// then fails each test).
  public static var shouldRun: Bool {
    required || FileManager.default.isExecutableFile(atPath: python)
  }

  /// Cyrus's programs: `ALARMCAL_CYRUS_BIN`, else where Debian's cyrus-common puts them.
  public static var cyrusPrograms: String {
    ProcessInfo.processInfo.environment["ALARMCAL_CYRUS_BIN"].flatMap { $0.isEmpty ? nil : $0 }
      ?? "/usr/lib/cyrus/bin"
  }

  /// Whether the Cyrus tests run: Cyrus is installed, or servers are required (and its absence
  /// then fails each test).
  public static var cyrusShouldRun: Bool {
    required || FileManager.default.isExecutableFile(atPath: cyrusPrograms + "/master")
  }

  /// `scripts/cyrus-server`, which starts a private Cyrus.
  static let cyrusScript = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/cyrus-server")

  /// Starts a server of `kind` and creates its `alarms` calendar. `radicaleOptions` are added
  /// to Radicale's command line (such as `--server-max-content-length`); other kinds take none.
  public init(_ kind: Kind, radicaleOptions: [String] = []) throws {
    self.kind = kind
    guard kind != .cyrus else {
      // The helper makes the calendar too.
      let cyrus = try Self.startCyrus()
      (process, cyrusControl, folder) = (cyrus.process, cyrus.control, cyrus.folder)
      (baseURL, principalURL, collectionURL) = (cyrus.base, cyrus.principal, cyrus.collection)
      return
    }
    cyrusControl = nil
    guard FileManager.default.isExecutableFile(atPath: Self.python) else {
      throw StartError(description: "no python at \(Self.python); run scripts/setup")
    }
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("alarmcal-\(kind)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let port = try Self.freePort()
    let data = folder.appendingPathComponent("data").path
    let arguments: [String]
    if kind == .radicale {
      let users = folder.appendingPathComponent("users").path
      try Data("alice:secret\n".utf8).write(to: URL(fileURLWithPath: users))
      arguments =
        [
          "-m", "radicale", "--config", "", "--server-hosts", "127.0.0.1:\(port)",
          "--storage-filesystem-folder", data, "--auth-type", "htpasswd",
          "--auth-htpasswd-filename", users, "--auth-htpasswd-encryption", "plain",
          "--auth-delay", "0", "--rights-type", "owner_only", "--logging-level", "warning",
        ] + radicaleOptions
      principalURL = try Self.url("http://127.0.0.1:\(port)/alice/")
    } else {
      arguments = [
        "-m", "xandikos", "serve", "-d", data, "--defaults", "-l", "127.0.0.1", "-p", "\(port)",
        "--current-user-principal", "/user/", "--state-dir",
        folder.appendingPathComponent("xstate").path, "--no-detect-systemd",
      ]
      principalURL = try Self.url("http://127.0.0.1:\(port)/user/")
    }
    baseURL = try Self.url("http://127.0.0.1:\(port)/")
    collectionURL = try Self.url(
      kind == .radicale
        ? "http://127.0.0.1:\(port)/alice/alarms/"
        : "http://127.0.0.1:\(port)/user/calendars/alarms/")
    process = Process()
    process.executableURL = URL(fileURLWithPath: Self.python)
    process.arguments = arguments
    let log = folder.appendingPathComponent("server.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let logHandle = try FileHandle(forWritingTo: log)
    process.standardOutput = logHandle
    process.standardError = logHandle
    try process.run()
    do {
      try waitUntilReady(log: log)
      try makeCalendar()
    } catch {
      stop()
      throw error
    }
  }

  deinit { stop() }

  /// Credentials that the server accepts.
  public var credentials: Credentials { Credentials(user: user, password: password) }

  /// Stops the server at once (SIGKILL: the test runner's threads block SIGTERM, and a child
  /// inherits that mask), then waits for it; later calls do nothing. Cyrus's helper is asked
  /// first, by the end of its input: it stops master's whole process group and removes its
  /// folder; if it has not exited within 10 s, the group and the helper are killed.
  public func stop() {
    stopped.lock()
    defer { stopped.unlock() }
    guard !isStopped else { return }
    isStopped = true
    if let cyrusControl {
      try? cyrusControl.input.close()
      let deadline = Date().addingTimeInterval(10)
      while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
      if process.isRunning { kill(-cyrusControl.group, SIGKILL) }
    }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  /// Removes the storage folder too.
  public func stopAndRemove() {
    stop()
    try? FileManager.default.removeItem(at: folder)
  }

  private func waitUntilReady(log: URL) throws {
    var policy = DAVClientPolicy()
    policy.timeout = 2
    policy.retries = 0
    let client = DAVClient(credentials: credentials, policy: policy)
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      guard process.isRunning else {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw StartError(description: "\(kind) exited at start: \(text.suffix(600))")
      }
      if (try? client.send(HTTPRequest(method: "OPTIONS", url: baseURL))) != nil { return }
      Thread.sleep(forTimeInterval: 0.1)
    }
    throw StartError(description: "\(kind) did not answer within 30 s")
  }

  private func makeCalendar() throws {
    let body = """
      <?xml version="1.0" encoding="utf-8"?>
      <C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>
      <D:displayname>Alarms</D:displayname><C:supported-calendar-component-set>
      <C:comp name="VEVENT"/><C:comp name="VTODO"/></C:supported-calendar-component-set>
      </D:prop></D:set></C:mkcalendar>
      """
    let client = DAVClient(credentials: credentials)
    let response = try client.send(
      HTTPRequest(
        method: "MKCALENDAR", url: collectionURL,
        headers: ["Content-Type": "application/xml; charset=utf-8"], body: Array(body.utf8)))
    guard response.status == 201 else {
      throw StartError(description: "MKCALENDAR \(collectionURL) answered \(response.status)")
    }
  }

  /// What `startCyrus` gives `init`.
  private struct CyrusLaunch {
    let process: Process
    let control: (input: FileHandle, group: pid_t)
    let folder: URL
    let base: URL
    let principal: URL
    let collection: URL
  }

  /// Runs `scripts/cyrus-server` and reads the JSON line it prints when ready (it gives up
  /// after 30 s of starting, and then exits); on any failure the helper is stopped.
  private static func startCyrus() throws -> CyrusLaunch {
    let process = Process()
    process.executableURL = cyrusScript
    process.arguments = ["--timeout", "30"]
    var environment = ProcessInfo.processInfo.environment
    environment["ALARMCAL_CYRUS_BIN"] = cyrusPrograms
    process.environment = environment
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let fail = { (reason: String) -> StartError in
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
      let text = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      return StartError(description: "cyrus: \(reason) \(text.suffix(600))")
    }
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { throw fail("the helper exited at start:") }
      line.append(chunk)
    }
    guard
      let ready = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
      let group = (ready["pgid"] as? NSNumber)?.int32Value,
      let folder = ready["folder"] as? String,
      let base = (ready["base_url"] as? String).flatMap(URL.init(string:)),
      let principal = (ready["principal_url"] as? String).flatMap(URL.init(string:)),
      let collection = (ready["collection_url"] as? String).flatMap(URL.init(string:))
    else { throw fail("unreadable ready line \(String(decoding: line, as: UTF8.self))") }
    return CyrusLaunch(
      process: process, control: (input.fileHandleForWriting, group),
      folder: URL(fileURLWithPath: folder), base: base, principal: principal,
      collection: collection)
  }

  /// A loopback port nobody listens on (python binds port 0 and reports what it got).
  private static func freePort() throws -> Int {
    let finder = Process()
    finder.executableURL = URL(fileURLWithPath: python)
    finder.arguments = [
      "-c",
      "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])",
    ]
    let pipe = Pipe()
    finder.standardOutput = pipe
    try finder.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    finder.waitUntilExit()
    guard
      let port = Int(
        String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    else { throw StartError(description: "no free port found") }
    return port
  }

  private static func url(_ text: String) throws -> URL {
    guard let url = URL(string: text) else { throw StartError(description: "bad URL \(text)") }
    return url
  }
}
