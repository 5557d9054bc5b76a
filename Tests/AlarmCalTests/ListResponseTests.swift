import AlarmCal
import Foundation
import ICalendar
import Testing

/// Snoozes and dismissals written into alarm lists (JSON), and a snooze's ids through a list.
@Suite struct ListResponseTests {
  /// The firings of the calendar `bytes` from `from`, acknowledged ones included.
  private func firings(_ bytes: [UInt8], from: Instant, limit: Int = 8) throws -> [Firing] {
    var schedule = FiringSchedule(defaultZone: .utc, includeAcknowledged: true)
    try schedule.read(bytes, file: "f.ics")
    let found = Array(schedule.firings(from: from, to: nil, limit: limit))
    return found
  }

  /// An instant from ISO 8601 in UTC (`2026-12-07T06:30:00Z`).
  private func at(_ text: String) throws -> Instant {
    try instant(
      text.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: ""))
  }

  /// The list's calendar as `upcoming` and `convert` make it at `now`.
  private func exported(_ list: [UInt8], now: Instant) throws -> [UInt8] {
    let read = try AlarmFileReader(fileName: "l.json", defaultTimeZone: "UTC").readList(list).get()
    return try AlarmExporter(now: now, timestamp: now).bytes(read.alarms, tasks: read.tasks)
  }

  /// The list `convert` writes from the calendar `bytes` at `now`.
  private func imported(_ bytes: [UInt8], now: Instant) throws -> [UInt8] {
    let importer = AlarmImporter(fileName: "f.ics", defaultTimeZone: "UTC", now: now)
    return AlarmFileWriter.bytes(try importer.importAlarms(fromUTF8: bytes).alarms)
  }

  private func respond(
    _ response: AlarmResponse, _ id: String, in list: String, now: Instant
  ) throws -> WrittenResponse {
    try ListResponder.respond(
      response, toFiring: id, in: Array(list.utf8), file: "l.json", now: now, zone: .utc)
  }

  /// A weekday alarm at 07:30 UTC as an app stores it, spaced its own way.
  private let appList = """
    [
      {
        "alarmTime": "07:30",
        "name": "Wake up",
        "repeatDays": [false, true, true, true, true, true, false],
        "isEnabled": true,
        "creatTime": "2025-03-14 07:02:11",
        "vibrate": true
      },
      {"alarmTime":"09:00","name":"Later","isEnabled":true,"creatTime":"b"}
    ]

    """

  @Test(
    "a snooze adds acknowledgedAt and snoozedUntil after the record's last member, as it spaces")
  func snoozeInsertsInTheRecordsStyle() throws {
    let now = try at("2026-12-07T07:30:20Z")
    let calendar = try exported(Array(appList.utf8), now: now)
    let rang = try #require(try firings(calendar, from: at("2026-12-07T07:30:00Z")).first)
    let written = try respond(
      .snooze(until: at("2026-12-07T07:35:20Z")), rang.id.description, in: appList, now: now)
    let expected = appList.replacingOccurrences(
      of: "\"vibrate\": true\n",
      with:
        "\"vibrate\": true,\n    \"acknowledgedAt\": \"2026-12-07T07:30:20Z\",\n    \"snoozedUntil\": \"2026-12-07T07:35:20Z\"\n"
    )
    #expect(String(decoding: written.bytes, as: UTF8.self) == expected)
    #expect(written.firing.id == rang.id)
    // The snooze is what the edited list rings next, with the id the response gave.
    let snooze = try #require(written.snooze)
    let after = try firings(try exported(written.bytes, now: now), from: now, limit: 1)
    #expect(after.map(\.id) == [snooze.id])
    #expect(after.first?.isSnooze == true)
  }

  @Test("a record written on one line gets its members on that line, without spaces if it has none")
  func compactRecord() throws {
    let now = try at("2026-12-07T09:00:05Z")
    let calendar = try exported(Array(appList.utf8), now: now)
    let rang = try #require(
      try firings(calendar, from: at("2026-12-07T09:00:00Z")).first { $0.uid == "b" })
    let written = try respond(.dismiss, rang.id.description, in: appList, now: now)
    let expected = appList.replacingOccurrences(
      of: "\"creatTime\":\"b\"}",
      with: "\"creatTime\":\"b\",\"acknowledgedAt\":\"2026-12-07T09:00:05Z\"}")
    #expect(String(decoding: written.bytes, as: UTF8.self) == expected)
    #expect(written.snooze == nil)
  }

  @Test("a dismissal replaces acknowledgedAt in place and removes snoozedUntil and snoozeUid")
  func dismissRemovesTheSnooze() throws {
    let list = """
      {"alarms": [
        {"snoozedUntil": "2026-12-07T07:35:00Z", "snoozeUid": "other-client-1", "id": "a", "time": "07:30", "repeat": ["mon"], "acknowledgedAt": "2026-12-07T07:30:10Z", "x": [1, {"y": "}"}]}
      ]}

      """
    let now = try at("2026-12-07T07:35:30Z")
    let calendar = try exported(Array(list.utf8), now: now)
    let snooze = try #require(
      try firings(calendar, from: at("2026-12-07T07:35:00Z")).first { $0.isSnooze })
    // The other client's UID for its snooze is the one the export gives it.
    #expect(snooze.alarmUID == "other-client-1")
    let written = try respond(.dismiss, snooze.id.description, in: list, now: now)
    let expected =
      list
      .replacingOccurrences(
        of: "\"snoozedUntil\": \"2026-12-07T07:35:00Z\", \"snoozeUid\": \"other-client-1\", ",
        with: ""
      )
      .replacingOccurrences(of: "07:30:10Z", with: "07:35:30Z")
    #expect(String(decoding: written.bytes, as: UTF8.self) == expected)
  }

  @Test("an acknowledgement later than now stays; a snooze of a snooze replaces snoozedUntil")
  func laterAcknowledgementStays() throws {
    let list = """
      {"alarms": [{"id": "a", "time": "07:30", "repeat": ["mon"], "acknowledgedAt": "2026-12-07T08:00:00Z", "snoozedUntil": "2026-12-07T07:35:00Z", "label": "A"}]}

      """
    let now = try at("2026-12-07T07:35:10Z")
    let calendar = try exported(Array(list.utf8), now: now)
    let snooze = try #require(
      try firings(calendar, from: at("2026-12-07T07:35:00Z")).first { $0.isSnooze })
    let written = try respond(
      .snooze(until: at("2026-12-07T07:40:10Z")), snooze.id.description, in: list, now: now)
    let expected = list.replacingOccurrences(of: "07:35:00Z", with: "07:40:10Z")
    #expect(String(decoding: written.bytes, as: UTF8.self) == expected)
  }

  @Test("an id the list does not ring names the file and the id")
  func unknownID() throws {
    let now = try at("2026-12-07T07:35:10Z")
    #expect {
      _ = try respond(.dismiss, "NOPE", in: appList, now: now)
    } throws: { error in
      (error as? ResponseError)?.message
        == "l.json: no firing with id NOPE in the year before or after 2026-12-07T07:35:10Z"
    }
  }

  @Test("a list that cannot be read gives the lines convert gives")
  func unreadableList() throws {
    let now = try at("2026-12-07T07:35:10Z")
    #expect {
      _ = try respond(.dismiss, "X", in: "[{\"alarmTime\": \"25:00\"}]", now: now)
    } throws: { error in
      guard let error = error as? ResponseError else { return false }
      return error.isUnreadable
        && error.message == "l.json: alarm 1: alarmTime \"25:00\" is not a valid HH:mm time"
    }
  }

  @Test("a snooze written into .ics keeps its firing id through a list and back")
  func snoozeIDThroughAList() throws {
    let start = try at("2026-12-07T00:00:00Z")
    let calendar = try exported(Array(appList.utf8), now: start)
    let rang = try #require(try firings(calendar, from: at("2026-12-07T07:30:00Z")).first)
    let now = try at("2026-12-07T07:30:20Z")
    let snoozed = try FiringResponder.respond(
      .snooze(until: at("2026-12-07T07:35:20Z")), toFiring: rang.id.description, in: calendar,
      file: "f.ics", now: now, zone: .utc)
    let list = try imported(snoozed.bytes, now: now)
    let back = try exported(list, now: now)
    let ids = try firings(snoozed.bytes, from: now).map(\.id)
    #expect(ids.first == snoozed.snooze?.id)
    #expect(try firings(back, from: now).map(\.id) == ids)
  }

  @Test("another client's snooze UID is kept in the list as snoozeUid and exported again")
  func otherClientsSnoozeUID() throws {
    let start = try at("2026-12-07T00:00:00Z")
    let calendar = try exported(Array(appList.utf8), now: start)
    let rang = try #require(try firings(calendar, from: at("2026-12-07T07:30:00Z")).first)
    let now = try at("2026-12-07T07:30:20Z")
    let snoozed = try FiringResponder.respond(
      .snooze(until: at("2026-12-07T07:35:20Z")), toFiring: rang.id.description, in: calendar,
      file: "f.ics", now: now, zone: .utc)
    let uid = try #require(snoozed.snooze?.alarmUID)
    let other = Array(
      String(decoding: snoozed.bytes, as: UTF8.self)
        .replacingOccurrences(of: "UID:\(uid)", with: "UID:other-client-1").utf8)
    let list = try imported(other, now: now)
    #expect(String(decoding: list, as: UTF8.self).contains("\"snoozeUid\": \"other-client-1\""))
    let back = try exported(list, now: now)
    #expect(try firings(back, from: now).map(\.id) == (try firings(other, from: now).map(\.id)))
  }
}
