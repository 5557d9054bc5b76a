import AlarmCal
import ICalendar
import Testing

/// VTODOs read back as tasks: what each client writes, what a task cannot hold, round trips.
@Suite struct TaskImportTests {
  private let now = Instant(secondsSince1970: 1_796_198_400)  // 2026-12-02T08:00:00Z

  private func importing(_ body: String) throws -> ImportResult {
    let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\n\(body)END:VCALENDAR\r\n"
    return try AlarmImporter(fileName: "t.ics", defaultTimeZone: "Europe/Berlin", now: now)
      .importAlarms(fromText: text)
  }

  private func todo(_ lines: [String], alarms: [[String]] = []) -> String {
    var text = "BEGIN:VTODO\r\nDTSTAMP:20261201T000000Z\r\n"
    for line in lines { text += line + "\r\n" }
    for alarm in alarms {
      text += "BEGIN:VALARM\r\n"
      for line in alarm { text += line + "\r\n" }
      text += "END:VALARM\r\n"
    }
    return text + "END:VTODO\r\n"
  }

  private func date(_ year: Int, _ month: Int, _ day: Int) throws -> LocalDate {
    try #require(LocalDate(year: year, month: month, day: day))
  }

  @Test("Apple Reminders: DUE in a zone, an absolute trigger 10 minutes before is the reminder")
  func appleReminder() throws {
    let result = try importing(
      todo(
        [
          "UID:A1", "SUMMARY:Call the bank", "DUE;TZID=America/New_York:20261210T090000",
          "DESCRIPTION:ask about the fee", "STATUS:NEEDS-ACTION",
        ],
        alarms: [
          [
            "UID:AL1", "ACTION:DISPLAY", "DESCRIPTION:Reminder",
            "TRIGGER;VALUE=DATE-TIME:20261210T135000Z",
          ]
        ]))
    #expect(result.losses.isEmpty && result.warnings.isEmpty && result.alarms.isEmpty)
    #expect(
      result.tasks == [
        ToDo(
          id: "A1", title: "Call the bank", deadline: .at(try local("20261210T090000")),
          notes: "ask about the fee", remindMinutesBefore: 10, timeZone: "America/New_York")
      ])
  }

  @Test("a date deadline, a floating DUE, no alarm: no reminder; the default zone")
  func dateAndFloating() throws {
    let result = try importing(
      todo(["UID:D", "SUMMARY:Day", "DUE;VALUE=DATE:20261224"])
        + todo(
          ["UID:F", "SUMMARY:Floating", "DUE:20261224T180000"],
          alarms: [
            ["ACTION:DISPLAY", "DESCRIPTION:r", "TRIGGER;RELATED=END:-PT1H"]
          ]))
    #expect(result.losses.isEmpty && result.alarms.isEmpty)
    #expect(
      result.tasks == [
        ToDo(
          id: "D", title: "Day", deadline: .on(try date(2026, 12, 24)), remindMinutesBefore: nil,
          timeZone: "Europe/Berlin"),
        ToDo(
          id: "F", title: "Floating", deadline: .at(try local("20261224T180000")),
          remindMinutesBefore: 60, timeZone: "Europe/Berlin"),
      ])
  }

  @Test("Thunderbird: DTSTART and DUE; a start-related trigger that lands before DUE fits")
  func thunderbirdTask() throws {
    let result = try importing(
      todo(
        [
          "UID:T", "SUMMARY:Report", "DTSTART;TZID=Europe/Berlin:20261214T090000",
          "DUE;TZID=Europe/Berlin:20261215T090000", "X-MOZ-GENERATION:2",
        ],
        alarms: [["ACTION:DISPLAY", "DESCRIPTION:r", "TRIGGER:PT12H"]]))
    #expect(result.tasks.map(\.remindMinutesBefore) == [720])
    #expect(
      result.losses.map(\.description) == [
        #"t.ics:4: task "T" (Report): starts at 2026-12-14T09:00 Europe/Berlin (DTSTART), and a task has only a deadline; the task is kept: without its start"#
      ])
  }

  @Test("alarms that cannot be the reminder stay as one-shot alarms UID#n, each saying why")
  func extraAlarms() throws {
    let result = try importing(
      todo(
        ["UID:X", "SUMMARY:Many", "DUE:20261215T170000Z"],
        alarms: [
          ["ACTION:DISPLAY", "DESCRIPTION:r", "TRIGGER;RELATED=END:P2D"],
          ["ACTION:DISPLAY", "DESCRIPTION:r", "TRIGGER;RELATED=END:-P1D"],
          ["ACTION:AUDIO", "ATTACH:Chime", "TRIGGER;RELATED=END:-PT5M"],
          ["ACTION:DISPLAY", "DESCRIPTION:r", "TRIGGER;RELATED=END:-PT10M"],
          ["ACTION:NONE", "TRIGGER;RELATED=END:-PT20M"],
        ]))
    #expect(result.tasks.map(\.remindMinutesBefore) == [1440])
    #expect(result.alarms.map(\.id) == ["X#1", "X#3", "X#4", "X#5"])
    #expect(
      result.alarms.map(\.schedule) == [
        .at(try local("20261217T170000")), .at(try local("20261215T165500")),
        .at(try local("20261215T165000")), .at(try local("20261215T164000")),
      ])
    #expect(result.alarms.map(\.sound) == [nil, "Chime", nil, nil])
    #expect(
      result.warnings.map(\.message) == [
        "its alarm 1 does not ring a whole number of minutes between four weeks before and a day after the deadline, so it is kept as the one-shot alarm X#1",
        "its alarm 3 has a sound of its own, so it is kept as the one-shot alarm X#3",
        "its alarm 4 is a second reminder, so it is kept as the one-shot alarm X#4",
        "its alarm 5 is switched off (ACTION:NONE), so it is kept as the one-shot alarm X#5",
      ])
  }

  @Test("Apple's date reminder (09:00 on the due day) is the task's reminder, -540 minutes")
  func appleDateReminder() throws {
    let result = try importing(
      todo(
        [
          "UID:AD", "SUMMARY:Bins out", "DUE;VALUE=DATE:20261215", "DTSTART;VALUE=DATE:20261215",
        ],
        alarms: [
          ["ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER;VALUE=DATE-TIME:20261215T080000Z"]
        ]))
    // A start at the deadline loses nothing: no line for DTSTART.
    #expect(result.losses.isEmpty && result.warnings.isEmpty && result.alarms.isEmpty)
    #expect(
      result.tasks == [
        ToDo(
          id: "AD", title: "Bins out", deadline: .on(try date(2026, 12, 15)),
          remindMinutesBefore: -540, timeZone: "Europe/Berlin")
      ])
    let text = try AlarmExporter(now: now, timestamp: now).text([], tasks: result.tasks)
    #expect(text.contains("TRIGGER;RELATED=END:PT9H\r\n"))
  }

  @Test("an old repeating task names its past deadline; a reminder before now is warned about")
  func pastDeadlines() throws {
    let result = try importing(
      todo(
        [
          "UID:OLD", "SUMMARY:Weekly", "DUE;TZID=Europe/Berlin:20250106T100000",
          "RRULE:FREQ=WEEKLY",
        ],
        alarms: [["ACTION:DISPLAY", "DESCRIPTION:r", "TRIGGER;RELATED=END:-PT15M"]]))
    #expect(
      result.losses.map(\.description) == [
        #"t.ics:4: task "OLD" (Weekly): repeats (RRULE:FREQ=WEEKLY), and a task has one deadline; the task is kept: once, at its first deadline, 2025-01-06T10:00 Europe/Berlin, which is before now"#
      ])
    #expect(
      result.warnings.map(\.message) == [
        "its reminder, 2025-01-06T09:45 Europe/Berlin, is before now (2026-12-02T08:00:00Z), so it will not ring"
      ])
  }

  @Test("an override of a cancelled series rings on its own, as an alarm")
  func overrideOfCancelledTask() throws {
    let result = try importing(
      todo(["UID:C", "SUMMARY:s", "STATUS:CANCELLED", "DUE:20261207T080000Z", "RRULE:FREQ=DAILY"])
        + todo(
          ["UID:C", "SUMMARY:s", "RECURRENCE-ID:20261208T080000Z", "DUE:20261208T090000Z"],
          alarms: [["ACTION:DISPLAY", "DESCRIPTION:r", "TRIGGER;RELATED=END:-PT5M"]]))
    #expect(result.tasks.isEmpty)
    #expect(result.alarms.map(\.id) == ["C#2026-12-08T08:00:00Z"])
    #expect(result.alarms.map(\.schedule) == [.at(try local("20261208T085500"))])
    #expect(result.losses.map(\.reason) == ["is cancelled (STATUS:CANCELLED)"])
  }

  @Test("a task's acknowledgement that covers a reminder still to ring is kept on the task")
  func acknowledgedReminder() throws {
    let result = try importing(
      todo(
        ["UID:K", "SUMMARY:k", "DUE:20261210T090000Z"],
        alarms: [
          [
            "ACTION:DISPLAY", "DESCRIPTION:r", "TRIGGER;RELATED=END:-PT5M",
            "ACKNOWLEDGED:20261210T085600Z",
          ]
        ]))
    #expect(result.tasks.map(\.remindMinutesBefore) == [5])
    #expect(result.tasks.map(\.acknowledgedAt) == [try instant("20261210T085600Z")])
    #expect(result.losses.isEmpty)
  }

  @Test("Nextcloud: RRULE, PRIORITY and PERCENT-COMPLETE get a loss line each; the task stays")
  func nextcloudTask() throws {
    let result = try importing(
      todo(
        [
          "UID:N", "SUMMARY:Water plants", "DUE;TZID=Europe/Berlin:20261207T080000",
          "RRULE:FREQ=WEEKLY", "PRIORITY:1", "PERCENT-COMPLETE:40",
        ],
        alarms: [["ACTION:DISPLAY", "DESCRIPTION:r", "TRIGGER;RELATED=END:PT0S"]]))
    #expect(result.tasks.map(\.remindMinutesBefore) == [0])
    #expect(
      result.losses.map(\.description) == [
        #"t.ics:4: task "N" (Water plants): repeats (RRULE:FREQ=WEEKLY), and a task has one deadline; the task is kept: once, at its first deadline, 2026-12-07T08:00 Europe/Berlin"#,
        #"t.ics:4: task "N" (Water plants): PRIORITY:1 is not held by a task; the task is kept: without its priority"#,
        #"t.ics:4: task "N" (Water plants): PERCENT-COMPLETE:40 is not held by a task (only done or not); the task is kept: without its progress"#,
      ])
  }

  @Test("a changed instance of a repeating task is reported; the series stays one task")
  func taskOverride() throws {
    let result = try importing(
      todo(["UID:O", "SUMMARY:Weekly", "DUE:20261207T080000Z", "RRULE:FREQ=WEEKLY"])
        + todo([
          "UID:O", "SUMMARY:Weekly", "RECURRENCE-ID:20261214T080000Z", "DUE:20261215T080000Z",
        ]))
    #expect(result.tasks.map(\.id) == ["O"])
    #expect(
      result.losses.map(\.description).last
        == #"t.ics:11: task "O" (Weekly): the instance of 2026-12-14T08:00:00Z is moved to 2026-12-15T08:00:00Z (RECURRENCE-ID), and a task has one deadline; the task is kept: once, at the series' first deadline"#
    )
  }

  @Test("PRIORITY:0 (undefined), PERCENT-COMPLETE:0 and 100 lose nothing; 100 alone is done")
  func nothingLost() throws {
    let result = try importing(
      todo([
        "UID:Z", "SUMMARY:z", "DUE:20261207T080000Z", "PRIORITY:0", "PERCENT-COMPLETE:100",
        "STATUS:COMPLETED", "COMPLETED:20261206T080000Z",
      ]) + todo(["UID:Y", "SUMMARY:y", "DUE:20261207T080000Z", "PERCENT-COMPLETE:0"])
        + todo(["UID:H", "SUMMARY:h", "DUE:20261207T080000Z", "PERCENT-COMPLETE:100"]))
    #expect(result.losses.isEmpty)
    #expect(result.tasks.map(\.completed) == [true, false, true])
  }

  @Test("DTSTART and DURATION without DUE: due at the end, the start reported")
  func startAndDuration() throws {
    let result = try importing(
      todo(
        [
          "UID:S", "SUMMARY:Two hours", "DTSTART;TZID=America/New_York:20261210T090000",
          "DURATION:PT2H",
        ],
        alarms: [["ACTION:DISPLAY", "DESCRIPTION:r", "TRIGGER;RELATED=END:-PT15M"]])
        + todo(["UID:W", "SUMMARY:Week", "DTSTART;VALUE=DATE:20261207", "DURATION:P7D"]))
    #expect(
      result.tasks == [
        ToDo(
          id: "S", title: "Two hours", deadline: .at(try local("20261210T110000")),
          remindMinutesBefore: 15, timeZone: "America/New_York"),
        ToDo(
          id: "W", title: "Week", deadline: .on(try date(2026, 12, 14)), remindMinutesBefore: nil,
          timeZone: "Europe/Berlin"),
      ])
    #expect(
      result.losses.map(\.description).first
        == #"t.ics:4: task "S" (Two hours): starts at 2026-12-10T09:00:00 and lasts PT2H (DTSTART and DURATION), and a task has only a deadline; the task is kept: due at its end, 2026-12-10T11:00 America/New_York"#
    )
  }

  @Test("no deadline: alarms are kept as alarms (warned), a task with none is reported")
  func noDeadline() throws {
    let result = try importing(
      todo(
        ["UID:P", "SUMMARY:Start only", "DTSTART:20261210T090000Z"],
        alarms: [["ACTION:DISPLAY", "DESCRIPTION:r", "TRIGGER:PT0S"]])
        + todo(["UID:Q", "SUMMARY:Someday"])
        + todo(["UID:C", "STATUS:CANCELLED", "DUE:20261210T090000Z"])
        + todo(
          ["UID:A", "SUMMARY:Alarm only"],
          alarms: [["ACTION:DISPLAY", "DESCRIPTION:r", "TRIGGER;VALUE=DATE-TIME:20261210T090000Z"]])
    )
    #expect(result.tasks.isEmpty)
    #expect(result.alarms.map(\.id) == ["P"])
    #expect(
      result.warnings.map(\.description) == [
        #"t.ics:4: task "P" (Start only): has no deadline (DUE, or DTSTART and DURATION); its alarms are kept as alarms"#
      ])
    #expect(
      result.losses.map(\.description) == [
        #"t.ics:15: task "Q" (Someday): has no deadline (DUE, or DTSTART and DURATION) and no alarm; the task is skipped"#,
        #"t.ics:20: task "C": is cancelled (STATUS:CANCELLED); the task is skipped"#,
        #"t.ics:26: task "A" (Alarm only): has no deadline (DUE, or DTSTART and DURATION) and no DTSTART for its alarms to ring from; the task is skipped"#,
      ])
  }

  @Test("a pending snooze of the reminder is kept on the task with its own UID")
  func snoozedReminder() throws {
    let result = try importing(
      todo(
        ["UID:R", "SUMMARY:Snoozed", "DUE:20261210T090000Z"],
        alarms: [
          [
            "UID:R-1", "ACTION:DISPLAY", "DESCRIPTION:r", "TRIGGER;RELATED=END:PT0S",
            "ACKNOWLEDGED:20261210T090100Z",
          ],
          [
            "UID:R-s", "ACTION:DISPLAY", "DESCRIPTION:r",
            "TRIGGER;VALUE=DATE-TIME:20261210T091100Z",
            "RELATED-TO;RELTYPE=SNOOZE:R-1",
          ],
        ]))
    #expect(result.tasks.map(\.remindMinutesBefore) == [0])
    #expect(result.alarms.isEmpty)
    let task = try #require(result.tasks.first)
    #expect(task.acknowledgedAt == (try instant("20261210T090100Z")))
    #expect(task.snoozedUntil == (try instant("20261210T091100Z")))
    #expect(task.snoozeUID == "R-s")
    #expect(result.losses.isEmpty)
  }

  /// Generated tasks: every deadline form, zone, reminder and state.
  static func generatedTasks() -> [ToDo] {
    let zones = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "UTC", "Australia/Lord_Howe"]
    let titles = ["Taxes", "Call, then write; done", "Ünïcödé ✓", "line\nbreak", ""]
    let reminders: [Int?] = [nil, 0, 1, 15, 90, 1440, 40_320, -540, -1440]
    var tasks: [ToDo] = []
    for index in 0..<140 {
      let date = LocalDate(daysSince1970: 20_400 + index * 3)
      let time = LocalTime(secondsSinceMidnight: (index * 37 % 1440) * 60)
      let deadline: ToDo.Deadline = index % 4 == 0 ? .on(date) : .at(LocalDateTime(date, time))
      tasks.append(
        ToDo(
          id: "task-\(index)", title: titles[index % titles.count], deadline: deadline,
          completed: index % 3 == 0, notes: index % 2 == 0 ? nil : "note \(index)",
          remindMinutesBefore: reminders[index % reminders.count],
          // A date deadline is floating: its zone is the reader's, as the list reader sets it.
          timeZone: index % 4 == 0 ? "Europe/Berlin" : zones[index % zones.count]))
    }
    return tasks
  }

  @Test("task list → .ics → task list: 140 generated tasks come back unchanged")
  func roundTrip() throws {
    let tasks = Self.generatedTasks()
    let text = try AlarmExporter(now: now, timestamp: now).text([], tasks: tasks)
    // Read at a moment before every deadline, so no reminder is reported as past.
    let before = Instant(secondsSince1970: 1_735_689_600)  // 2025-01-01T00:00:00Z
    let back = try AlarmImporter(fileName: "t.ics", defaultTimeZone: "Europe/Berlin", now: before)
      .importAlarms(fromText: text)
    #expect(back.losses.isEmpty && back.warnings.isEmpty && back.alarms.isEmpty)
    #expect(back.tasks.count == tasks.count)
    #expect(back.tasks == tasks)
  }
}
