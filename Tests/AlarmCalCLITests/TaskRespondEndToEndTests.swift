import Foundation
import Testing

/// `snooze` and `dismiss` on task lists with the real binary, in each layout a task list comes
/// in: the ids `upcoming` prints, only the task's record edited, every other byte as it was.
@Suite struct TaskRespondEndToEndTests {
  private let zone = "Europe/Berlin"

  /// The firings `upcoming` lists from `now` as JSON objects.
  private func upcoming(_ file: String, now: String, limit: Int = 8) throws -> [[String: Any]] {
    try upcomingFirings(file, now: now, limit: limit, zone: zone)
  }

  /// `text` written to a fresh folder as `list.json`.
  private func write(_ text: String) throws -> String {
    let path = try temporaryFolder().appendingPathComponent("list.json").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// The first firing from `from`, which must be the task titled `title`, and its id.
  private func rang(_ list: String, from: String, title: String) throws -> String {
    let first = try #require(try upcoming(list, now: from, limit: 1).first)
    #expect(first["summary"] as? String == title)
    #expect(first["component"] as? String == "VTODO")
    return try #require(first["id"] as? String)
  }

  @Test(
    "the app's UUID-keyed tasks: snooze → the snooze rings → .ics with the same ids → app shape back byte for byte → dismiss"
  )
  func appDictionaryLoop() throws {
    let list = try write(
      try fileText(samplesFolder.appendingPathComponent("tasks.json").path))
    let original = try fileText(list)
    // "Buy a birthday present for Mia" is due on 2026-12-19, floating: midnight in Berlin.
    let rangID = try rang(
      list, from: "2026-12-18T22:00:00Z", title: "Buy a birthday present for Mia")
    let now = "2026-12-18T23:00:10Z"
    let snoozed = try runBinary([
      "snooze", list, "--id", rangID, "--minutes", "5", "--now", now, "--tz", zone,
    ])
    #expect(snoozed.status == 0, "\(snoozed.stderr)")
    #expect(snoozed.stderr == "")
    let record = "\"deadline\": \"2026-12-19\",\n    \"remindMinutesBefore\": 0"
    #expect(
      try fileText(list)
        == original.replacingOccurrences(
          of: record,
          with: record
            + ",\n    \"acknowledgedAt\": \"2026-12-18T23:00:10Z\",\n    \"snoozedUntil\": \"2026-12-18T23:05:10Z\""
        ))
    let prefix = "snoozed \(rangID) until 2026-12-18T23:05:10Z; the snooze rings as "
    #expect(snoozed.stdout.hasPrefix(prefix))
    let snoozeID = String(snoozed.stdout.dropFirst(prefix.count).dropLast())

    // The list rings the snooze with the id printed; the snoozed ring is acknowledged.
    let after = try upcoming(list, now: now)
    #expect(after.first?["id"] as? String == snoozeID)
    #expect(after.first?["isSnooze"] as? Bool == true)
    #expect(after.first?["trigger"] as? String == "2026-12-18T23:05:10Z")
    #expect(!firingIDs(try upcoming(list, now: "2026-12-18T22:00:00Z")).contains(rangID))

    // The export is RFC 9074's form, with the same ids; the app shape of it is the list.
    let folder = try temporaryFolder()
    let ics = folder.appendingPathComponent("list.ics").path
    let common = ["--now", now, "--tz", zone]
    let converted = try runBinary(["convert", list, "-o", ics] + common)
    #expect(converted.status == 0, "\(converted.stderr)")
    let calendar = try fileText(ics)
    let alarmUID = try #require(after.first?["snoozeOf"] as? String)
    #expect(calendar.contains("TRIGGER;RELATED=END:PT0S\r\nACKNOWLEDGED:20261218T230010Z\r\n"))
    #expect(calendar.contains("TRIGGER;VALUE=DATE-TIME:20261218T230510Z\r\n"))
    #expect(calendar.contains("RELATED-TO;RELTYPE=SNOOZE:\(alarmUID)\r\n"))
    #expect(firingIDs(try upcoming(ics, now: now)) == firingIDs(after))
    let back = folder.appendingPathComponent("back.json").path
    let shaped = try runBinary(["convert", ics, "-o", back, "--shape", "ios"] + common)
    #expect(shaped.status == 0, "\(shaped.stderr)")
    #expect(try fileText(back) == (try fileText(list)))

    // Dismissing the snooze: acknowledgedAt moves on, snoozedUntil goes.
    let dismissed = try runBinary([
      "dismiss", list, "--id", snoozeID, "--now", "2026-12-18T23:05:30Z", "--tz", zone,
    ])
    #expect(dismissed.status == 0, "\(dismissed.stderr)")
    #expect(dismissed.stdout == "dismissed \(snoozeID)\n")
    #expect(
      try fileText(list)
        == original.replacingOccurrences(
          of: record, with: record + ",\n    \"acknowledgedAt\": \"2026-12-18T23:05:30Z\""))
    let last = try upcoming(list, now: "2026-12-18T23:05:30Z")
    #expect(!last.contains { $0["isSnooze"] as? Bool == true })
    #expect(Array(firingIDs(last).prefix(7)) == firingIDs(after).filter { $0 != snoozeID })
  }

  /// alarmcal's own layout: an alarm and two tasks, one of them with a field of the app's.
  private let alarmcalList = """
    {
      "alarms": [
        {"id": "wake", "time": "07:30", "repeat": [], "label": "Wake up"}
      ],
      "tasks": [
        {
          "UUID": "T-1",
          "title": "Water the plants",
          "deadline": "2026-12-20T18:00",
          "remindMinutesBefore": 30,
          "colour": "green"
        },
        {"UUID": "T-2", "title": "Pay rent", "deadline": "2026-12-21T09:00"}
      ]
    }

    """

  @Test("alarmcal's layout: a dismissal adds acknowledgedAt to that task's record only")
  func alarmcalLayoutDismiss() throws {
    let list = try write(alarmcalList)
    let rangID = try rang(list, from: "2026-12-20T16:00:00Z", title: "Water the plants")
    let dismissed = try runBinary([
      "dismiss", list, "--id", rangID, "--now", "2026-12-20T16:31:00Z", "--tz", zone,
    ])
    #expect(dismissed.status == 0, "\(dismissed.stderr)")
    #expect(dismissed.stdout == "dismissed \(rangID)\n")
    #expect(
      try fileText(list)
        == alarmcalList.replacingOccurrences(
          of: "\"colour\": \"green\"\n",
          with: "\"colour\": \"green\",\n      \"acknowledgedAt\": \"2026-12-20T16:31:00Z\"\n"))
    // The acknowledged ring is done; alarmcal's JSON of the list keeps the state.
    #expect(!firingIDs(try upcoming(list, now: "2026-12-20T16:00:00Z")).contains(rangID))
    let out = try temporaryFolder().appendingPathComponent("out.json").path
    let converted = try runBinary([
      "convert", list, "-o", out, "--now", "2026-12-20T16:31:00Z", "--tz", zone,
    ])
    #expect(converted.status == 0, "\(converted.stderr)")
    #expect(
      try fileText(out).contains(
        "\"timeZone\": \"Europe/Berlin\",\n      \"acknowledgedAt\": \"2026-12-20T16:31:00Z\",\n      \"colour\": \"green\""
      ))
  }

  /// A bare array mixing an app's alarm and a task on one line each.
  private let mixedList = """
    [
      {"alarmTime": "07:30", "name": "Wake up", "isEnabled": true, "creatTime": "a"},
      {"UUID": "T-3", "title": "Call home", "deadline": "2026-12-20T18:00", "remindMinutesBefore": 0}
    ]

    """

  @Test("a bare array of alarms and tasks: a snooze edits the task's record on its own line")
  func mixedArraySnooze() throws {
    let list = try write(mixedList)
    let rangID = try rang(list, from: "2026-12-20T16:30:00Z", title: "Call home")
    let now = "2026-12-20T17:00:05Z"
    let snoozed = try runBinary([
      "snooze", list, "--id", rangID, "--minutes", "10", "--now", now, "--tz", zone,
    ])
    #expect(snoozed.status == 0, "\(snoozed.stderr)")
    #expect(
      try fileText(list)
        == mixedList.replacingOccurrences(
          of: "\"remindMinutesBefore\": 0}",
          with:
            "\"remindMinutesBefore\": 0, \"acknowledgedAt\": \"2026-12-20T17:00:05Z\", \"snoozedUntil\": \"2026-12-20T17:10:05Z\"}"
        ))
    let next = try #require(try upcoming(list, now: now, limit: 1).first)
    #expect(next["isSnooze"] as? Bool == true)
    #expect(next["uid"] as? String == "T-3")
    #expect(next["trigger"] as? String == "2026-12-20T17:10:05Z")
  }

  @Test("a task without a UUID keeps its derived id when a dismissal is written into it")
  func derivedIDStays() throws {
    let list = try write(#"{"tasks": [{"title": "Call", "deadline": "2026-12-20T18:00"}]}"#)
    let before = try #require(try upcoming(list, now: "2026-12-20T16:00:00Z").first)
    let rangID = try #require(before["id"] as? String)
    let dismissed = try runBinary([
      "dismiss", list, "--id", rangID, "--now", "2026-12-20T17:00:10Z", "--tz", zone,
    ])
    #expect(dismissed.status == 0, "\(dismissed.stderr)")
    let after = try runBinary([
      "upcoming", list, "--now", "2026-12-20T16:00:00Z", "--include-acknowledged", "--format",
      "json", "--tz", zone,
    ])
    #expect(after.status == 0, "\(after.stderr)")
    let firings = try #require(
      try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [[String: Any]])
    #expect(firings.map { $0["uid"] as? String } == [before["uid"] as? String])
    #expect(firings.map { $0["id"] as? String } == [rangID])
    #expect(firings.first?["acknowledged"] as? Bool == true)
  }

  @Test("a task's firing that has not rung is refused with one line, the list untouched")
  func notRungYet() throws {
    let list = try write(alarmcalList)
    let rangID = try rang(list, from: "2026-12-20T16:00:00Z", title: "Water the plants")
    let result = try runBinary([
      "snooze", list, "--id", rangID, "--minutes", "5", "--now", "2026-12-20T16:00:00Z",
      "--tz", zone,
    ])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "alarmcal snooze: error: \(list): firing \(rangID) rings at 2026-12-20T16:30:00Z, after the time given (2026-12-20T16:00:00Z); only a firing that has rung can be snoozed or dismissed\n"
    )
    #expect(try fileText(list) == alarmcalList)
  }
}
