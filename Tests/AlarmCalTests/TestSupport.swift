import AlarmCal
import Foundation
import ICalendar
import Testing

/// Loads a fixture shipped with this test target, failing with its path when missing.
func fixtureText(_ name: String) throws -> String {
  let url = try #require(
    Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
    "missing fixture Fixtures/\(name)")
  return try String(contentsOf: url, encoding: .utf8)
}

/// The package's Samples folder.
let samplesFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Samples")

/// A wall-clock reading from `YYYYMMDDTHHMMSS`.
func local(_ text: String) throws -> LocalDateTime {
  try #require(DateTimeValue(text: text)).local
}

/// An instant from `YYYYMMDDTHHMMSSZ`.
func instant(_ text: String) throws -> Instant {
  guard case .utc(let utc)? = DateTimeValue(text: text) else {
    Issue.record("not a UTC date-time: \(text)")
    return Instant(secondsSince1970: 0)
  }
  return Instant(utc: utc)
}

/// The moment the tests run at: 2026-12-02T08:00:00Z, a Wednesday.
let testNow = Instant(secondsSince1970: 1_796_198_400)

/// The public test calendars in `../shared/corpus` beside the package: present on developers'
/// machines and in CI, absent from a clone of the project alone. Tests over them run only when
/// they are there; CI sets `ALARMCAL_REQUIRE_CORPUS=1`, and then a missing corpus fails.
enum SharedCorpus {
  /// `../shared/corpus` from the package root.
  static let folder = samplesFolder.deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/corpus")

  /// Whether the corpus folder is there.
  static var isPresent: Bool {
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder)
      && isFolder.boolValue
  }

  /// Whether the run must have the corpus (CI).
  static var isRequired: Bool {
    ProcessInfo.processInfo.environment["ALARMCAL_REQUIRE_CORPUS"] == "1"
  }

  /// The corpus' `.ics` files, relative to ``folder``, sorted; fails unless there are over 100.
  static func files() throws -> [String] {
    let names = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
      .filter { $0.hasSuffix(".ics") }.sorted()
    try #require(names.count > 100, "the corpus at \(folder.path) holds \(names.count) .ics files")
    return names
  }
}

/// The `.ics` files of the project's own folders (Samples, Tests), as paths from `root`.
func projectCalendars(root: URL) -> [String] {
  ["Samples", "Tests"].flatMap { folder in
    (FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)?.allObjects
      as? [String] ?? [])
      .filter { $0.hasSuffix(".ics") }.sorted().map { "\(folder)/\($0)" }
  }
}

@Suite struct SharedCorpusTests {
  @Test(
    "CI's run has the shared corpus beside the project",
    .enabled(if: SharedCorpus.isRequired))
  func present() throws {
    #expect(
      SharedCorpus.isPresent, "ALARMCAL_REQUIRE_CORPUS=1 but \(SharedCorpus.folder.path) is missing"
    )
    _ = try SharedCorpus.files()
  }
}

extension FiringSchedule {
  /// A schedule of one calendar's text, as `upcoming` reads a file.
  static func reading(
    _ text: String, name: String, zone: TimeZoneRules, includeAcknowledged: Bool = false,
    workLimit: Int = 1_000_000
  ) throws -> FiringSchedule {
    var schedule = FiringSchedule(
      defaultZone: zone, includeAcknowledged: includeAcknowledged, workLimit: workLimit)
    try schedule.read(Array(text.utf8), file: name)
    return schedule
  }
}
