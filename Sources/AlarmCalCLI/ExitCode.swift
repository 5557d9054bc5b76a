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
  /// 69: the CalDAV server is unreachable, timed out, failed TLS, answered 5xx or 404.
  public static let unavailable = ExitCode(rawValue: 69)
  /// 73: the CalDAV server has no room (507, 413).
  public static let serverFull = ExitCode(rawValue: 73)
  /// 74: the output could not be written.
  public static let ioError = ExitCode(rawValue: 74)
  /// 75: another process was editing the file; trying again may work.
  public static let temporaryFailure = ExitCode(rawValue: 75)

  /// 76: the CalDAV server's answer was unusable (not XML, too large, a foreign redirect).
  public static let protocolError = ExitCode(rawValue: 76)
  /// 77: the CalDAV server refused the credentials or the access (401, 403).
  public static let noPermission = ExitCode(rawValue: 77)

  /// The number.
  public var description: String { String(rawValue) }
}

extension ExitCode {
  /// Every status alarmcal gives, in order, with what it means for any command: the one table
  /// each command's `--help` and the manual page take their words from (docs/failures.md
  /// explains it).
  static let table: [(code: ExitCode, meaning: String)] = [
    (.success, "done"),
    (
      .problemsFound,
      "the job found problems (validation errors, conflicts, refusals, --strict losses, no such firing)"
    ),
    (.usage, "usage error"),
    (.badData, "unusable input data"),
    (.noInput, "missing or unreadable input"),
    (.unavailable, "CalDAV server unreachable, timed out, TLS failure, 5xx after retries, or 404"),
    (.serverFull, "CalDAV server has no room (507) or takes nothing this large (413)"),
    (.ioError, "output not writable"),
    (
      .temporaryFailure, "the file was being edited by another program (nothing written; try again)"
    ),
    (.protocolError, "unusable CalDAV answer (not XML, too large, another host)"),
    (.noPermission, "credentials or access refused (401, 403), or a file alarmcal may not edit"),
  ]

  /// What the status means for any command.
  var meaning: String { Self.table.first { $0.code == self }?.meaning ?? "" }
}

/// A status a command gives, with what it means there: the table's words
/// (``ExitCode/meaning``), or the command's own when it says more.
struct ExitStatus: Sendable {
  let code: ExitCode
  let meaning: String

  /// `code` with the table's words.
  init(_ code: ExitCode) { self.init(code, code.meaning) }

  /// `code` with the command's own words.
  init(_ code: ExitCode, _ meaning: String) {
    self.code = code
    self.meaning = meaning
  }

  /// `Exit status: 0 done, 64 usage error, ...` for `statuses`.
  static func sentence(_ statuses: [ExitStatus]) -> String {
    "Exit status: " + statuses.map { "\($0.code) \($0.meaning)" }.joined(separator: ", ") + "."
  }
}
