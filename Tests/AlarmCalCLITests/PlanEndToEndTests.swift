import Foundation
import Testing

/// `alarmcal plan` run as the real binary: JSON an app decodes, usage errors, bad files.
@Suite struct PlanEndToEndTests {
  static let options = ["--now", "2026-12-07T08:00:00Z", "--tz", "Europe/Berlin"]

  @Test func theSampleListPlansWithinTheBudgetTheSameTwice() throws {
    let file = samplesFolder.appendingPathComponent("alarms.json").path
    let first = try runBinary(["plan", file] + Self.options)
    let second = try runBinary(["plan", file] + Self.options)
    #expect(first.status == 0)
    #expect(first.stderr == "")
    #expect(first.stdout == second.stdout)
    let plan = try #require(
      try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
    let requests = try #require(plan["requests"] as? [[String: Any]])
    #expect(requests.count == 64)
    #expect(plan["validUntil"] is String)
    let work = try #require(requests.first)
    #expect(work["title"] as? String == "Work")
    #expect(work["sound"] as? String == "Radar")
    #expect(work["categoryIdentifier"] as? String == "alarmcal.snooze")
    let trigger = try #require(work["trigger"] as? [String: Any])
    #expect(trigger["repeats"] as? Bool == true)
    let components = try #require(trigger["dateComponents"] as? [String: Int])
    #expect(components == ["weekday": 2, "hour": 6, "minute": 30, "second": 0])
    let categories = try #require(plan["categories"] as? [[String: Any]])
    #expect(
      categories.compactMap { $0["identifier"] as? String } == ["alarmcal.snooze", "alarmcal.stop"])
  }

  @Test func aOneShotKeepsItsFiringIDFromUpcoming() throws {
    let file = samplesFolder.appendingPathComponent("alarms.json").path
    let upcoming = try runBinary(
      ["upcoming", file, "--limit", "1", "--format", "json"] + Self.options)
    let firings = try #require(
      try JSONSerialization.jsonObject(with: Data(upcoming.stdout.utf8)) as? [[String: Any]])
    let id = try #require(firings.first?["id"] as? String)
    let plan = try runBinary(["plan", file] + Self.options)
    #expect(plan.stdout.contains(#""identifier": "\#(id)""#))
  }

  @Test func badOptionsAreUsageErrors() throws {
    let file = samplesFolder.appendingPathComponent("alarms.json").path
    let budget = try runBinary(["plan", file, "--budget", "0"])
    #expect(budget.status == 64)
    #expect(
      budget.stderr.hasPrefix(
        "alarmcal plan: error: --budget must be a whole number from 1 to 100000, not '0'\n"))
    let format = try runBinary(["plan", file, "--format", "xml"])
    #expect(format.status == 64)
    let none = try runBinary(["plan"])
    #expect(none.status == 64)
    #expect(none.stderr.hasPrefix("alarmcal plan: error: missing FILE\n"))
  }

  @Test func aMissingFileIsOneErrorLine() throws {
    let result = try runBinary(["plan", "/nonexistent/alarms.ics"] + Self.options)
    #expect(result.status == 66)
    #expect(result.stdout == "")
    #expect(result.stderr.split(separator: "\n").count == 1)
  }
}
