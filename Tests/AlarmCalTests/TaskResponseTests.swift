import AlarmCal
import Foundation
import ICalendar
import Testing

/// A task reminder's RFC 9074 state (`acknowledgedAt`, `snoozedUntil`, `snoozeUid`) in task
/// records, through a calendar and back, and snoozes and dismissals written into task lists.
@Suite struct TaskResponseTests {
  private let reader = AlarmFileReader(fileName: "t.json", defaultTimeZone: "UTC")

  private func read(_ text: String) throws -> AlarmList {
    try reader.readList(Array(text.utf8)).get()
  }

  /// A task due 2026-12-20T17:00Z, reminded 30 minutes before, acknowledged and snoozed.
  private func snoozedTask(snoozeUID: String? = nil) throws -> ToDo {
    var task = ToDo(
      id: "T-1", title: "Water", deadline: .at(try local("20261220T170000")),
      remindMinutesBefore: 30, timeZone: "UTC")
    task.acknowledgedAt = try instant("20261220T163010Z")
    task.snoozedUntil = try instant("20261220T164010Z")
    task.snoozeUID = snoozeUID
    return task
  }

  /// The firings of the calendar `bytes` from `from`.
  private func firings(_ bytes: [UInt8], from: Instant) throws -> [Firing] {
    var schedule = FiringSchedule(defaultZone: .utc)
    try schedule.read(bytes, file: "f.ics")
    let found = Array(schedule.firings(from: from, to: nil, limit: 4))
    return found
  }

  @Test("alarmcal's shape writes the state after the task's members and reads it back")
  func alarmcalShapeRoundTrip() throws {
    let task = try snoozedTask(snoozeUID: "S-1")
    let text = String(decoding: AlarmFileWriter.bytes([], tasks: [task]), as: UTF8.self)
    #expect(
      text == """
        {
          "alarms": [],
          "tasks": [
            {
              "UUID": "T-1",
              "title": "Water",
              "deadline": "2026-12-20T17:00",
              "completed": false,
              "remindMinutesBefore": 30,
              "timeZone": "UTC",
              "acknowledgedAt": "2026-12-20T16:30:10Z",
              "snoozedUntil": "2026-12-20T16:40:10Z",
              "snoozeUid": "S-1"
            }
          ]
        }

        """)
    #expect(try read(text).tasks == [task])
  }

  @Test("the app's shape gives the state after the record's keys; a derived snoozeUid is dropped")
  func appShapeRoundTrip() throws {
    let list = try read(
      """
      {"T-1": {"UUID": "T-1", "title": "Water", "deadline": "2026-12-20T17:00",
       "remindMinutesBefore": 30, "acknowledgedAt": "2026-12-20T17:30:10+01:00",
       "snoozedUntil": "2026-12-20T16:40:10Z", "colour": "green"}}
      """)
    var task = try #require(list.tasks.first)
    #expect(task.extraFields == [JSONMember("colour", .string("green"))])
    task.extraFields = []
    #expect(task == (try snoozedTask()))
    #expect(task.exportedSnoozeUID.map { !$0.isEmpty } == true)
    // A snoozeUid that is the derived one is not kept: the export derives it again.
    let derived = try #require(task.exportedSnoozeUID)
    let again = try read(
      """
      [{"UUID": "T-1", "title": "Water", "deadline": "2026-12-20T17:00",
        "remindMinutesBefore": 30, "snoozedUntil": "2026-12-20T16:40:10Z",
        "snoozeUid": "\(derived)"}]
      """)
    #expect(again.tasks.first?.snoozeUID == nil)
    let shaped = AlarmFileWriter.appShape([], tasks: list.tasks, zone: "UTC")
    #expect(
      String(decoding: shaped.bytes, as: UTF8.self) == """
        {
          "T-1": {
            "UUID": "T-1",
            "title": "Water",
            "deadline": "2026-12-20T17:00",
            "remindMinutesBefore": 30,
            "acknowledgedAt": "2026-12-20T16:30:10Z",
            "snoozedUntil": "2026-12-20T16:40:10Z",
            "colour": "green"
          }
        }

        """)
  }

  @Test("a task's acknowledgedAt that is no date-time with a zone is one problem line")
  func badState() throws {
    let result = reader.readList(
      Array(
        #"{"tasks": [{"title": "Water", "deadline": "2026-12-20", "acknowledgedAt": "2026-12-20T16:30"}]}"#
          .utf8))
    guard case .failure(let failure) = result else {
      Issue.record("the list was read")
      return
    }
    #expect(
      failure.problems.map(\.description) == [
        #"t.json: task 1 ("Water"): acknowledgedAt "2026-12-20T16:30" must be a date-time with Z or an offset, such as 2026-12-02T06:39:00Z"#
      ])
  }

  @Test(
    "task → .ics → task keeps the state and a client's snooze UID; the calendar rings the snooze")
  func calendarRoundTrip() throws {
    let now = try instant("20261220T163010Z")
    for task in [try snoozedTask(), try snoozedTask(snoozeUID: "client-snooze")] {
      let bytes = try AlarmExporter(now: now, timestamp: now).bytes([], tasks: [task])
      let text = String(decoding: bytes, as: UTF8.self)
      #expect(text.contains("TRIGGER;RELATED=END:-PT30M\r\nACKNOWLEDGED:20261220T163010Z\r\n"))
      #expect(text.contains("UID:\(try #require(task.exportedSnoozeUID))\r\n"))
      #expect(text.contains("RELATED-TO;RELTYPE=SNOOZE:\(task.reminderUID)\r\n"))
      let imported = try AlarmImporter(fileName: "f.ics", defaultTimeZone: "UTC", now: now)
        .importAlarms(fromUTF8: bytes)
      #expect(imported.tasks == [task])
      #expect(imported.alarms.isEmpty)
      #expect(imported.losses.isEmpty)
      // The acknowledged ring is done; the snooze rings next.
      let next = try #require(try firings(bytes, from: now).first)
      #expect(next.isSnooze)
      #expect(next.trigger == task.snoozedUntil)
    }
  }

  @Test("a dismissal in a dictionary on one line adds acknowledgedAt without spaces")
  func dismissCompactDictionary() throws {
    let list = #"{"T-1":{"title":"Water","deadline":"2026-12-20T17:00Z","remindMinutesBefore":30}}"#
    let now = try instant("20261220T163100Z")
    let read = try read(list)
    let calendar = try AlarmExporter(now: now, timestamp: now).bytes([], tasks: read.tasks)
    let rang = try #require(try firings(calendar, from: try instant("20261220T163000Z")).first)
    let written = try ListResponder.respond(
      .dismiss, toFiring: rang.id.description, in: Array(list.utf8), file: "t.json", now: now,
      zone: .utc)
    #expect(
      String(decoding: written.bytes, as: UTF8.self)
        == #"{"T-1":{"title":"Water","deadline":"2026-12-20T17:00Z","remindMinutesBefore":30,"acknowledgedAt":"2026-12-20T16:31:00Z"}}"#
    )
  }
}
