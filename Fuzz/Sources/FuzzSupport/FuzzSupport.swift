import AlarmCalCLI
import Foundation

/// What every fuzz target shares: a fixed clock, zone and environment, and an in-process run of
/// the `alarmcal` command line over the input bytes as standard input.
public enum FuzzHarness {
  /// The fixed present moment (`--now`), so every run of an input does the same work.
  public static let now = "2026-12-02T08:00:00Z"
  /// The fixed zone for `--tz` (has DST, unlike UTC).
  public static let zone = "Europe/Berlin"
  /// The same instant as ``now`` for the tool's clock.
  static let clock = Date(timeIntervalSince1970: 1_796_198_400)

  /// Pins the process time zone once (libical and Foundation read TZ).
  public static let configured: Void = {
    setenv("TZ", "UTC", 1)
    tzset()
  }()

  /// One in-process run of `alarmcal` with `bytes` as standard input.
  public static func run(_ arguments: [String], stdin bytes: [UInt8]) -> (
    status: Int32, stdout: String, stderr: String
  ) {
    _ = configured
    let out = CapturedText()
    let err = CapturedText()
    let context = ToolContext(
      standardOutput: out, standardError: err, readStandardInput: { Array(bytes.prefix($0)) },
      environment: ["SOURCE_DATE_EPOCH": "1796198400", "NO_COLOR": "1"],
      clock: { clock })
    let status = Tool.run(arguments: arguments, context: context)
    return (status.rawValue, out.text, err.text)
  }

  /// Stops the fuzzer with a finding when a run ends with a status the command must not give
  /// for any input (a usage error here would be a harness bug or a broken option parser).
  public static func expect(
    _ status: Int32, in allowed: Set<Int32>, _ command: String, stderr: String
  ) {
    guard allowed.contains(status) else {
      fatalError("\(command): unexpected exit status \(status); stderr:\n\(stderr)")
    }
  }

  /// The input as an array.
  public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
  }
}
