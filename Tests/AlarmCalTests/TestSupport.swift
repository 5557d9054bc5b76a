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
