import Foundation

/// `scripted_server.py` (next to this file) on loopback: answers by rules the test sets (and
/// may change between requests), and records every request it gets, so a test can show what
/// was, or was not, sent to it.
public final class ScriptedServer {
  /// How to answer a request: the first rule whose method, path (or path prefix) and `Depth`
  /// match answers; no rule, a 404.
  public struct Rule: Encodable, Sendable {
    let method: String
    let path: String
    let prefix: Bool
    let depth: String?
    let status: Int
    let headers: [String: String]
    let body: String

    /// A rule; `path` ending in `*` matches every path that starts with the rest.
    public init(
      _ method: String, _ path: String, depth: String? = nil, status: Int,
      headers: [String: String] = [:], body: String = ""
    ) {
      self.method = method
      self.prefix = path.hasSuffix("*")
      self.path = prefix ? String(path.dropLast()) : path
      self.depth = depth
      self.status = status
      self.headers = headers
      self.body = body
    }
  }

  /// One request as the server got it.
  public struct Request: Decodable, Sendable {
    /// The method.
    public let method: String
    /// The request target as sent.
    public let path: String
    /// Header fields by lower-case name.
    public let headers: [String: String]
    /// The body as text.
    public let body: String
  }

  /// `http://127.0.0.1:PORT`.
  public let baseURL: URL
  /// The port.
  public let port: Int
  private let process: Process
  private let folder: URL
  private let script: URL
  private let log: URL

  /// Starts a server that answers by `rules`.
  public init(rules: [Rule] = []) throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("alarmcal-scripted-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let script = folder.appendingPathComponent("script.json")
    let log = folder.appendingPathComponent("requests.jsonl")
    try JSONEncoder().encode(rules).write(to: script)
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("scripted_server.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CalDAVTestServer.python)
    process.arguments = [source.path, script.path, log.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let line = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)),
      let base = URL(string: "http://127.0.0.1:\(port)")
    else {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      throw CocoaError(.fileReadCorruptFile)
    }
    (self.process, self.folder, self.script, self.log) = (process, folder, script, log)
    self.port = port
    baseURL = base
  }

  deinit { stop() }

  /// Answers by `rules` from now on.
  public func answer(_ rules: [Rule]) throws {
    try JSONEncoder().encode(rules).write(to: script)
  }

  /// Every request received so far, in order.
  public func requests() throws -> [Request] {
    try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map {
      try JSONDecoder().decode(Request.self, from: Data($0.utf8))
    }
  }

  /// Stops the server (SIGKILL, as ``CalDAVTestServer/stop()`` does) and removes its files.
  public func stop() {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: folder)
  }
}
