import CalDAVTestServers
import Foundation
import Testing

/// A to-do app's task storage through a calendar and back with the real binary: `convert` to
/// .ics, then `convert --to json` in the app's shape and in alarmcal's.
@Suite struct TaskShapeEndToEndTests {
  private let common = ["--tz", "Europe/Berlin", "--now", "2026-12-02T08:00:00Z"]

  /// Converts `input` to `output` with `extra` arguments, expecting success and no message.
  private func convert(_ input: String, _ output: String, _ extra: [String] = []) throws {
    let result = try runBinary(["convert", input, "-o", output] + extra + common)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "")
  }

  /// The `deadline` members of a JSON file's text, in file order.
  private func deadlines(_ text: String) -> [String] {
    text.matches(of: /"deadline": ([^\n,]*)/).map { String($0.output.1) }
  }

  @Test(
    "app tasks → .ics → --shape ios give the app's file back byte for byte",
    arguments: ["app-tasks.json", "tasks.json"])
  func appRoundTrip(name: String) throws {
    let folder = try temporaryFolder()
    let app =
      name == "tasks.json" ? samplesFolder.appendingPathComponent(name).path : try fixturePath(name)
    let calendar = folder.appendingPathComponent("tasks.ics").path
    let back = folder.appendingPathComponent("back.json").path
    try convert(app, calendar)
    try convert(calendar, back, ["--shape", "ios"])
    let original = try String(contentsOfFile: app, encoding: .utf8)
    let returned = try String(contentsOfFile: back, encoding: .utf8)
    #expect(returned == original)
  }

  @Test("app tasks → .ics → alarmcal's shape keep each deadline's form and the app's fields")
  func alarmcalShape() throws {
    let folder = try temporaryFolder()
    let app = try fixturePath("app-tasks.json")
    let calendar = folder.appendingPathComponent("tasks.ics").path
    let list = folder.appendingPathComponent("list.json").path
    try convert(app, calendar)
    try convert(calendar, list, ["--to", "json"])
    let text = try String(contentsOfFile: list, encoding: .utf8)
    #expect(
      deadlines(text) == [
        "830000000.75", #""2027-03-01T17:00:00+02:00""#, #""2027-03-02T09:00:00Z""#,
        #""2027-03-03T08:15""#, #""2027-03-04""#,
      ])
    #expect(text.contains(#""colour": "blue""#))
    #expect(
      text.contains("\"flags\": {\n        \"pinned\": true,\n        \"order\": 2.50\n      }"))
    // alarmcal's shape → .ics → alarmcal's shape is a fixed point.
    let again = folder.appendingPathComponent("again.ics").path
    let listAgain = folder.appendingPathComponent("list-again.json").path
    try convert(list, again)
    try convert(again, listAgain, ["--to", "json"])
    #expect(try String(contentsOfFile: listAgain, encoding: .utf8) == text)
  }

  @Test("app alarms and tasks in one array → .ics → --shape ios give the array back")
  func mixedRoundTrip() throws {
    let folder = try temporaryFolder()
    let alarms = try String(
      contentsOf: samplesFolder.appendingPathComponent("ios-alarms.json"), encoding: .utf8)
    let task =
      "  {\n    \"UUID\": \"T1\",\n    \"title\": \"Taxes\",\n    \"deadline\": 830000000.75\n  }\n"
    let mixed = String(alarms.dropLast(3)) + ",\n" + task + "]\n"
    let app = folder.appendingPathComponent("mixed.json")
    try Data(mixed.utf8).write(to: app)
    let calendar = folder.appendingPathComponent("mixed.ics").path
    let back = folder.appendingPathComponent("back.json").path
    let paris = ["--tz", "Europe/Paris", "--now", "2026-12-04T00:00:00Z"]
    for (input, output, extra) in [(app.path, calendar, []), (calendar, back, ["--shape", "ios"])] {
      let result = try runBinary(["convert", input, "-o", output] + extra + paris)
      #expect(result.status == 0, "\(result.stderr)")
    }
    #expect(try String(contentsOfFile: back, encoding: .utf8) == mixed)
  }
}

/// The carried record through real Radicale and Xandikos: each keeps the DUE parameter and the
/// X- properties, so a pushed app file pulls back as the same app file.
@Suite(.serialized, .enabled(if: CalDAVTestServer.shouldRun))
struct TaskShapeServerTests {
  @Test(
    "app tasks → push → pull → --shape ios give the app's file back byte for byte",
    arguments: CalDAVTestServer.Kind.allCases)
  func throughServer(kind: CalDAVTestServer.Kind) throws {
    let server = try CalDAVTestServer(kind)
    defer { server.stopAndRemove() }
    let folder = try temporaryFolder()
    let app = folder.appendingPathComponent("app-tasks.json")
    try FileManager.default.copyItem(
      at: URL(fileURLWithPath: try fixturePath("app-tasks.json")), to: app)
    let url = server.collectionURL.absoluteString
    let pulled = folder.appendingPathComponent("pulled.ics").path
    let back = folder.appendingPathComponent("back.json").path
    let common = ["--tz", "Europe/Berlin", "--now", "2026-12-02T08:00:00Z"]
    let environment = ["ALARMCAL_PASSWORD": server.password, "HOME": "/nonexistent"]
    for arguments in [
      ["push", app.path, "--url", url] + common, ["pull", "--url", url, "-o", pulled],
    ] {
      let result = try runBinary(arguments + ["--user", server.user], environment: environment)
      #expect(result.status == 0, "\(result.stderr)")
    }
    // Push names each resource <UID>.ics and pull writes them in path order: the fixture's
    // UUIDs are in that order.
    let converted = try runBinary(["convert", pulled, "-o", back, "--shape", "ios"] + common)
    #expect(converted.status == 0, "\(converted.stderr)")
    #expect(
      try String(contentsOfFile: back, encoding: .utf8)
        == String(contentsOf: app, encoding: .utf8))
  }
}
