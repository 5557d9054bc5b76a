import Foundation

/// Somewhere text goes: a real stream, or a buffer in tests.
public protocol TextSink: AnyObject, Sendable {
  /// Writes text as is.
  func write(_ text: String)
  /// Writes UTF-8 bytes as is (a sink may take them without making a string first).
  func write(bytes: [UInt8])
  /// Why a write failed (a full disk, a closed pipe), if one did.
  var writeFailure: String? { get }
}

extension TextSink {
  /// Writes the bytes as text.
  public func write(bytes: [UInt8]) {
    write(String(decoding: bytes, as: UTF8.self))
  }
}

/// A file descriptor as a text sink (stdout, stderr).
public final class FileHandleSink: TextSink, @unchecked Sendable {
  // @unchecked: `failure` is only touched under `lock`.
  private let descriptor: Int32
  private let lock = NSLock()
  private var failure: String?

  /// Wraps a descriptor such as `STDOUT_FILENO`.
  public init(descriptor: Int32) { self.descriptor = descriptor }

  /// When the descriptor is a pipe, asks the kernel for a 1 MiB buffer instead of the default
  /// 64 KiB: a gigabyte of `upcoming` output then costs far fewer blocked writes and context
  /// switches. A refusal changes nothing.
  public func widenPipe() {
    #if os(Linux)
      var status = stat()
      guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return }
      let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, not exported to Swift
      _ = fcntl(descriptor, setPipeSize, 1 << 20)
    #endif
  }

  /// Writes the text's UTF-8 bytes; the first failure is kept for ``writeFailure``.
  public func write(_ text: String) {
    write(bytes: Array(text.utf8))
  }

  /// Writes the bytes; the first failure is kept for ``writeFailure``.
  public func write(bytes: [UInt8]) {
    lock.lock()
    defer { lock.unlock() }
    guard failure == nil else { return }
    failure = AtomicFile.writeAll(bytes, to: descriptor)
  }

  /// Writes what `writer` holds without copying it out first; a failure is kept as by
  /// ``write(bytes:)``.
  func write(_ writer: borrowing ByteWriter) {
    lock.lock()
    defer { lock.unlock() }
    guard failure == nil else { return }
    failure = writer.write(to: descriptor)
  }

  /// Why a write failed, if one did.
  public var writeFailure: String? {
    lock.lock()
    defer { lock.unlock() }
    return failure
  }
}

/// Collects what is written, for tests.
public final class CapturedText: TextSink, @unchecked Sendable {
  // @unchecked: every access goes through `lock`.
  private let lock = NSLock()
  private var buffer = ""

  /// An empty buffer.
  public init() {}

  /// Appends the text.
  public func write(_ text: String) {
    lock.lock()
    defer { lock.unlock() }
    buffer += text
  }

  /// A captured buffer never fails.
  public var writeFailure: String? { nil }

  /// Everything written so far.
  public var text: String {
    lock.lock()
    defer { lock.unlock() }
    return buffer
  }
}

/// What a command may use of the outside world; tests substitute every part.
public struct ToolContext: Sendable {
  /// Where data goes.
  public var standardOutput: any TextSink
  /// Where diagnostics go.
  public var standardError: any TextSink
  /// The command running, named in every message it writes to standard error.
  public var commandName = ""
  /// Reads standard input to its end, but never more than the given number of bytes.
  public var readStandardInput: @Sendable (_ maximumBytes: Int) -> [UInt8]
  /// The environment variables.
  public var environment: [String: String]
  /// The current time.
  public var clock: @Sendable () -> Date
  /// Whether standard output is a terminal (colour is used only then, and never with NO_COLOR).
  public var standardOutputIsTerminal: Bool
  /// The running `alarmcal` program, which the CalDAV commands start again to do their HTTP
  /// in a process of its own (``Tool/transportCommandName``); nil: HTTP in this process.
  public var executable: URL?

  /// A context over the real process.
  public static func process(environment: [String: String]) -> ToolContext {
    ToolContext(
      standardOutput: {
        let sink = FileHandleSink(descriptor: STDOUT_FILENO)
        sink.widenPipe()
        return sink
      }(),
      standardError: FileHandleSink(descriptor: STDERR_FILENO),
      readStandardInput: { InputFile.readBytes(from: FileHandle.standardInput, upTo: $0) },
      environment: environment,
      clock: { Date() },
      standardOutputIsTerminal: isatty(STDOUT_FILENO) == 1,
      executable: Bundle.main.executableURL)
  }

  /// Creates a context.
  public init(
    standardOutput: any TextSink, standardError: any TextSink,
    readStandardInput: @escaping @Sendable (_ maximumBytes: Int) -> [UInt8],
    environment: [String: String],
    clock: @escaping @Sendable () -> Date, standardOutputIsTerminal: Bool = false,
    executable: URL? = nil
  ) {
    self.executable = executable
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.readStandardInput = readStandardInput
    self.environment = environment
    self.clock = clock
    self.standardOutputIsTerminal = standardOutputIsTerminal
  }
}
