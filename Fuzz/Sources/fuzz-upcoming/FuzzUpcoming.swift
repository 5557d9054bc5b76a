import FuzzSupport

/// `alarmcal upcoming -` over a three-day window from a fixed --now, at most 64 firings (the iOS
/// budget), as NDJSON. A status other than 0 or 65 (unusable data, as the failure table
/// says), or more than 64 lines, is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUpcoming(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = FuzzHarness.bytes(data, size)
  let run = FuzzHarness.run(
    [
      "upcoming", "-", "--now", FuzzHarness.now, "--to", "2026-12-05T08:00:00Z", "--limit", "64",
      "--tz", FuzzHarness.zone, "--format", "ndjson", "--include-acknowledged",
    ], stdin: input)
  FuzzHarness.expect(run.status, in: [0, 65], "upcoming", stderr: run.stderr)
  let lines = run.stdout.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
  if lines > 64 { fatalError("upcoming: \(lines) firings for --limit 64") }
  return 0
}
