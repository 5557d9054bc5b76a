import AlarmCal
import Foundation
import ICalendar
import Testing

/// Task records written back in the app's shape: each deadline in the form it came in, the
/// record's keys, and the fields alarmcal does not know, through a calendar and back.
@Suite struct TaskShapeTests {
  private let now = Instant(secondsSince1970: 1_796_198_400)  // 2026-12-02T08:00:00Z

  private func read(_ json: String) throws -> AlarmList {
    try AlarmFileReader(fileName: "t.json", defaultTimeZone: "Europe/Berlin").readList(
      Array(json.utf8)
    ).get()
  }

  private func export(_ list: AlarmList) throws -> String {
    try AlarmExporter(now: now, timestamp: now).text(list.alarms, tasks: list.tasks)
  }

  private func importCalendar(_ text: String) throws -> ImportResult {
    try AlarmImporter(fileName: "t.ics", defaultTimeZone: "Europe/Berlin", now: now)
      .importAlarms(fromText: text)
  }

  /// The app's shape of an import, as text.
  private func appShape(_ result: ImportResult) -> String {
    String(
      decoding: AlarmFileWriter.appShape(
        result.alarms, tasks: result.tasks, zone: "Europe/Berlin"
      ).bytes, as: UTF8.self)
  }

  /// The deadline's JSON text in alarmcal's shape.
  private func alarmcalDeadline(_ tasks: [ToDo]) throws -> String {
    let text = String(decoding: AlarmFileWriter.bytes([], tasks: tasks), as: UTF8.self)
    return String(try #require(text.firstMatch(of: /"deadline": ([^\n]*),\n/)?.output.1))
  }

  @Test(
    "each deadline comes back from the calendar in the form it came in, in both shapes",
    arguments: [
      // A Foundation Date number keeps its fraction; DUE holds the whole second.
      "830000000.75",
      "818362800",
      "\"2026-12-07T16:00:00Z\"",
      // Berlin is at +01:00 in December: the offset and its wall clock stay as written.
      "\"2026-12-07T17:00:00+02:00\"",
      "\"2026-12-07T11:30-05:00\"",
      "\"2026-12-07T17:00\"",
      "\"2026-12-07\"",
    ])
  func deadlineForms(literal: String) throws {
    let app =
      "{\n  \"T1\": {\n    \"UUID\": \"T1\",\n    \"title\": \"Taxes\",\n    \"deadline\": \(literal)\n  }\n}\n"
    let result = try importCalendar(try export(try read(app)))
    #expect(result.losses.isEmpty)
    #expect(appShape(result) == app)
    #expect(try alarmcalDeadline(result.tasks) == literal)
  }

  @Test("DUE keeps the RFC 5545 time; the record's spelling rides in an X- parameter")
  func dueCarriesTheSpelling() throws {
    let text = try export(
      try read(#"{"T1":{"UUID":"T1","title":"Taxes","deadline":"2026-12-07T17:00:00+02:00"}}"#))
    let unfolded = text.replacing("\r\n ", with: "")
    // 17:00 at +02:00 is 15:00Z, 16:00 in Berlin.
    #expect(
      unfolded.contains(
        "DUE;TZID=Europe/Berlin;X-ALARMCAL-DEADLINE=\"2026-12-07T17:00:00+02:00\":20261207T160000\r\n"
      ))
    #expect(unfolded.contains(#"X-ALARMCAL-KEYS:["UUID"\,"title"\,"deadline"]"#))
  }

  @Test(
    "a deadline another client moved is spelled in the carried form at DUE's new time",
    arguments: [
      ("830000000.75", "818366400"),
      ("2026-12-07T17:00:00+02:00", "\"2026-12-07T22:00:00+02:00\""),
      ("2026-12-07T16:00:00Z", "\"2026-12-07T20:00:00Z\""),
      ("2026-12-07T17:00", "\"2026-12-07T21:00\""),
    ])
  func movedDeadline(carried: String, expected: String) throws {
    let calendar = try calendarWithDue(
      "DUE;TZID=Europe/Berlin;X-ALARMCAL-DEADLINE=\"\(carried)\":20261207T210000")
    let result = try importCalendar(calendar)
    #expect(result.losses.isEmpty)
    #expect(try alarmcalDeadline(result.tasks) == expected)
  }

  @Test("without a carried form: a Date number (or a date) in the app's shape, local in alarmcal's")
  func naturalForms() throws {
    let timed = try importCalendar(try calendarWithDue("DUE:20261207T160000Z"))
    // 2026-12-07T16:00:00Z is 818352000 s after 2001-01-01T00:00:00Z.
    #expect(appShape(timed).contains(#""deadline": 818352000"#))
    #expect(try alarmcalDeadline(timed.tasks) == #""2026-12-07T16:00""#)
    let day = try importCalendar(try calendarWithDue("DUE;VALUE=DATE:20261207"))
    #expect(appShape(day).contains(#""deadline": "2026-12-07""#))
    #expect(appShape(day).hasPrefix("{\n  \"T1\": {\n    \"UUID\": \"T1\",\n    \"title\": \"T\""))
  }

  @Test("a carried spelling that is no deadline is reported and the task kept")
  func badCarriedSpelling() throws {
    let result = try importCalendar(
      try calendarWithDue("DUE;X-ALARMCAL-DEADLINE=0x10:20261207T160000Z"))
    #expect(result.tasks.count == 1)
    #expect(
      result.losses.map(\.description).contains {
        $0.contains(#"DUE's X-ALARMCAL-DEADLINE "0x10" is not a deadline"#)
      })
    #expect(appShape(result).contains(#""deadline": 818352000"#))
  }

  @Test("the app's keys, in its order, and its own fields come back through the calendar")
  func recordKeysAndExtras() throws {
    let app = """
      {
        "A": {
          "title": "Plumber",
          "UUID": "A",
          "deadline": 818362800,
          "remindMinutesBefore": 0,
          "colour": "red",
          "completed": false,
          "tags": [
            "home",
            "urgent"
          ]
        },
        "B": {
          "deadline": "2026-12-19",
          "title": "Gift",
          "notes": null,
          "remindMinutesBefore": null
        }
      }

      """
    let list = try read(app)
    #expect(list.tasks.map(\.extraFields.count) == [2, 0])
    let text = try export(list)
    #expect(text.contains(#"X-ALARMCAL-FIELD:{"colour":"red"}"#))
    let result = try importCalendar(text)
    #expect(result.losses.isEmpty)
    #expect(appShape(result) == app)
    #expect(result.tasks == list.tasks)
  }

  @Test("tasks beside alarms follow them in the one array the reader takes, each with its UUID")
  func mixedList() throws {
    let list = try read(
      #"[{"alarmTime":"07:30","name":"Wake","repeatDays":[false,true,true,true,true,true,false],"sound":"","snoozeEnabled":true,"isEnabled":true,"creatTime":"W1"},{"title":"Taxes","deadline":830000000.75,"UUID":"T1"}]"#
    )
    let result = try importCalendar(try export(list))
    let shaped = appShape(result)
    #expect(shaped.hasPrefix("[\n  {\n    \"alarmTime\": \"07:30\""))
    #expect(
      shaped.hasSuffix(
        "  },\n  {\n    \"title\": \"Taxes\",\n    \"deadline\": 830000000.75,\n    \"UUID\": \"T1\"\n  }\n]\n"
      ))
    let back = try read(shaped)
    #expect(back.alarms.map(\.id) == ["W1"])
    #expect(back.tasks == list.tasks)
    #expect(back.tasks.first?.deadlineLiteral == .number("830000000.75"))
  }

  @Test("a dictionary entry without a UUID key keeps its key as the id, in either layout")
  func idFromKey() throws {
    let list = try read(#"{"K9":{"title":"T","deadline":"2026-12-07T17:00"}}"#)
    let tasksOnly = String(
      decoding: AlarmFileWriter.appShape([], tasks: list.tasks, zone: "Europe/Berlin").bytes,
      as: UTF8.self)
    #expect(
      tasksOnly
        == "{\n  \"K9\": {\n    \"title\": \"T\",\n    \"deadline\": \"2026-12-07T17:00\"\n  }\n}\n"
    )
    #expect(try read(tasksOnly).tasks == list.tasks)
  }

  /// A calendar with one task `T1` whose DUE line is `due`.
  private func calendarWithDue(_ due: String) throws -> String {
    [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//test//EN", "BEGIN:VTODO", "UID:T1",
      "DTSTAMP:20261202T080000Z", "SUMMARY:T", due, "END:VTODO", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")
  }
}
