import Foundation
import Testing

/// What one command hands to the next without a server: the list an app keeps, the calendar
/// `convert` makes of it, and what comes back, run with the built binary.
@Suite struct HandOverTests {
  static let berlin = ["--tz", "Europe/Berlin"]

  /// The repro's one-shot app alarm exported before its ring, in a fresh folder.
  static func exportedOneShot() throws -> (folder: URL, ics: String) {
    let folder = try temporaryFolder()
    let ics = folder.appendingPathComponent("pill.ics").path
    let export = try runBinary(
      [
        "convert", try fixturePath("past-one-shot.json"), "-o", ics, "--now",
        "2027-03-26T12:00:00+01:00",
      ] + berlin)
    #expect(export.status == 0, "\(export.stderr)")
    return (folder, ics)
  }

  @Test("a one-shot alarm that rang comes back switched off, with a note, in both shapes")
  func rangOneShotSwitchedOff() throws {
    let (_, ics) = try Self.exportedOneShot()
    let later = ["--now", "2027-03-29T07:31:00+02:00"] + Self.berlin
    let upcoming = try runBinary(["upcoming", ics, "--format", "ndjson"] + later)
    #expect(upcoming.status == 0)
    #expect(upcoming.stdout.isEmpty)
    let back = try runBinary(["convert", ics, "--to", "json"] + later)
    #expect(back.status == 0)
    #expect(back.stdout.contains("\"enabled\": false"))
    #expect(
      back.stderr
        == "alarmcal convert: note: \(ics):38: event \"p1\" (Pill): its one ring, 2027-03-27T00:00 Europe/Berlin, is before now (2027-03-29T05:31:00Z), so it is imported switched off (enabled: false)\n"
    )
    let app = try runBinary(["convert", ics, "--to", "json", "--shape", "ios"] + later)
    #expect(app.stdout.contains("\"isEnabled\": false"))
    // The list that comes back rings nothing either.
    let list = try runBinary(["upcoming", "-", "--format", "ndjson"] + later, stdin: back.stdout)
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.isEmpty)
  }

  @Test("a dismissed one-shot alarm comes back switched off")
  func dismissedOneShotSwitchedOff() throws {
    let (_, ics) = try Self.exportedOneShot()
    let atRing = ["--now", "2027-03-27T00:01:00+01:00"] + Self.berlin
    let rang = try runBinary(
      [
        "upcoming", ics, "--format", "ndjson", "--now",
        "2027-03-26T12:00:00+01:00",
      ] + Self.berlin)
    let id = try #require(
      rang.stdout.split(separator: "\"id\":\"").last?.split(separator: "\"").first)
    let dismiss = try runBinary(["dismiss", ics, "--id", String(id)] + atRing)
    #expect(dismiss.status == 0, "\(dismiss.stderr)")
    let back = try runBinary(
      ["convert", ics, "--to", "json", "--now", "2027-03-27T00:02:00+01:00"] + Self.berlin)
    #expect(back.status == 0)
    #expect(back.stdout.contains("\"enabled\": false"))
    #expect(back.stdout.contains("\"acknowledgedAt\""))
    #expect(back.stderr.contains("so it is imported switched off (enabled: false)"))
    let list = try runBinary(
      ["upcoming", "-", "--format", "ndjson", "--now", "2027-03-27T00:02:00+01:00"] + Self.berlin,
      stdin: back.stdout)
    #expect(list.stdout.isEmpty)
  }

  @Test("an alarm in a zone without daylight saving time validates without a zone finding")
  func zoneWithoutDaylightSavingValidates() throws {
    let folder = try temporaryFolder()
    let list = folder.appendingPathComponent("tokyo.json").path
    let alarm = #"{"id":"t1","time":"07:00","repeat":["mon"],"timeZone":"Asia/Tokyo"}"#
    try #"{"alarms":[\#(alarm)]}"#.write(toFile: list, atomically: true, encoding: .utf8)
    let ics = folder.appendingPathComponent("tokyo.ics").path
    let export = try runBinary(["convert", list, "-o", ics, "--now", "2026-12-02T08:00:00Z"])
    #expect(export.status == 0, "\(export.stderr)")
    let validated = try runBinary(["validate", ics, "--now", "2026-12-02T08:00:00Z"])
    #expect(validated.status == 0, "\(validated.stderr)")
    #expect(!validated.stdout.contains("[timezone."), "\(validated.stdout)")
    let rings = try runBinary(
      ["upcoming", ics, "--limit", "1", "--format", "ndjson", "--now", "2026-12-02T08:00:00Z"])
    #expect(rings.stdout.contains("2026-12-06T22:00:00Z"), "\(rings.stdout)")
  }

  @Test("app records → .ics → app records: the same keys, unknown fields and values")
  func appRecordsRoundTrip() throws {
    let folder = try temporaryFolder()
    let ics = folder.appendingPathComponent("app.ics").path
    let now = ["--now", "2026-12-06T12:00:00Z"] + Self.berlin
    let export = try runBinary(["convert", try fixturePath("app-records.json"), "-o", ics] + now)
    #expect(export.status == 0, "\(export.stderr)")
    #expect(export.stderr.isEmpty)
    let back = try runBinary(["convert", ics, "--to", "json", "--shape", "ios"] + now)
    #expect(back.status == 0, "\(back.stderr)")
    let original = try records(
      Data(contentsOf: URL(fileURLWithPath: try fixturePath("app-records.json"))))
    let returned = try records(Data(back.stdout.utf8))
    #expect(returned.count == original.count)
    for (before, after) in zip(original, returned) {
      #expect(Set(after.keys) == Set(before.keys))
      for key in ["name", "snoozeEnabled", "isEnabled", "creatTime", "vibrate", "volume"] {
        #expect("\(after[key] ?? "-")" == "\(before[key] ?? "-")", "\(key)")
      }
    }
    // Each repeatDays form comes back as the app's seven booleans, Sunday first.
    #expect(
      returned.map { ($0["repeatDays"] as? [Bool]) ?? [] } == [
        [false, true, true, true, true, true, false],
        [true, false, false, false, false, false, true],
        [false, true, false, true, false, true, false],
      ])
    // No sound is the empty name the app's non-optional String decodes.
    #expect(returned.map { $0["sound"] as? String } == ["Radar", "", ""])
  }

  private func records(_ data: Data) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
  }

  @Test("convert writes nothing that alarmcal itself would refuse to read back")
  func outputWithinReadLimit() throws {
    let folder = try temporaryFolder()
    let output = folder.appendingPathComponent("big.ics").path
    // The list is under 2 KiB; the calendar it makes is over.
    let result = try runBinary(
      [
        "convert", try fixturePath("app-records.json"), "-o", output, "--max-file-size", "2K",
        "--now", "2026-12-06T12:00:00Z",
      ] + Self.berlin)
    #expect(result.status == 74)
    #expect(result.stderr.hasPrefix("alarmcal convert: error: the output would be "))
    #expect(
      result.stderr.hasSuffix(
        " bytes, over the 2048 alarmcal reads (--max-file-size raises it); nothing written\n"))
    #expect(!FileManager.default.fileExists(atPath: output))
  }
}
