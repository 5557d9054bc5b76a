import Foundation
import Testing

/// App record shapes with the real binary: `convert --shape ios` and `upcoming` on alarm lists.
@Suite struct ShapesEndToEndTests {
  @Test("the iOS sample → .ics → --shape ios gives the sample back byte for byte")
  func iosSampleRoundTrip() throws {
    let folder = try temporaryFolder()
    let sample = samplesFolder.appendingPathComponent("ios-alarms.json")
    let calendar = folder.appendingPathComponent("ios.ics").path
    let back = folder.appendingPathComponent("back.json").path
    let common = ["--tz", "Europe/Paris", "--now", "2026-12-04T00:00:00Z"]
    let exported = try runBinary(["convert", sample.path, "-o", calendar] + common)
    #expect(exported.status == 0, "\(exported.stderr)")
    let imported = try runBinary(["convert", calendar, "-o", back, "--shape", "ios"] + common)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stderr == "")
    #expect(try Data(contentsOf: URL(fileURLWithPath: back)) == Data(contentsOf: sample))
  }

  @Test("--shape ios names what the app's record cannot hold")
  func omissions() throws {
    let result = try runBinary([
      "convert", samplesFolder.appendingPathComponent("alarms.json").path, "--to", "json",
      "--shape", "ios", "--tz", "Europe/Berlin",
    ])
    #expect(result.status == 0)
    #expect(
      result.stderr.contains(
        #"alarm 3 ("Weekend"): the ios shape has no place for snoozeMinutes 15"#))
    #expect(
      result.stdout.hasPrefix("[\n  {\n    \"alarmTime\": \"06:30\",\n    \"name\": \"Work\""))
  }

  @Test("upcoming plans an alarm or task list as convert would export it at --now")
  func upcomingReadsLists() throws {
    let folder = try temporaryFolder()
    for name in ["alarms.json", "ios-alarms.json", "tasks.json"] {
      let list = samplesFolder.appendingPathComponent(name).path
      let calendar = folder.appendingPathComponent("\(name).ics").path
      let now = "2026-12-04T00:00:00Z"
      let exported = try runBinary([
        "convert", list, "-o", calendar, "--now", now, "--tz", "Europe/Paris",
      ])
      #expect(exported.status == 0)
      let common = [
        "--limit", "64", "--now", now, "--tz", "Europe/Paris", "--format", "ndjson",
        "--include-due",
      ]
      let direct = try runBinary(["upcoming", list] + common)
      let viaCalendar = try runBinary(["upcoming", calendar] + common)
      #expect(direct.status == 0, "\(direct.stderr)")
      let strip = { (text: String) in
        text.split(separator: "\n").map {
          $0.replacingOccurrences(of: #""file":"[^"]*""#, with: "", options: .regularExpression)
        }
      }
      // The task list: three open tasks remind, one without a reminder is due.
      #expect(strip(direct.stdout).count == (name == "tasks.json" ? 4 : 64))
      #expect(strip(direct.stdout) == strip(viaCalendar.stdout))
    }
  }

  @Test("a Thunderbird task → task list → .ics rings at the same instants, due included")
  func taskRoundTrip() throws {
    let folder = try temporaryFolder()
    let original = samplesFolder.appendingPathComponent("thunderbird.ics").path
    let list = folder.appendingPathComponent("list.json").path
    let again = folder.appendingPathComponent("again.ics").path
    let common = ["--now", "2026-12-02T08:00:00Z", "--tz", "Europe/Berlin"]
    #expect(try runBinary(["convert", original, "-o", list] + common).status == 0)
    #expect(try runBinary(["convert", list, "-o", again] + common).status == 0)
    let rings = { (path: String) throws -> [String] in
      let result = try runBinary(
        ["upcoming", path, "--to", "2028-01-01T00:00:00Z", "--format", "ndjson", "--include-due"]
          + common)
      #expect(result.status == 0, "\(result.stderr)")
      return try result.stdout.split(separator: "\n").map {
        let object = try #require(
          try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        return "\(object["trigger"] ?? "") \(object["component"] ?? "") \(object["summary"] ?? "")"
      }
      .sorted()
    }
    let before = try rings(original)
    #expect(before.contains { $0.contains(" VTODO ") })
    #expect(try rings(again) == before)
  }

  @Test("a to-do app's task storage: upcoming lists each open task's reminder")
  func taskStorage() throws {
    let file = try fixturePath("tasks.json")
    let result = try runBinary([
      "upcoming", file, "--now", "2026-12-04T00:00:00Z", "--tz", "Europe/Berlin", "--format",
      "ndjson",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let rows = try result.stdout.split(separator: "\n").map {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
      return "\(object["trigger"] ?? "") \(object["component"] ?? "") \(object["summary"] ?? "")"
    }
    #expect(
      rows == [
        "2026-12-07T18:45:00Z VTODO Call the plumber",
        "2026-12-18T23:00:00Z VTODO Buy a birthday present for Mia",
        "2027-01-15T15:00:00Z VTODO File the tax return",
      ])
  }
}
