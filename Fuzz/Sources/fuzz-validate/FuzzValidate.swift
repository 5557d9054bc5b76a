import FuzzSupport

/// `alarmcal validate -` over the input bytes (the validator reads bytes itself, not through
/// libical), with a fixed --now. Any status other than 0 or 1 is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValidate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = FuzzHarness.bytes(data, size)
  let run = FuzzHarness.run(
    ["validate", "-", "--format", "json", "--now", FuzzHarness.now], stdin: input)
  FuzzHarness.expect(run.status, in: [0, 1], "validate", stderr: run.stderr)
  return 0
}
