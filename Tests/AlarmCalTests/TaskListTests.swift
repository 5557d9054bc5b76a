import AlarmCal
import Foundation
import ICalendar
import Testing

/// Task lists as to-do apps store them, and the VTODOs they become.
@Suite struct TaskListTests {
  private let now = Instant(secondsSince1970: 1_796_198_400)  // 2026-12-02T08:00:00Z

  private func list(_ json: String) -> Result<AlarmList, AlarmFileProblems> {
    AlarmFileReader(fileName: "t.json", defaultTimeZone: "Europe/Berlin").readList(
      Array(json.utf8))
  }

  private func tasks(_ json: String) throws -> [ToDo] {
    try list(json).get().tasks
  }

  private func problems(_ json: String) -> [String] {
    switch list(json) {
    case .success: ["(no problem)"]
    case .failure(let failure): failure.problems.map(\.description)
    }
  }

  @Test("the app's storage, a bare list, and tasks beside alarms all read the same task")
  func shapes() throws {
    let record = #"{"title":"Taxes","deadline":"2026-12-07T17:00","UUID":"T1"}"#
    let expected = ToDo(
      id: "T1", title: "Taxes",
      deadline: .at(
        LocalDateTime(
          try #require(LocalDate(year: 2026, month: 12, day: 7)),
          try #require(LocalTime(hour: 17, minute: 0, second: 0)))),
      timeZone: "Europe/Berlin")
    #expect(try tasks(#"{"T1":\#(record)}"#) == [expected])
    #expect(try tasks("[\(record)]") == [expected])
    #expect(try tasks(#"{"alarms":[],"tasks":[\#(record)]}"#) == [expected])
    let mixed = try list(#"[{"time":"07:00","label":"Wake"},\#(record)]"#).get()
    #expect(mixed.alarms.map(\.label) == ["Wake"])
    #expect(mixed.tasks == [expected])
  }

  @Test(
    "deadlines: local, with an offset, a date, a Foundation Date number",
    arguments: [
      (#""2026-12-07T17:00""#, "2026-12-07T17:00"),
      (#""2026-12-07T16:00:00Z""#, "2026-12-07T17:00"),
      (#""2026-12-07T11:00:00-05:00""#, "2026-12-07T17:00"),
      (#""2026-12-07""#, "2026-12-07"),
      // 818352000 s after 2001-01-01T00:00:00Z is 2026-12-07T16:00:00Z, 17:00 in Berlin.
      ("818352000", "2026-12-07T17:00"),
    ])
  func deadlines(json: String, expected: String) throws {
    let task = try #require(try tasks(#"[{"title":"T","deadline":\#(json)}]"#).first)
    switch task.deadline {
    case .at(let local): #expect(AlarmTextFormats.localDateTimeString(local) == expected)
    case .on(let date): #expect(date.description == expected)
    }
  }

  @Test("a reminder is at the deadline unless told; null is none; a UUID is derived if absent")
  func defaults() throws {
    let read = try tasks(
      #"[{"title":"A","deadline":"2026-12-07"},{"title":"B","deadline":"2026-12-07","remindMinutesBefore":null,"completed":true,"notes":"n"}]"#
    )
    #expect(read.map(\.remindMinutesBefore) == [0, nil])
    #expect(read.map(\.completed) == [false, true])
    #expect(read[1].notes == "n")
    #expect(read[0].id.count == 36)
    // The same file gives the same ids.
    #expect(try tasks(#"[{"title":"A","deadline":"2026-12-07"}]"#).first?.id == read[0].id)
  }

  @Test("bad task fields get one message each, naming the task")
  func badFields() {
    #expect(
      problems(#"[{"title":"A","deadline":"soon","colour":"red"}]"#) == [
        #"t.json: task 1 ("A"): deadline "soon" is not an ISO 8601 date-time (2026-12-07T17:00, with Z or an offset) or a date (2026-12-07)"#
      ])
    #expect(
      problems(#"{"tasks":[{"title":"A","deadline":"2026-12-07","remindMinutesBefore":-1441}]}"#)
        == [
          #"t.json: task 1 ("A"): remindMinutesBefore must be a whole number of minutes from -1440 (a day after the deadline) to 40320, or null"#
        ])
    #expect(
      problems(
        #"{"tasks":[{"title":"A","deadline":"2026-12-07","UUID":"x"},{"title":"B","deadline":"2026-12-08","UUID":"x"}]}"#
      ) == [
        #"t.json: task 2 ("B"): id "x" is already used by task 1"#
      ])
  }

  private let taxes = #"""
    {"tasks":[
      {"title":"File taxes","deadline":"2026-12-07T17:00","UUID":"T1","remindMinutesBefore":60,"notes":"Form 1040"},
      {"title":"Buy gift","deadline":"2026-12-20","UUID":"T2"},
      {"title":"Call mum","deadline":"2026-12-05T10:00","UUID":"T3","completed":true},
      {"title":"No reminder","deadline":"2026-12-06T10:00","UUID":"T4","remindMinutesBefore":null}
    ]}
    """#

  @Test("each task becomes a VTODO with DUE, STATUS and a VALARM related to its end")
  func export() throws {
    let read = try list(taxes).get()
    let text = try AlarmExporter(now: now, timestamp: now).text(read.alarms, tasks: read.tasks)
    // Lines unfolded (RFC 5545 §3.1): the carried record makes the DUE line long.
    let unfolded = text.replacing("\r\n ", with: "")
    #expect(
      unfolded.contains(
        """
        BEGIN:VTODO\r
        UID:T1\r
        DTSTAMP:20261202T080000Z\r
        SUMMARY:File taxes\r
        DUE;TZID=Europe/Berlin;X-ALARMCAL-DEADLINE="2026-12-07T17:00":20261207T170000\r
        DESCRIPTION:Form 1040\r
        X-ALARMCAL-KEYS:["title"\\,"deadline"\\,"UUID"\\,"remindMinutesBefore"\\,"notes"]\r
        STATUS:NEEDS-ACTION\r
        BEGIN:VALARM\r
        UID:\(try #require(text.firstMatch(of: /UID:([0-9A-F-]{36})\r\nACTION:DISPLAY/)?.output.1))\r
        ACTION:DISPLAY\r
        DESCRIPTION:File taxes\r
        TRIGGER;RELATED=END:-PT1H\r
        END:VALARM\r
        END:VTODO\r

        """))
    #expect(text.contains("DUE;VALUE=DATE;X-ALARMCAL-DEADLINE=2026-12-20:20261220\r\n"))
    #expect(text.contains("STATUS:COMPLETED\r\nCOMPLETED:20261202T080000Z\r\n"))
    #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"))
    // What rings: an hour before the taxes, the gift at midnight; done and silent tasks never.
    var schedule = FiringSchedule(
      defaultZone: try #require(TimeZoneRules(identifier: "Europe/Berlin")))
    try schedule.read(Array(text.utf8), file: "t.ics")
    let firings = Array(schedule.firings(from: now, to: nil, limit: nil))
    #expect(
      firings.map { "\($0.uid) \($0.trigger)" } == [
        "T1 2026-12-07T15:00:00Z", "T2 2026-12-19T23:00:00Z",
      ])
    #expect(firings.allSatisfy { $0.component == "VTODO" })
  }

  @Test("a task list survives JSON → JSON unchanged")
  func jsonRoundTrip() throws {
    let read = try list(taxes).get()
    let written = AlarmFileWriter.bytes(read.alarms, tasks: read.tasks)
    #expect(try list(String(decoding: written, as: UTF8.self)).get() == read)
    #expect(AlarmFileWriter.bytes(read.alarms, tasks: read.tasks) == written)
  }

  @Test("a date deadline is floating: the reader's zone, and no timeZone written")
  func floatingDate() throws {
    let read = try tasks(
      #"[{"title":"Gift","deadline":"2026-12-19","timeZone":"America/New_York","UUID":"G"}]"#)
    #expect(read.map(\.timeZone) == ["Europe/Berlin"])
    let written = String(decoding: AlarmFileWriter.bytes([], tasks: read), as: UTF8.self)
    #expect(!written.contains("timeZone"))
    #expect(try tasks(written) == read)
  }
}
