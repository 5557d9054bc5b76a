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
  ///
  /// The process is made non-dumpable first (it holds the credentials of each request), and
  /// it ends at once when its parent does, even in the middle of an exchange: the parent holds
  /// the only writing end of standard input, and a pipe with no writer left reports a hang-up.
  public static func serve() -> Int32 {
    ProcessHardening.forbidDumps()
    ProcessHardening.exitWhenHungUp(STDIN_FILENO)
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
        timeout: header.timeout, deadline: header.deadline)
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

  /// The seconds past an exchange's deadline that the parent waits for its child's answer
  /// before it ends the child itself.
  static let deadlineGrace: TimeInterval = 5

  func send(_ request: HTTPRequest, timeout: TimeInterval, deadline: TimeInterval)
    -> HTTPOutcome
  {
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
        timeout: timeout, deadline: deadline, maximumBodyBytes: maximumBodyBytes,
        bodyCount: request.body.count)
      try TransportWire.write(header, body: request.body, to: running.input)
      running.reader.deadline =
        DispatchTime.now().uptimeNanoseconds + UInt64((deadline + Self.deadlineGrace) * 1e9)
      guard
        let (outcome, body) = try running.reader.next(
          TransportWire.Outcome.self, maximumBody: maximumBodyBytes, bodyCount: { $0.bodyCount })
      else { throw TransportWire.Broken() }
      return outcome.decoded(body: body, requestURL: request.url)
    } catch {
      stop(running, force: true)
      child = nil
      if error is TransportWire.TimedOut { return .failed(URLError(.timedOut)) }
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

  /// Ends `child`: its input closed (a healthy child then exits), killed when `force`, then
  /// waited for.
  private func stop(_ child: Child, force: Bool) {
    try? child.input.close()
    if force, child.process.isRunning { kill(child.process.processIdentifier, SIGKILL) }
    child.process.waitUntilExit()
  }
}

/// The frames parent and child exchange over their pipes: one JSON line, then exactly
/// `bodyCount` bytes of body.
enum TransportWire {
  /// A frame that cannot be read, or a stream that ended inside one.
  struct Broken: Error {}
  /// No frame within the reader's deadline.
  struct TimedOut: Error {}

  /// The longest JSON line read.
  static let maximumLineBytes = 1 << 20

  struct Request: Codable {
    var method: String
    var url: String
    var headers: [String: String]
    var timeout: Double
    var deadline: Double
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

  /// Writes one frame: its line, then its body (not copied behind the line: it may be large).
  static func write(_ header: some Encodable, body: [UInt8], to handle: FileHandle) throws {
    var line = [UInt8](try JSONEncoder().encode(header))
    line.append(0x0A)
    try handle.write(contentsOf: line)
    if !body.isEmpty { try handle.write(contentsOf: body) }
  }
}

/// Reads frames from a pipe through its own buffer; a frame's body is read straight into an
/// array of its size.
final class FrameReader {
  private let handle: FileHandle
  private var buffer: [UInt8] = []
  private var start = 0
  /// What one read from the pipe lands in.
  private var chunk = [UInt8](repeating: 0, count: 1 << 16)
  /// When set, the uptime (in nanoseconds) after which a read fails with
  /// ``TransportWire/TimedOut``.
  var deadline: UInt64?
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
    let buffered = min(count, buffer.count - start)
    var failure: (any Error)?
    let body = [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
      _ = storage.initialize(fromContentsOf: buffer[start..<start + buffered])
      initialized = buffered
      start += buffered
      while initialized < count {
        do {
          let got = try readSome(
            into: UnsafeMutableRawBufferPointer(
              UnsafeMutableBufferPointer(rebasing: storage[initialized...])))
          guard got > 0 else { throw TransportWire.Broken() }
          initialized += got
        } catch {
          failure = error
          return
        }
      }
    }
    if let failure { throw failure }
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

  /// Reads what the pipe has into the buffer; false at its end.
  private func fill() throws -> Bool {
    let count = try chunk.withUnsafeMutableBytes { try readSome(into: $0) }
    buffer.append(contentsOf: chunk[..<count])
    return count > 0
  }

  /// Reads what the pipe has into `target` (FileHandle's reads wait for a whole count), once
  /// it has something or has ended, waiting no later than `deadline`; 0 at its end.
  private func readSome(into target: UnsafeMutableRawBufferPointer) throws -> Int {
    while true {
      if let deadline {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now < deadline else { throw TransportWire.TimedOut() }
        var poller = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
        let wait = Int32(min((deadline - now) / 1_000_000 + 1, UInt64(Int32.max)))
        let ready = poll(&poller, 1, wait)
        if ready == 0 { continue }
        if ready < 0 {
          guard errno == EINTR else { throw TransportWire.Broken() }
          continue
        }
      }
      let count = read(handle.fileDescriptor, target.baseAddress, target.count)
      if count >= 0 { return count }
      guard errno == EINTR else { throw TransportWire.Broken() }
    }
  }
}

/// Process-wide protections for a process that holds credentials; the only Linux system calls
/// here.
enum ProcessHardening {
  /// Marks this process non-dumpable (`PR_SET_DUMPABLE` 0): no core file, and no other process
  /// of the same user may attach to it or read its memory, so the `Authorization` header it
  /// holds stays in it. Does nothing where prctl(2) does not exist.
  static func forbidDumps() {
    _ = prctl(4, 0)  // PR_SET_DUMPABLE to 0, <linux/prctl.h>
  }

  /// Names the calling thread (PR_SET_NAME, <linux/prctl.h>; Linux keeps 15 bytes).
  static func nameThisThread(_ name: String) {
    name.withCString { _ = prctl(15, UInt(bitPattern: $0)) }
  }

  /// prctl(2) with one argument; -1 where it does not exist. prctl is variadic, which Swift
  /// does not import; its five-word form is the same call on Linux's ABIs.
  private static func prctl(_ option: Int32, _ argument: UInt) -> Int32 {
    #if os(Linux)
      typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
      guard let symbol = dlsym(nil, "prctl") else { return -1 }
      return unsafeBitCast(symbol, to: Prctl.self)(option, argument, 0, 0, 0)
    #else
      return -1
    #endif
  }

  /// Starts a thread that ends the process (exit status 0) once `descriptor`, the reading end
  /// of a pipe, has no writer left: its writer died, or closed it.
  static func exitWhenHungUp(_ descriptor: Int32) {
    let watcher = Thread {
      // Named, so that one can tell from outside that the child is serving (and so is
      // non-dumpable).
      nameThisThread(hangUpWatcherName)
      var poller = pollfd(fd: descriptor, events: 0, revents: 0)
      while true {
        let ready = poll(&poller, 1, -1)
        if ready > 0, poller.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { _exit(0) }
        if ready < 0, errno != EINTR { return }
      }
    }
    watcher.start()
  }

  /// The name of the thread ``exitWhenHungUp(_:)`` starts (at most 15 bytes, as Linux keeps).
  static let hangUpWatcherName = "hangup-watch"
}
