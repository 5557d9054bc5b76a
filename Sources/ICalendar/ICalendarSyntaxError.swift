/// Why a text could not be read as iCalendar.
public struct ICalendarSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The physical line (1-based) where the problem was found.
  public let line: Int
  /// What is wrong.
  public let message: String

  /// Creates an error.
  public init(line: Int, message: String) {
    self.line = line
    self.message = message
  }

  /// `line N: message`.
  public var description: String { "line \(line): \(message)" }
}
