import Foundation

/// Somewhere text goes: a real stream, or a buffer in tests.
public protocol TextSink: AnyObject, Sendable {
  /// Writes text as is.
  func write(_ text: String)
}

/// A file handle as a text sink (stdout, stderr).
public final class FileHandleSink: TextSink {
  private let handle: FileHandle

  /// Wraps a handle.
  public init(_ handle: FileHandle) { self.handle = handle }

  /// Writes the text's UTF-8 bytes; a closed pipe is ignored.
  public func write(_ text: String) {
    try? handle.write(contentsOf: Data(text.utf8))
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
  /// Reads all of standard input.
  public var readStandardInput: @Sendable () -> [UInt8]
  /// The environment variables.
  public var environment: [String: String]
  /// The current time.
  public var clock: @Sendable () -> Date

  /// A context over the real process.
  public static func process(environment: [String: String]) -> ToolContext {
    ToolContext(
      standardOutput: FileHandleSink(.standardOutput),
      standardError: FileHandleSink(.standardError),
      readStandardInput: { [UInt8](FileHandle.standardInput.readDataToEndOfFile()) },
      environment: environment,
      clock: { Date() })
  }

  /// Creates a context.
  public init(
    standardOutput: any TextSink, standardError: any TextSink,
    readStandardInput: @escaping @Sendable () -> [UInt8], environment: [String: String],
    clock: @escaping @Sendable () -> Date
  ) {
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.readStandardInput = readStandardInput
    self.environment = environment
    self.clock = clock
  }
}
