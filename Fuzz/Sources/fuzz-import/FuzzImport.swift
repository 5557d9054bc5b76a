import FuzzSupport

/// `alarmcal convert - --to json`: iCalendar import to alarms (and the alarm-list writer), with a
/// fixed --now and --tz. Content that sniffs as JSON takes the json → json path. Allowed
/// statuses: 0, 1 (not for a run without --strict, but harmless) and 65 (unusable input).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = FuzzHarness.bytes(data, size)
  let run = FuzzHarness.run(
    ["convert", "-", "--to", "json", "--tz", FuzzHarness.zone, "--now", FuzzHarness.now],
    stdin: input)
  FuzzHarness.expect(run.status, in: [0, 1, 65], "convert --to json", stderr: run.stderr)
  return 0
}
