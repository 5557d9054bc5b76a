import Foundation
import Testing

/// `snooze` and `dismiss` on alarm lists (JSON) with the real binary: the ids `upcoming` prints
/// for the list, one record edited, the rest of the file byte for byte as it was.
@Suite struct ListRespondEndToEndTests {
  private let zone = "Europe/Berlin"

  /// The firings `upcoming` lists from `now` as JSON objects.
  private func upcoming(_ file: String, now: String, limit: Int = 8) throws -> [[String: Any]] {
    try upcomingFirings(file, now: now, limit: limit, zone: zone)
  }

  /// A copy of `source` in a fresh folder, writable, named `list.json`.
  private func copy(_ source: String) throws -> String {
    let path = try temporaryFolder().appendingPathComponent("list.json").path
    try Data(contentsOf: URL(fileURLWithPath: source)).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test(
    "app list → upcoming → snooze → the snooze rings with its id → convert → same ids → dismiss")
  func appListLoop() throws {
    let list = try copy(samplesFolder.appendingPathComponent("ios-alarms.json").path)
    let original = try fileText(list)
    // Monday 2026-12-07: "Wake up" rings at 07:30 in Berlin.
    let rang = try #require(try upcoming(list, now: "2026-12-07T06:00:00Z", limit: 1).first)
    #expect(rang["trigger"] as? String == "2026-12-07T06:30:00Z")
    let rangID = try #require(rang["id"] as? String)

    let now = "2026-12-07T06:30:20Z"
    let snoozed = try runBinary([
      "snooze", list, "--id", rangID, "--minutes", "5", "--now", now, "--tz", zone,
    ])
    #expect(snoozed.status == 0, "\(snoozed.stderr)")
    #expect(snoozed.stderr == "")
    let record = "\"creatTime\": \"2025-03-14 07:02:11\""
    #expect(
      try fileText(list)
        == original.replacingOccurrences(
          of: record,
          with: record
            + ",\n    \"acknowledgedAt\": \"2026-12-07T06:30:20Z\",\n    \"snoozedUntil\": \"2026-12-07T06:35:20Z\""
        ))
    let prefix = "snoozed \(rangID) until 2026-12-07T06:35:20Z; the snooze rings as "
    #expect(snoozed.stdout.hasPrefix(prefix))
    let snoozeID = String(snoozed.stdout.dropFirst(prefix.count).dropLast())

    // The list rings the snooze, with the id printed, and not the ring that was snoozed.
    let after = try upcoming(list, now: now)
    #expect(after.first?["id"] as? String == snoozeID)
    #expect(after.first?["isSnooze"] as? Bool == true)
    #expect(after.first?["trigger"] as? String == "2026-12-07T06:35:20Z")
    let pastRing = try upcoming(list, now: "2026-12-07T06:00:00Z")
    #expect(!firingIDs(pastRing).contains(rangID))

    // Its export is RFC 9074's form, with the same ids: what push would send.
    let ics = try temporaryFolder().appendingPathComponent("list.ics").path
    let converted = try runBinary(["convert", list, "-o", ics, "--now", now, "--tz", zone])
    #expect(converted.status == 0, "\(converted.stderr)")
    let calendar = try fileText(ics)
    let alarmUID = try #require(rang["alarmUid"] as? String)
    #expect(calendar.contains("ACKNOWLEDGED:20261207T063020Z\r\n"))
    #expect(calendar.contains("TRIGGER;VALUE=DATE-TIME:20261207T063520Z\r\n"))
    #expect(calendar.contains("RELATED-TO;RELTYPE=SNOOZE:\(alarmUID)\r\n"))
    #expect(firingIDs(try upcoming(ics, now: now)) == firingIDs(after))

    // Dismissing the snooze: acknowledgedAt moves on, snoozedUntil goes.
    let dismissed = try runBinary([
      "dismiss", list, "--id", snoozeID, "--now", "2026-12-07T06:35:30Z", "--tz", zone,
    ])
    #expect(dismissed.status == 0, "\(dismissed.stderr)")
    #expect(dismissed.stdout == "dismissed \(snoozeID)\n")
    #expect(
      try fileText(list)
        == original.replacingOccurrences(
          of: record, with: record + ",\n    \"acknowledgedAt\": \"2026-12-07T06:35:30Z\""))
    let last = try upcoming(list, now: "2026-12-07T06:35:30Z")
    #expect(!last.contains { $0["isSnooze"] as? Bool == true })
    #expect(Array(firingIDs(last).prefix(7)) == firingIDs(after).filter { $0 != snoozeID })
  }

  @Test(
    "records on one line with fields alarmcal does not know: only the record responded to changes")
  func appRecordsOnOneLine() throws {
    let list = try copy(try fixturePath("app-records.json"))
    let original = try fileText(list)
    let rang = try #require(try upcoming(list, now: "2026-12-07T06:00:00Z", limit: 1).first)
    let rangID = try #require(rang["id"] as? String)
    #expect(rang["summary"] as? String == "Wake up")
    let result = try runBinary([
      "dismiss", list, "--id", rangID, "--now", "2026-12-07T06:31:00Z", "--tz", zone,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      try fileText(list)
        == original.replacingOccurrences(
          of: "\"volume\": 0.8}",
          with: "\"volume\": 0.8, \"acknowledgedAt\": \"2026-12-07T06:31:00Z\"}"
        ))
  }

  @Test("a snoozed app list → .ics → --shape ios gives the snoozed list back byte for byte")
  func snoozedAppShapeRoundTrip() throws {
    let list = try copy(samplesFolder.appendingPathComponent("ios-alarms.json").path)
    let rang = try #require(try upcoming(list, now: "2026-12-07T06:00:00Z", limit: 1).first)
    let rangID = try #require(rang["id"] as? String)
    let now = "2026-12-07T06:30:20Z"
    let snoozed = try runBinary([
      "snooze", list, "--id", rangID, "--minutes", "5", "--now", now, "--tz", zone,
    ])
    #expect(snoozed.status == 0, "\(snoozed.stderr)")
    let folder = try temporaryFolder()
    let ics = folder.appendingPathComponent("list.ics").path
    let back = folder.appendingPathComponent("back.json").path
    let common = ["--now", now, "--tz", zone]
    #expect(try runBinary(["convert", list, "-o", ics] + common).status == 0)
    let shaped = try runBinary(["convert", ics, "-o", back, "--shape", "ios"] + common)
    #expect(shaped.status == 0)
    #expect(shaped.stderr == "")
    #expect(try fileText(back) == (try fileText(list)))
    #expect(firingIDs(try upcoming(back, now: now)) == firingIDs(try upcoming(list, now: now)))
  }

  @Test(
    "a one-shot alarm of a time of day, snoozed then dismissed, rings only its snooze, not again the next day"
  )
  func oneShotDoesNotComeBack() throws {
    let list = try copy(samplesFolder.appendingPathComponent("ios-alarms.json").path)
    // "Flight to Lisbon": 04:50 in Berlin, no repeat days, on Tuesday 2026-12-08.
    let rang = try #require(try upcoming(list, now: "2026-12-08T03:00:00Z", limit: 1).first)
    #expect(rang["summary"] as? String == "Flight to Lisbon")
    #expect(rang["trigger"] as? String == "2026-12-08T03:50:00Z")
    let rangID = try #require(rang["id"] as? String)
    let snoozed = try runBinary([
      "snooze", list, "--id", rangID, "--minutes", "5", "--now", "2026-12-08T03:50:10Z",
      "--tz", zone,
    ])
    #expect(snoozed.status == 0, "\(snoozed.stderr)")
    let pending = try upcoming(list, now: "2026-12-08T03:50:10Z", limit: 16)
    let flights = pending.filter { $0["uid"] as? String == rang["uid"] as? String }
    #expect(flights.map { $0["trigger"] as? String } == ["2026-12-08T03:55:10Z"])
    let snoozeID = try #require(flights.first?["id"] as? String)
    let dismissed = try runBinary([
      "dismiss", list, "--id", snoozeID, "--now", "2026-12-08T03:55:20Z", "--tz", zone,
    ])
    #expect(dismissed.status == 0, "\(dismissed.stderr)")
    let after = try upcoming(list, now: "2026-12-08T03:55:20Z", limit: 16)
    #expect(!after.contains { $0["uid"] as? String == rang["uid"] as? String })
  }

  @Test("an unknown id: one line naming the file and the id, exit 1, the list untouched")
  func unknownID() throws {
    let list = try copy(try fixturePath("app-records.json"))
    let original = try fileText(list)
    let now = "2026-12-07T06:31:00Z"
    let result = try runBinary(["snooze", list, "--id", "NOPE", "--minutes", "5", "--now", now])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "alarmcal snooze: error: \(list): no firing with id NOPE in the year before or after \(now)\n"
    )
    #expect(try fileText(list) == original)
  }

  @Test("a list that cannot be read: the lines convert gives, exit 65")
  func unreadableList() throws {
    let list = try copy(try fixturePath("bad-alarms.json"))
    let original = try fileText(list)
    let out = try temporaryFolder().appendingPathComponent("out.ics").path
    let convert = try runBinary(["convert", list, "-o", out])
    #expect(convert.status == 65)
    let result = try runBinary(["dismiss", list, "--id", "X", "--now", "2026-12-07T06:31:00Z"])
    #expect(result.status == 65)
    #expect(
      result.stderr
        == convert.stderr.replacingOccurrences(of: "alarmcal convert: ", with: "alarmcal dismiss: ")
    )
    #expect(try fileText(list) == original)
  }
}
