// swift-tools-version:6.0
// libFuzzer targets for alarmcal (issue 6). Build and run them with `scripts/fuzz` from the
// project root; it passes `--sanitize=fuzzer --sanitize=address`, which instruments the main
// package's Swift code as well (libical itself is not instrumented).
import PackageDescription

// Each target defines only `LLVMFuzzerTestOneInput`; libFuzzer supplies `main`.
let fuzzTarget: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
  name: "alarmcal-fuzz",
  dependencies: [.package(name: "alarmcal", path: "..")],
  targets: [
    .target(
      name: "FuzzSupport",
      dependencies: [.product(name: "AlarmCalCLI", package: "alarmcal")]),
    .executableTarget(
      name: "fuzz-parse",
      dependencies: [.product(name: "ICalendar", package: "alarmcal"), "FuzzSupport"],
      swiftSettings: fuzzTarget),
    .executableTarget(
      name: "fuzz-import", dependencies: ["FuzzSupport"], swiftSettings: fuzzTarget),
    .executableTarget(
      name: "fuzz-alarmfile", dependencies: ["FuzzSupport"], swiftSettings: fuzzTarget),
    .executableTarget(
      name: "fuzz-validate", dependencies: ["FuzzSupport"], swiftSettings: fuzzTarget),
    .executableTarget(
      name: "fuzz-upcoming", dependencies: ["FuzzSupport"], swiftSettings: fuzzTarget),
  ],
  swiftLanguageModes: [.v6]
)
