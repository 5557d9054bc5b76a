import Foundation

/// `hostile_server.py` (next to this file) on loopback: every answer is hostile, by path.
public enum HostileServer {
  /// Starts the server (over TLS with the certificate and key files in `tls`), runs `body`
  /// with its base URL, and stops it.
  public static func withServer(
    tls: (certificate: String, key: String)? = nil, _ body: (URL) throws -> Void
  )
    throws
  {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("hostile_server.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CalDAVTestServer.python)
    process.arguments = [script.path] + (tls.map { ["--tls", $0.certificate, $0.key] } ?? [])
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    defer {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    let line = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)),
      let base = URL(string: "\(tls == nil ? "http" : "https")://127.0.0.1:\(port)")
    else { throw CocoaError(.fileReadCorruptFile) }
    try body(base)
  }
}
