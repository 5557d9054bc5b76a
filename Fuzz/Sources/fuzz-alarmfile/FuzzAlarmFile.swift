import FuzzSupport

/// `alarmcal convert - --to ics`: the JSON alarm-file reader (its own JSON parser) and the
/// exporter, with a fixed --now and --tz. Content that sniffs as iCalendar takes the ics → ics
/// path. Allowed statuses: 0, 1 and 65 (unusable input).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAlarmFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = FuzzHarness.bytes(data, size)
  let run = FuzzHarness.run(
    ["convert", "-", "--to", "ics", "--tz", FuzzHarness.zone, "--now", FuzzHarness.now],
    stdin: input)
  FuzzHarness.expect(run.status, in: [0, 1, 65], "convert --to ics", stderr: run.stderr)
  return 0
}
