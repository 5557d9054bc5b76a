internal import CLibical

/// Process-wide libical set-up, done once before the first call into libical.
enum Libical {
  /// Makes libical report errors instead of aborting, whatever its build default.
  static let configured: Void = {
    icalerror_set_errors_are_fatal(0)
  }()

  /// Copies a libical `_r` string into Swift and frees the buffer.
  static func take(_ buffer: UnsafeMutablePointer<CChar>?) -> String? {
    guard let buffer else { return nil }
    defer { icalmemory_free_buffer(buffer) }
    return String(cString: buffer)
  }
}

/// A failure inside libical: the function that failed, its error code and message.
public struct LibicalError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The C function that failed.
  public let function: String
  /// libical's error code (`icalerrorenum` raw value).
  public let code: Int
  /// libical's message for the code.
  public let message: String

  init(function: String) {
    let errno = clibical_errno()
    self.function = function
    code = Int(errno.rawValue)
    message = String(cString: icalerror_strerror(errno))
  }

  /// `function: message`.
  public var description: String { "\(function): \(message)" }
}
