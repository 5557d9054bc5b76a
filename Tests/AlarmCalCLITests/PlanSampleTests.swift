import Foundation
import Testing

/// Samples/PlanExample, the iOS side of `alarmcal plan` (issue 39): it compiles against a stub
/// of UserNotifications (Tests/PlanSampleStub), and its own `Decodable` types and conversions
/// turn real plans into the requests and categories the plans hold.
@Suite struct PlanSampleTests {
  static let packageFolder = samplesFolder.deletingLastPathComponent()
  static let exampleFolder = samplesFolder.appendingPathComponent("PlanExample")
  static let stubFolder = packageFolder.appendingPathComponent("Tests/PlanSampleStub")
  static let options = ["--now", "2026-12-07T08:00:00Z", "--tz", "Europe/Berlin"]

  @Test func theExampleCompilesAndDecodesRealPlansIntoTheirRequestsAndCategories() throws {
    let work = try temporaryFolder()
    let plans = try Self.samplePlans(into: work)
    let decoder = try Self.compileExample(into: work)
    let run = try Self.run(decoder, ["Europe/Berlin"] + plans.map(\.path))
    try #require(run.status == 0, "\(run.stderr)")
    let decoded = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    try #require(decoded.count == plans.count)
    for (file, result) in zip(plans, decoded) {
      let plan = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
      try Self.expectSame(plan, result, file: file.lastPathComponent)
    }
    // From Samples/alarms.json, by hand: "Work" rings Mon-Fri at 06:30 in Berlin, "Weekend"
    // Sat and Sun at 09:00, "Pick up kids" once on 2026-12-18 at 15:10 Berlin (UTC+1).
    let list = try #require(decoded.first)
    let requests = try #require(list["requests"] as? [[String: Any]])
    func components(of title: String) -> [[String: Int]] {
      requests.filter { $0["title"] as? String == title }.compactMap {
        $0["components"] as? [String: Int]
      }
    }
    #expect(components(of: "Work").contains(["weekday": 2, "hour": 6, "minute": 30, "second": 0]))
    #expect(
      components(of: "Weekend").contains(["weekday": 1, "hour": 9, "minute": 0, "second": 0]))
    #expect(
      components(of: "Weekend").contains(["weekday": 7, "hour": 9, "minute": 0, "second": 0]))
    #expect(
      components(of: "Pick up kids – last school day before the holidays") == [
        ["year": 2026, "month": 12, "day": 18, "hour": 14, "minute": 10, "second": 0]
      ])
    let work6 = try #require(requests.first { $0["title"] as? String == "Work" })
    #expect(work6["repeats"] as? Bool == true)
    #expect(work6["sound"] as? String == "Radar.caf")
    let pickUp = try #require(
      requests.first {
        $0["title"] as? String == "Pick up kids – last school day before the holidays"
      })
    #expect(pickUp["repeats"] as? Bool == false)
    #expect(pickUp["zoneOffset"] as? Int == 0)
    // No sound named: the default sound.
    #expect(requests.first { $0["title"] as? String == "Second alarm" }?["sound"] as? String == "")
  }

  /// Plans every sample (.ics and lists) into `folder`; the alarm list alarms.json first.
  static func samplePlans(into folder: URL) throws -> [URL] {
    let names = try FileManager.default.contentsOfDirectory(atPath: samplesFolder.path)
      .filter { ($0.hasSuffix(".ics") || $0.hasSuffix(".json")) && !$0.hasSuffix("schema.json") }
      .sorted { ($0 == "alarms.json" ? 0 : 1, $0) < ($1 == "alarms.json" ? 0 : 1, $1) }
    try #require(names.first == "alarms.json")
    return try names.map { name in
      let result = try runBinary(
        ["plan", samplesFolder.appendingPathComponent(name).path] + options)
      try #require(result.status == 0, "\(name): \(result.stderr)")
      let url = folder.appendingPathComponent("\(name).plan.json")
      try Data(result.stdout.utf8).write(to: url)
      return url
    }
  }

  /// Builds the stub as the module UserNotifications, then the example with the stub's
  /// main.swift into an executable; Swift 6, warnings are errors.
  static func compileExample(into folder: URL) throws -> URL {
    let stub = try run(
      nil,
      [
        "swiftc", "-swift-version", "6", "-warnings-as-errors", "-parse-as-library",
        "-module-name", "UserNotifications", "-emit-module", "-emit-module-path",
        folder.appendingPathComponent("UserNotifications.swiftmodule").path, "-emit-library",
        "-static", "-o", folder.appendingPathComponent("libUserNotifications.a").path,
        stubFolder.appendingPathComponent("UserNotifications.swift").path,
      ])
    try #require(stub.status == 0, "the stub does not compile:\n\(stub.stderr)")
    let sources = try FileManager.default.contentsOfDirectory(atPath: exampleFolder.path)
      .filter { $0.hasSuffix(".swift") }.sorted()
      .map { exampleFolder.appendingPathComponent($0).path }
    try #require(sources.count >= 2)
    let executable = folder.appendingPathComponent("decode-plan")
    let example = try run(
      nil,
      [
        "swiftc", "-swift-version", "6", "-warnings-as-errors", "-I", folder.path, "-L",
        folder.path, "-lUserNotifications", "-o", executable.path,
      ] + sources + [stubFolder.appendingPathComponent("main.swift").path])
    try #require(example.status == 0, "the example does not compile:\n\(example.stderr)")
    return executable
  }

  /// The decoded requests and categories are the plan's, in its order, with its components.
  static func expectSame(_ plan: [String: Any], _ decoded: [String: Any], file: String) throws {
    let requests = try #require(plan["requests"] as? [[String: Any]])
    let madeRequests = try #require(decoded["requests"] as? [[String: Any]])
    #expect(madeRequests.count == requests.count, "\(file)")
    for (request, made) in zip(requests, madeRequests) {
      let trigger = try #require(request["trigger"] as? [String: Any])
      var components = try #require(trigger["dateComponents"] as? [String: Any])
      // The plan names one zone, UTC, and only for one-shots.
      let zone = components.removeValue(forKey: "timeZone") as? String
      #expect(zone == ((trigger["repeats"] as? Bool) == true ? nil : "UTC"), "\(file)")
      #expect(made["zoneOffset"] as? Int == zone.map { _ in 0 }, "\(file)")
      #expect(made["identifier"] as? String == request["identifier"] as? String, "\(file)")
      #expect(made["repeats"] as? Bool == trigger["repeats"] as? Bool, "\(file)")
      #expect(made["components"] as? [String: Int] == components as? [String: Int], "\(file)")
      for key in ["title", "categoryIdentifier", "threadIdentifier"] {
        #expect(made[key] as? String == request[key] as? String, "\(file): \(key)")
      }
      let info = try #require(request["userInfo"] as? [String: Any])
      #expect(made["userInfoUID"] as? String == info["uid"] as? String, "\(file)")
      #expect(made["planZone"] as? String == "Europe/Berlin", "\(file)")
    }
    let categories = try #require(plan["categories"] as? [[String: Any]])
    let madeCategories = try #require(decoded["categories"] as? [[String: Any]])
    #expect(madeCategories.count == categories.count, "\(file)")
    for (category, made) in zip(categories, madeCategories) {
      let actions = try #require(category["actions"] as? [[String: Any]])
      #expect(made["identifier"] as? String == category["identifier"] as? String, "\(file)")
      #expect(made["actions"] as? [String] == actions.compactMap { $0["identifier"] as? String })
    }
    #expect((decoded["validUntil"] as? String) == (plan["validUntil"] as? String), "\(file)")
  }

  /// Runs `executable` (nil: `env`, which finds the first argument on PATH) to its end.
  static func run(_ executable: URL?, _ arguments: [String]) throws -> RunResult {
    try RunningBinary(
      arguments, executable: executable ?? URL(fileURLWithPath: "/usr/bin/env")
    ).finish()
  }

}
