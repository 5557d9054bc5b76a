/// The process exit status, following BSD sysexits where one fits.
public struct ExitCode: RawRepresentable, Equatable, Sendable, CustomStringConvertible {
  /// The numeric status.
  public let rawValue: Int32

  /// Wraps a status.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// 0: the job was done.
  public static let success = ExitCode(rawValue: 0)
  /// 1: the job ran and found problems (`--strict` losses, validation errors).
  public static let problemsFound = ExitCode(rawValue: 1)
  /// 64: the command line was wrong.
  public static let usage = ExitCode(rawValue: 64)
  /// 65: the input data could not be used.
  public static let badData = ExitCode(rawValue: 65)
  /// 66: an input file is missing or unreadable.
  public static let noInput = ExitCode(rawValue: 66)
  /// 74: the output could not be written.
  public static let ioError = ExitCode(rawValue: 74)
  /// 75: another process was editing the file; trying again may work.
  public static let temporaryFailure = ExitCode(rawValue: 75)

  /// The number.
  public var description: String { String(rawValue) }
}
