import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How to start a process that does a ``DAVClient``'s HTTP: a program that calls
/// ``TransportService/serve()`` when run with `arguments`.
///
/// FoundationNetworking ends the whole process with a fatal error on some broken answers (a
/// connection closed inside a response's header lines). In a process of its own, such an end
/// is only a lost connection to the client, which reports it and carries on.
public struct TransportCommand: Sendable {
  /// The program to run.
  public var executable: URL
  /// Its arguments.
  public var arguments: [String]

  /// Creates a command.
  public init(executable: URL, arguments: [String]) {
    self.executable = executable
    self.arguments = arguments
  }
}

/// The child's side: reads requests from standard input, sends each with URLSession, and
/// writes each outcome to standard output, until standard input ends.
public enum TransportService {
  /// Serves until standard input ends; returns the process's exit status (0, or 65 for a
  /// frame it cannot read, 74 when standard output is gone).
  public static func serve() -> Int32 {
    let reader = FrameReader(FileHandle.standardInput)
    var transport: URLSessionTransport?
    defer { transport?.close() }
    while true {
      let frame: (TransportWire.Request, [UInt8])?
      do {
        frame = try reader.next(TransportWire.Request.self, maximumBody: Int.max) { $0.bodyCount }
      } catch {
        return 65
      }
      guard let (header, body) = frame else { return 0 }
      guard let url = URL(string: header.url) else { return 65 }
      let session =
        transport
        ?? URLSessionTransport(timeout: header.timeout, maximumBodyBytes: header.maximumBodyBytes)
      transport = session
      let outcome = session.send(
        HTTPRequest(method: header.method, url: url, headers: header.headers, body: body),
        timeout: header.timeout)
      let (answer, answerBody) = TransportWire.Outcome.encoding(outcome)
      do {
        try TransportWire.write(answer, body: answerBody, to: FileHandle.standardOutput)
      } catch {
        return 74
      }
    }
  }
}

/// The parent's side: one child process at a time, started when first needed and again after
/// it ended. A child that dies or answers nonsense is a lost connection for that request.
final class TransportProcess: HTTPExchanging, @unchecked Sendable {
  // @unchecked: `child` and `closed` are only touched while `lock` is held.
  private struct Child {
    let process: Process
    let input: FileHandle
    let reader: FrameReader
  }

  private let command: TransportCommand
  private let maximumBodyBytes: Int
  private let lock = NSLock()
  private var child: Child?
  private var closed = false

  /// A transport that runs `command` for its exchanges.
  init(command: TransportCommand, maximumBodyBytes: Int) {
    self.command = command
    self.maximumBodyBytes = maximumBodyBytes
  }

  func send(_ request: HTTPRequest, timeout: TimeInterval) -> HTTPOutcome {
    lock.lock()
    defer { lock.unlock() }
    guard !closed else { return .failed(URLError(.cancelled)) }
    let running: Child
    do {
      running = try child ?? start()
    } catch {
      return .failed(
        URLError(
          .unknown,
          userInfo: [
            NSLocalizedDescriptionKey:
              "cannot start \(command.executable.path) for HTTP: \(error.localizedDescription)"
          ]))
    }
    child = running
    do {
      let header = TransportWire.Request(
        method: request.method, url: request.url.absoluteString, headers: request.headers,
        timeout: timeout, maximumBodyBytes: maximumBodyBytes, bodyCount: request.body.count)
      try TransportWire.write(header, body: request.body, to: running.input)
      guard
        let (outcome, body) = try running.reader.next(
          TransportWire.Outcome.self, maximumBody: maximumBodyBytes, bodyCount: { $0.bodyCount })
      else { throw TransportWire.Broken() }
      return outcome.decoded(body: body, requestURL: request.url)
    } catch {
      stop(running, force: true)
      child = nil
      return .failed(
        URLError(
          .networkConnectionLost,
          userInfo: [NSLocalizedDescriptionKey: "the connection broke during the exchange"]))
    }
  }

  func close() {
    lock.lock()
    defer { lock.unlock() }
    closed = true
    if let child { stop(child, force: false) }
    child = nil
  }

  private func start() throws -> Child {
    // Writing to a child that died must fail here, not end this process.
    signal(SIGPIPE, SIG_IGN)
    let process = Process()
    process.executableURL = command.executable
    process.arguments = command.arguments
    // A crash report would only delay the parent, which reports the lost connection itself.
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["SWIFT_BACKTRACE": "enable=no"]) { $1 }
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    return Child(
      process: process, input: input.fileHandleForWriting,
      reader: FrameReader(output.fileHandleForReading))
  }

  /// Ends `child`: its input closed (a healthy child then exits), terminated when `force`,
  /// then waited for.
  private func stop(_ child: Child, force: Bool) {
    try? child.input.close()
    if force, child.process.isRunning { child.process.terminate() }
    child.process.waitUntilExit()
  }
}

/// The frames parent and child exchange over their pipes: one JSON line, then exactly
/// `bodyCount` bytes of body.
enum TransportWire {
  /// A frame that cannot be read, or a stream that ended inside one.
  struct Broken: Error {}

  /// The longest JSON line read.
  static let maximumLineBytes = 1 << 20

  struct Request: Codable {
    var method: String
    var url: String
    var headers: [String: String]
    var timeout: Double
    var maximumBodyBytes: Int
    var bodyCount: Int
  }

  struct Outcome: Codable {
    enum Kind: String, Codable { case response, tooLarge, failed }
    var kind: Kind
    var status = 0
    var headers: [String: String] = [:]
    var url = ""
    var errorCode = 0
    var reason = ""
    var bodyCount = 0

    /// The frame for `outcome`, and its body.
    static func encoding(_ outcome: HTTPOutcome) -> (Outcome, [UInt8]) {
      switch outcome {
      case .response(let response):
        return (
          Outcome(
            kind: .response, status: response.status, headers: response.headers,
            url: response.url.absoluteString, bodyCount: response.body.count),
          response.body
        )
      case .tooLarge:
        return (Outcome(kind: .tooLarge), [])
      case .failed(let error):
        return (
          Outcome(
            kind: .failed, errorCode: error.code.rawValue, reason: error.localizedDescription), []
        )
      }
    }

    /// The outcome this frame stands for.
    func decoded(body: [UInt8], requestURL: URL) -> HTTPOutcome {
      switch kind {
      case .response:
        return .response(
          HTTPResponse(
            status: status, headers: headers, body: body,
            url: URL(string: url) ?? requestURL))
      case .tooLarge:
        return .tooLarge
      case .failed:
        return .failed(
          URLError(
            URLError.Code(rawValue: errorCode) ?? .unknown,
            userInfo: [NSLocalizedDescriptionKey: reason]))
      }
    }
  }

  /// Writes one frame.
  static func write(_ header: some Encodable, body: [UInt8], to handle: FileHandle) throws {
    var bytes = [UInt8](try JSONEncoder().encode(header))
    bytes.append(0x0A)
    bytes.append(contentsOf: body)
    try handle.write(contentsOf: bytes)
  }
}

/// Reads frames from a pipe through its own buffer.
final class FrameReader {
  private let handle: FileHandle
  private var buffer: [UInt8] = []
  private var start = 0
  /// What one read from the pipe lands in.
  private var chunk = [UInt8](repeating: 0, count: 1 << 16)
  init(_ handle: FileHandle) { self.handle = handle }

  /// The next frame, or nil when the stream ends between frames.
  func next<Header: Decodable>(
    _ type: Header.Type, maximumBody: Int, bodyCount: (Header) -> Int
  ) throws -> (Header, [UInt8])? {
    if start > 0 {
      buffer.removeFirst(start)
      start = 0
    }
    guard let line = try line() else { return nil }
    let header = try JSONDecoder().decode(Header.self, from: Data(line))
    let count = bodyCount(header)
    guard count >= 0, count <= maximumBody else { throw TransportWire.Broken() }
    while buffer.count - start < count {
      guard try fill() else { throw TransportWire.Broken() }
    }
    let body = Array(buffer[start..<start + count])
    start += count
    return (header, body)
  }

  private func line() throws -> [UInt8]? {
    var searched = start
    while true {
      if let newline = buffer[searched...].firstIndex(of: 0x0A) {
        let line = Array(buffer[start..<newline])
        start = newline + 1
        return line
      }
      searched = buffer.count
      guard buffer.count - start <= TransportWire.maximumLineBytes else {
        throw TransportWire.Broken()
      }
      guard try fill() else {
        if buffer.count == start { return nil }
        throw TransportWire.Broken()
      }
    }
  }

  /// Reads what the pipe has (FileHandle's reads wait for a whole count); false at its end.
  private func fill() throws -> Bool {
    while true {
      let count = chunk.withUnsafeMutableBytes {
        read(handle.fileDescriptor, $0.baseAddress, $0.count)
      }
      if count > 0 {
        buffer.append(contentsOf: chunk[..<count])
        return true
      }
      if count == 0 { return false }
      guard errno == EINTR else { throw TransportWire.Broken() }
    }
  }
}
