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

  /// Plans the alarm list `list` (JSON text) from a file of its own, as JSON.
  static func plan(list: String, zone: String = "Europe/Berlin", format: String = "json")
    throws -> RunResult
  {
    let file = try temporaryFolder().appendingPathComponent("list.json")
    try Data(list.utf8).write(to: file)
    let result = try runBinary(
      ["plan", file.path, "--now", "2026-12-07T08:00:00Z", "--tz", zone, "--format", format])
    #expect(result.status == 0, "\(result.stderr)")
    return result
  }

  static func json(_ result: RunResult) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  static func requests(_ plan: [String: Any]) throws -> [[String: Any]] {
    try #require(plan["requests"] as? [[String: Any]])
  }

  static func trigger(_ request: [String: Any]) -> (components: [String: Int], repeats: Bool?) {
    let trigger = request["trigger"] as? [String: Any]
    var components = trigger?["dateComponents"] as? [String: Any] ?? [:]
    components.removeValue(forKey: "timeZone")
    return (components as? [String: Int] ?? [:], trigger?["repeats"] as? Bool)
  }

  /// A one-shot's date components: the instant in UTC.
  static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int) -> [String: Int] {
    ["year": y, "month": mo, "day": d, "hour": h, "minute": mi, "second": 0]
  }

  @Test func tenWeekdayAlarmsOfAListAreFiftyRepeatingRequestsForEver() throws {
    let alarms = (0..<10).map { index in
      #"{"id": "W\#(index)", "time": "07:0\#(index)", "repeat": ["mon", "tue", "wed", "thu", "fri"]}"#
    }
    let plan = try Self.json(
      try Self.plan(list: #"{"alarms": [\#(alarms.joined(separator: ", "))]}"#))
    let requests = try Self.requests(plan)
    #expect(requests.count == 50)
    #expect(requests.allSatisfy { Self.trigger($0).repeats == true })
    // Calendar's weekdays: 2 (Monday) to 6 (Friday), ten alarms each.
    let weekdays = requests.compactMap { Self.trigger($0).components["weekday"] }
    #expect(
      Dictionary(grouping: weekdays, by: { $0 }).mapValues(\.count) == [
        2: 10, 3: 10, 4: 10, 5: 10, 6: 10,
      ])
    #expect(plan["validUntil"] is NSNull)
  }

  @Test func aListThatCannotFitFillsTheBudgetAndSaysUntilWhen() throws {
    // Fourteen daily alarms, 10:00 to 16:30 Berlin: 98 weekly units. From Monday 09:00 each
    // day meets 14 new ones; Friday's eighth (13:30) fills 64, Friday 14:00 is left out.
    let alarms = (0..<14).map { index in
      let time = "\(10 + index / 2):\(index % 2 * 3)0"
      return
        #"{"id": "D\#(index)", "time": "\#(time)", "repeat": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]}"#
    }
    let list = #"{"alarms": [\#(alarms.joined(separator: ", "))]}"#
    let plan = try Self.json(try Self.plan(list: list))
    #expect(try Self.requests(plan).count == 64)
    #expect(plan["validUntil"] as? String == "2026-12-11T13:00:00Z")
    let text = try Self.plan(list: list, format: "text")
    #expect(text.stdout.hasSuffix("\n64 requests, valid until 2026-12-11T14:00:00\n"))
  }

  @Test(arguments: ["Europe/Berlin", "America/New_York"])
  func weekdayAlarmsAt0230RepeatForEverAndSundaysAreOneShots(zone: String) throws {
    // Both zones change on Sundays: 02:30 on Monday to Friday occurs once every week.
    let weekdays = try Self.json(
      try Self.plan(
        list:
          #"{"alarms": [{"id": "N", "time": "02:30", "repeat": ["mon", "tue", "wed", "thu", "fri"]}]}"#,
        zone: zone))
    let requests = try Self.requests(weekdays)
    #expect(
      requests.map { Self.trigger($0).components }
        == (2...6).map { ["weekday": $0, "hour": 2, "minute": 30, "second": 0] })
    #expect(weekdays["validUntil"] is NSNull)
    // Every day at 02:30: Sunday meets the spring change, so Sundays are one-shots, the
    // first on 2026-12-13 at 02:30 local (UTC+1 in Berlin, UTC-5 in New York).
    let daily = try Self.requests(
      try Self.json(
        try Self.plan(
          list:
            #"{"alarms": [{"id": "N", "time": "02:30", "repeat": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]}]}"#,
          zone: zone)))
    let repeatingDays = daily.filter { Self.trigger($0).repeats == true }
      .compactMap { Self.trigger($0).components["weekday"] }
    #expect(repeatingDays.sorted() == [2, 3, 4, 5, 6, 7])
    let firstSunday =
      zone == "Europe/Berlin" ? Self.utc(2026, 12, 13, 1, 30) : Self.utc(2026, 12, 13, 7, 30)
    #expect(
      daily.first { Self.trigger($0).repeats == false }.map { Self.trigger($0).components }
        == firstSunday)
  }

  @Test func aSnoozePendingAtNowIsAOneShotWithUpcomingsID() throws {
    // Monday's 07:00 Berlin ring was snoozed until 09:05 Berlin, after --now (09:00).
    let list = #"""
      {"alarms": [{"id": "S", "time": "07:00", "repeat": ["mon", "tue", "wed", "thu", "fri"],
       "acknowledgedAt": "2026-12-07T06:00:30Z", "snoozedUntil": "2026-12-07T08:05:00Z"}]}
      """#
    let requests = try Self.requests(try Self.json(try Self.plan(list: list)))
    let snooze = try #require(requests.first { Self.trigger($0).repeats == false })
    #expect(Self.trigger(snooze).components == Self.utc(2026, 12, 7, 8, 5))
    let file = try temporaryFolder().appendingPathComponent("list.json")
    try Data(list.utf8).write(to: file)
    let firings = try upcomingFirings(
      file.path, now: "2026-12-07T08:00:00Z", limit: 1, zone: "Europe/Berlin")
    #expect(firings.first?["trigger"] as? String == "2026-12-07T08:05:00Z")
    #expect(snooze["identifier"] as? String == firings.first?["id"] as? String)
    #expect(requests.filter { Self.trigger($0).repeats == true }.count == 5)
  }

  @Test func anAcknowledgedRingIsNotPlanned() throws {
    // Tuesday's 07:00 Berlin ring (06:00Z) dismissed ahead of time: a repeating Tuesday
    // request would ring it, so Tuesdays are one-shots from the next one on.
    let requests = try Self.requests(
      try Self.json(
        try Self.plan(
          list:
            #"{"alarms": [{"id": "A", "time": "07:00", "repeat": ["tue", "thu"], "acknowledgedAt": "2026-12-08T06:00:00Z"}]}"#
        )))
    #expect(
      requests.filter { Self.trigger($0).repeats == true }.map { Self.trigger($0).components } == [
        ["weekday": 5, "hour": 7, "minute": 0, "second": 0]
      ])
    let oneShots = requests.filter { Self.trigger($0).repeats == false }.map {
      Self.trigger($0).components
    }
    #expect(!oneShots.contains(Self.utc(2026, 12, 8, 6, 0)))
    #expect(oneShots.first == Self.utc(2026, 12, 15, 6, 0))
  }

  @Test func aTaskReminderOfAListIsAOneShot() throws {
    // Due 17:00 Berlin (16:00Z), reminded an hour before.
    let requests = try Self.requests(
      try Self.json(
        try Self.plan(
          list:
            #"{"tasks": [{"id": "T", "title": "File the tax return", "deadline": "2026-12-10T17:00", "remindMinutesBefore": 60}]}"#
        )))
    try #require(requests.count == 1)
    #expect(requests[0]["title"] as? String == "File the tax return")
    #expect(Self.trigger(requests[0]).repeats == false)
    #expect(Self.trigger(requests[0]).components == Self.utc(2026, 12, 10, 15, 0))
  }

  @Test func aMissingFileIsOneErrorLine() throws {
    let result = try runBinary(["plan", "/nonexistent/alarms.ics"] + Self.options)
    #expect(result.status == 66)
    #expect(result.stdout == "")
    #expect(result.stderr.split(separator: "\n").count == 1)
  }
}
