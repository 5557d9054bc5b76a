import Foundation
import ICalendar
import Testing

@testable import AlarmCal

/// Defects found with real clients and exports (issue 15), each pinned by the reproduction file
/// that showed it (`Fixtures/repro`, copied from `../shared/repro`).
@Suite struct RealClientTests {
  /// The firings of `text` from `from` to `to` in `tz`, as `trigger recurrenceId rREPEAT id`,
  /// and the warnings.
  private func upcoming(
    _ text: String, name: String = "f.ics", from: String, to: String, tz: String = "UTC",
    includeAcknowledged: Bool = false, includeDue: Bool = false, limit: Int? = nil
  ) throws -> (firings: [String], ids: [String], warnings: [String], examined: Int) {
    var schedule = FiringSchedule(
      defaultZone: try #require(TimeZoneRules(identifier: tz)),
      includeAcknowledged: includeAcknowledged, includeDue: includeDue)
    try schedule.read(Array(text.utf8), file: name)
    var lines: [String] = []
    var ids: [String] = []
    var window = schedule.firings(from: try instant(from), to: try instant(to), limit: limit)
    while let firing = window.next() {
      lines.append("\(firing.trigger) \(firing.recurrenceID?.text ?? "-") r\(firing.repeatIndex)")
      ids.append(firing.id.description)
    }
    let late = window.lateWarnings
    return (lines, ids, (schedule.warnings + late).map(\.description), window.instancesExamined)
  }

  private func repro(_ name: String) throws -> String {
    try fixtureText("repro/\(name)")
  }

  private func importing(_ text: String, name: String = "f.ics", now: String) throws
    -> ImportResult
  {
    try AlarmImporter(fileName: name, defaultTimeZone: "Europe/Berlin", now: try instant(now))
      .importAlarms(fromText: text)
  }

  // MARK: 1. revisions

  @Test("an event saved twice: the highest SEQUENCE wins, and the older copy is named")
  func revisions() throws {
    let result = try upcoming(
      try repro("sequence-revision.ics"), from: "20241001T000000Z", to: "20241101T000000Z")
    #expect(result.firings == ["2024-10-04T13:00:00Z - r0"])
    #expect(
      result.warnings == [
        "f.ics:4: event \"edited\": an older revision than the one at line 16 (its SEQUENCE 0 is lower than 1); it is ignored"
      ])
    let imported = try importing(try repro("sequence-revision.ics"), now: "20241001T000000Z")
    #expect(imported.alarms.map(\.schedule) == [.at(try local("20241004T140000"))])
    #expect(imported.losses.isEmpty)
    #expect(
      imported.warnings.map(\.description) == [
        "f.ics:4: event \"edited\" (event): an older revision than the one at line 16 (its SEQUENCE 0 is lower than 1); it is ignored"
      ])
  }

  @Test("a later DTSTAMP wins at equal SEQUENCE, whatever the order in the file")
  func revisionByStamp() throws {
    let event = { (stamp: String, trigger: String) in
      "BEGIN:VEVENT\r\nUID:e\r\nDTSTAMP:\(stamp)\r\nDTSTART:20270101T090000Z\r\n"
        + "BEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:\(trigger)\r\nEND:VALARM\r\nEND:VEVENT\r\n"
    }
    let text =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n" + event("20261202T000000Z", "-PT5M")
      + event("20261201T000000Z", "-PT30M") + "END:VCALENDAR\r\n"
    let result = try upcoming(text, from: "20261231T000000Z", to: "20270102T000000Z")
    #expect(result.firings == ["2027-01-01T08:55:00Z - r0"])
    #expect(
      result.warnings == [
        "f.ics:13: event \"e\": an older revision than the one at line 4 (same SEQUENCE, and its DTSTAMP 2026-12-01T00:00:00Z is earlier than 2026-12-02T00:00:00Z); it is ignored"
      ])
  }

  // MARK: 2. alarms inside overrides

  @Test("an absolute trigger inside an override rings once, for that instance")
  func absoluteTriggerInOverride() throws {
    let result = try upcoming(
      try repro("override-absolute-trigger.ics"), from: "20241201T000000Z",
      to: "20250101T000000Z")
    #expect(result.firings == ["2024-12-20T23:00:00Z 2024-12-22T13:00:00Z r0"])
    #expect(result.warnings.isEmpty)
  }

  @Test("an RFC 9074 snooze in an override rings; the acknowledged ring of that day does not")
  func snoozeInOverride() throws {
    let text = try repro("snooze-in-override.ics")
    let result = try upcoming(text, from: "20270322T050000Z", to: "20270324T000000Z")
    #expect(
      result.firings == [
        "2027-03-22T06:15:05Z 2027-03-22T05:45:00Z r0",
        "2027-03-23T05:45:00Z 2027-03-23T05:45:00Z r0",
      ])
    let all = try upcoming(
      text, from: "20270322T050000Z", to: "20270323T000000Z", includeAcknowledged: true)
    #expect(
      all.firings == [
        "2027-03-22T05:45:00Z 2027-03-22T05:45:00Z r0",
        "2027-03-22T06:15:05Z 2027-03-22T05:45:00Z r0",
      ])
  }

  @Test(
    "overrides ring every alarm kind: relative, REPEAT, absolute, RFC 9074 snooze, X-MOZ-SNOOZE-TIME, THISANDFUTURE; a repeated RECURRENCE-ID keeps its latest revision"
  )
  func everyAlarmKindInOverrides() throws {
    let result = try upcoming(
      try fixtureText("schedule/override-alarms.ics"), from: "20270101T000000Z",
      to: "20270201T000000Z")
    #expect(
      result.firings == [
        "2027-01-04T07:50:00Z 2027-01-04T08:00:00Z r0",  // the master's -PT10M
        "2027-01-05T06:00:00Z 2027-01-05T08:00:00Z r0",  // the override's absolute trigger
        "2027-01-05T08:55:00Z 2027-01-05T08:00:00Z r0",  // -PT5M from the moved start
        "2027-01-05T08:56:00Z 2027-01-05T08:00:00Z r1",  // REPEAT:2, DURATION:PT1M
        "2027-01-05T08:57:00Z 2027-01-05T08:00:00Z r2",
        "2027-01-05T09:30:00Z 2027-01-05T08:00:00Z r0",  // the RFC 9074 snooze
        // 2027-01-06T07:50 is acknowledged; Thunderbird's snooze of that instance rings:
        "2027-01-06T08:15:00Z 2027-01-06T08:00:00Z r0",
        "2027-01-06T20:00:00Z 2027-01-07T08:00:00Z r0",  // THISANDFUTURE's absolute trigger
        "2027-01-07T09:45:00Z 2027-01-07T08:00:00Z r0",  // THISANDFUTURE: 10:00 less 15 minutes
        "2027-01-08T11:30:00Z 2027-01-08T08:00:00Z r0",  // SEQUENCE 2's 12:00, not SEQUENCE 1's
      ])
    #expect(
      result.warnings == [
        "f.ics:85: event \"kinds\": an older revision than the one at line 72 (its SEQUENCE 1 is lower than 2); it is ignored"
      ])
  }

  // Thunderbird writes its snooze on the master, naming the instance; another client or a hand
  // edit may put it on an override alone.
  @Test("an override that holds only Thunderbird's snooze rings it, though its series has no alarm")
  func snoozeOnlyInOverride() throws {
    let text = dailySeries(
      "VEVENT", at: "080000", count: 5,
      override: "X-MOZ-SNOOZE-TIME-1799136000000000:20270105T081500Z\r\n")
    let result = try upcoming(text, from: "20270101T000000Z", to: "20270201T000000Z")
    #expect(result.firings == ["2027-01-05T08:15:00Z 2027-01-05T08:00:00Z r0"])
    #expect(result.warnings.isEmpty)
  }

  /// A daily series of `count` `kind`s (VEVENT or VTODO) from 2027-01-04 at `time` UTC, with
  /// no alarm and no end, and an override of 2027-01-05 whose own lines are `override`.
  private func dailySeries(_ kind: String, at time: String, count: Int, override: String)
    -> String
  {
    """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//repro//EN\r
    BEGIN:\(kind)\r
    UID:daily\r
    DTSTAMP:20270101T000000Z\r
    DTSTART:20270104T\(time)Z\r
    RRULE:FREQ=DAILY;COUNT=\(count)\r
    SUMMARY:Daily\r
    END:\(kind)\r
    BEGIN:\(kind)\r
    UID:daily\r
    DTSTAMP:20270101T000000Z\r
    RECURRENCE-ID:20270105T\(time)Z\r
    DTSTART:20270105T\(time)Z\r
    SUMMARY:Daily\r
    \(override)END:\(kind)\r
    END:VCALENDAR\r

    """
  }

  /// A daily task series of three from 09:00 UTC whose master has no DUE.
  private func taskSeries(override: String) -> String {
    dailySeries("VTODO", at: "090000", count: 3, override: override)
  }

  @Test("with --include-due, an override's DUE rings though its series has none")
  func dueOnlyInOverride() throws {
    let text = taskSeries(override: "DUE:20270105T170000Z\r\n")
    let due = try upcoming(
      text, from: "20270101T000000Z", to: "20270201T000000Z", includeDue: true)
    #expect(due.firings == ["2027-01-05T17:00:00Z 2027-01-05T09:00:00Z r0"])
    #expect(due.warnings.isEmpty)
    let plain = try upcoming(text, from: "20270101T000000Z", to: "20270201T000000Z")
    #expect(plain.firings.isEmpty)
  }

  @Test("a completed override of a task does not ring, as a completed master does not")
  func completedOverrideIsQuiet() throws {
    let alarm = "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:PT0S\r\nEND:VALARM\r\n"
    let open = taskSeries(override: "DUE:20270105T170000Z\r\n" + alarm)
    #expect(
      try upcoming(open, from: "20270101T000000Z", to: "20270201T000000Z", includeDue: true)
        .firings == ["2027-01-05T09:00:00Z 2027-01-05T09:00:00Z r0"])
    let done = taskSeries(
      override: "DUE:20270105T170000Z\r\nSTATUS:COMPLETED\r\nCOMPLETED:20270105T100000Z\r\n"
        + alarm)
    #expect(
      try upcoming(done, from: "20270101T000000Z", to: "20270201T000000Z", includeDue: true)
        .firings.isEmpty)
  }

  // MARK: 3. instances without their series

  @Test("instances without their series keep their RECURRENCE-ID and get ids of their own")
  func expandedInstances() throws {
    let text = try repro("expanded-instances.ics")
    let result = try upcoming(text, from: "20261204T000000Z", to: "20261210T000000Z")
    #expect(
      result.firings == [
        "2026-12-07T20:00:00Z 2026-12-07T20:00:00Z r0",
        "2026-12-08T20:00:00Z 2026-12-08T20:00:00Z r0",
      ])
    #expect(Set(result.ids).count == 2)
    #expect(result.warnings.isEmpty)
    let imported = try importing(text, now: "20261204T000000Z")
    #expect(
      imported.alarms.map(\.id) == ["med#2026-12-07T20:00:00Z", "med#2026-12-08T20:00:00Z"])
    #expect(
      imported.alarms.map(\.schedule) == [
        .at(try local("20261207T200000")), .at(try local("20261208T200000")),
      ])
    #expect(imported.losses.isEmpty)
  }

  // MARK: 4. components without a UID

  @Test("components without a UID are items of their own, with ids derived from their content")
  func noUID() throws {
    let text = try repro("no-uid.ics")
    let result = try upcoming(text, from: "20261204T000000Z", to: "20261210T000000Z")
    #expect(result.firings == ["2026-12-07T05:25:00Z - r0", "2026-12-08T06:10:00Z - r0"])
    #expect(Set(result.ids).count == 2)
    #expect(
      result.warnings == [
        "f.ics:4: event \"\": has no UID; its firings' ids are derived from its content",
        "f.ics:13: event \"\": has no UID; its firings' ids are derived from its content",
      ])
    // Another event before them moves their lines, not their ids.
    let other =
      "BEGIN:VEVENT\r\nUID:other\r\nDTSTART:20261209T090000Z\r\nBEGIN:VALARM\r\nACTION:AUDIO\r\n"
      + "TRIGGER:PT0S\r\nEND:VALARM\r\nEND:VEVENT\r\n"
    let shifted = text.replacingOccurrences(
      of: "PRODID:-//repro//EN\r\n", with: "PRODID:-//repro//EN\r\n" + other)
    #expect(shifted != text)
    let again = try upcoming(shifted, from: "20261204T000000Z", to: "20261209T000000Z")
    #expect(again.ids == result.ids)

    let imported = try importing(text, now: "20261204T000000Z")
    #expect(imported.alarms.count == 2)
    #expect(Set(imported.alarms.map(\.id)).count == 2)
    #expect(imported.losses.isEmpty)
    #expect(imported.warnings.count == 2)
    #expect(
      imported.warnings.allSatisfy { $0.message.hasPrefix("has no UID; its id ") })
    let reimported = try importing(shifted, now: "20261204T000000Z")
    #expect(reimported.alarms.map(\.id).suffix(2) == imported.alarms.map(\.id)[...])
  }

  // MARK: 5. alarms that can never ring

  @Test("series whose alarms can never ring are not scheduled: no work, no false cut-off")
  func disabledAlarms() throws {
    let result = try upcoming(
      try repro("disabled-alarms.ics"), from: "20261204T080000Z", to: "99991231T000000Z",
      limit: 10)
    #expect(result.firings == ["2027-01-12T07:20:00Z - r0"])
    #expect(result.warnings.isEmpty)
    #expect(result.examined <= 10)
  }

  // MARK: 6. tasks

  @Test("a completed task never rings, and imports as a switched-off alarm with a loss line")
  func completedTask() throws {
    let text = try repro("completed-task.ics")
    let result = try upcoming(text, from: "20270320T000000Z", to: "20280101T000000Z")
    #expect(result.firings.isEmpty)
    let imported = try importing(text, now: "20270320T000000Z")
    #expect(imported.alarms.isEmpty && imported.losses.isEmpty)
    #expect(
      imported.tasks == [
        ToDo(
          id: "t3", title: "done", deadline: .at(try local("20270322T190000")), completed: true,
          remindMinutesBefore: 0, timeZone: "UTC")
      ])
  }

  @Test("a task's end is its DUE: a DATE due with RELATED=END:PT9H rings at 09:00 that day")
  func taskDueDate() throws {
    let text = try repro("task-due-date.ics")
    let result = try upcoming(
      text, from: "20270320T000000Z", to: "20280101T000000Z", tz: "Europe/Berlin")
    #expect(result.firings == ["2027-03-24T08:00:00Z - r0"])  // 09:00 CET
    // The deadline is the day (its midnight); 09:00 that day is 540 minutes after it.
    let imported = try importing(text, now: "20270320T000000Z")
    #expect(
      imported.tasks.map(\.deadline) == [
        .on(try #require(LocalDate(year: 2027, month: 3, day: 24)))
      ])
    #expect(imported.tasks.map(\.remindMinutesBefore) == [-540])
    #expect(imported.alarms.isEmpty && imported.losses.isEmpty)
  }

  @Test(
    "upcoming and convert agree on every task fixture",
    arguments: [
      "repro/completed-task.ics", "repro/task-due-date.ics",
      "repro/task-start-trigger-without-start.ics", "schedule/tasks.ics", "schedule/end.ics",
    ])
  func tasksAgree(fixture: String) throws {
    let text = try fixtureText(fixture)
    let now = try instant("20270101T000000Z")
    let to = now.adding(seconds: 2 * 366 * 86_400)
    let imported = try AlarmImporter(fileName: fixture, defaultTimeZone: "Europe/Berlin", now: now)
      .importAlarms(fromText: text)
    let exported = try AlarmExporter(now: now, timestamp: now).text(
      imported.alarms, tasks: imported.tasks)
    let before = try ringsByItem(text, from: now, to: to)
    let after = try ringsByItem(exported, from: now, to: to)
    // A task's id is its item's UID; an alarm's is the UID, `#n` for the n-th alarm of an item.
    var regrouped: [String: [Instant]] = [:]
    for (id, rings) in after {
      regrouped[String(id.split(separator: "#").first ?? ""), default: []] += rings
    }
    #expect(regrouped.mapValues { $0.sorted() } == before.mapValues { $0.sorted() })
  }

  /// Every ring from `from` to `to`, by UID.
  private func ringsByItem(_ text: String, from: Instant, to: Instant) throws
    -> [String: [Instant]]
  {
    var schedule = FiringSchedule(
      defaultZone: try #require(TimeZoneRules(identifier: "Europe/Berlin")))
    try schedule.read(Array(text.utf8), file: "t.ics")
    var rings: [String: [Instant]] = [:]
    for firing in schedule.firings(from: from, to: to, limit: nil) {
      rings[firing.uid, default: []].append(firing.trigger)
    }
    return rings
  }

  @Test("validate: a start-related trigger on a task without DTSTART is an error at its line")
  func taskStartTriggerWithoutStart() throws {
    let found = Validator.validate(
      Array(try repro("task-start-trigger-without-start.ics").utf8), file: "t.ics"
    ).filter { $0.severity != .note }
    #expect(
      found.map(\.description) == [
        "t.ics:12:1: error: TRIGGER is relative to the start, but this VTODO has no DTSTART [alarm.trigger-anchor]"
      ])
  }
}
