import Foundation
import Testing

@Suite struct UpcomingTests {
  private let usageLine =
    "Usage: alarmcal upcoming [FILE...] [--from ISO] [--to ISO] [--limit N]"
    + " [--format text|json|ndjson] [--include-acknowledged] [--include-due] [--max-instances N]"
    + " [--now ISO] [--tz ZONE] [--max-file-size SIZE] [--url URL] [--user NAME]"
    + " [--password-file FILE]\nRun 'alarmcal help upcoming' for details.\n"

  @Test("every shape of a firing line: DATE recurrence id, no SUMMARY, acknowledged, REPEAT past 9")
  func ndjsonShapes() throws {
    // The writer stores keys as literals; this pins each branch of a value against a JSON reader.
    let calendar = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN",
      "BEGIN:VEVENT", "UID:shapes", "DTSTAMP:20260101T000000Z", "DTSTART;VALUE=DATE:20260105",
      "RRULE:FREQ=DAILY;COUNT=2",
      "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER:PT9H", "REPEAT:11",
      "DURATION:PT1M", "ACKNOWLEDGED:20260105T090500Z", "END:VALARM",
      "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")
    let url = try temporaryFolder().appendingPathComponent("shapes.ics")
    try Data(calendar.utf8).write(to: url)
    let result = runInProcess([
      "upcoming", url.path, "--from", "2026-01-05T00:00:00Z", "--to", "2026-01-07T00:00:00Z",
      "--tz", "UTC", "--format", "ndjson", "--include-acknowledged",
    ])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 24)  // two days, the trigger and 11 repeats each
    let keys =
      #"^\{"trigger":"[^"]+","local":"[^"]+","uid":"shapes","component":"VEVENT","#
      + #""recurrenceId":"2026-01-0[56]","#
      + #""eventStart":"[^"]+","summary":null,"action":"DISPLAY","repeat":\d+,"#
      + #""acknowledged":(true|false),"alarmUid":null,"isSnooze":false,"snoozeOf":null,"#
      + #""sound":null,"snooze":true,"snoozeMinutes":9,"#
      + #""file":"[^"]+","id":"[0-9A-F-]{36}"\}$"#
    for line in lines { #expect(line.wholeMatch(of: try Regex(keys)) != nil, "\(line)") }
    let objects = try lines.map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(objects.compactMap { $0["repeat"] as? Int }.max() == 11)
    #expect(objects.filter { $0["acknowledged"] as? Bool == true }.count == 6)  // 09:00 ... 09:05
    #expect(objects.allSatisfy { $0["summary"] is NSNull })
  }

  @Test("ndjson prints one object per firing with every documented field")
  func ndjson() throws {
    let result = runInProcess([
      "upcoming", try fixturePath("dst.ics"), "--from", "2007-01-01T00:00:00Z", "--to",
      "2007-04-01T00:00:00Z", "--tz", "America/New_York", "--format", "ndjson",
    ])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    let first = try #require(
      try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
    #expect(first["trigger"] as? String == "2007-03-11T07:30:00Z")
    #expect(first["local"] as? String == "2007-03-11T03:30:00-04:00")
    #expect(first["uid"] as? String == "gap")
    #expect(first["recurrenceId"] as? String == "2007-03-11T07:30:00Z")
    #expect(first["eventStart"] as? String == "2007-03-11T07:30:00Z")
    #expect(first["summary"] as? String == "Gap")
    #expect(first["action"] as? String == "AUDIO")
    #expect(first["repeat"] as? Int == 0)
    #expect(first["file"] as? String == (try fixturePath("dst.ics")))
    #expect((first["id"] as? String)?.count == 36)
  }

  @Test("json prints one array; ids are stable across runs")
  func jsonArray() throws {
    let arguments = [
      "upcoming", try fixturePath("dst.ics"), "--from", "2007-01-01T00:00:00Z", "--limit", "2",
      "--format", "json", "--tz", "UTC",
    ]
    let first = runInProcess(arguments)
    let second = runInProcess(arguments)
    #expect(first.status == 0)
    let array = try #require(
      try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [[String: Any]])
    #expect(array.count == 2)
    #expect(first.stdout == second.stdout)
  }

  @Test("without --to and --limit the next 10 are listed; with --to all in the window")
  func windowDefaults() throws {
    let file = try fixturePath("dst.ics")
    let next = runInProcess([
      "upcoming", file, "--now", "2007-01-01T00:00:00Z", "--format", "ndjson",
    ])
    #expect(next.stdout.split(separator: "\n").count == 6)  // the file has only 6
    let window = runInProcess([
      "upcoming", file, "--from", "2007-03-11T07:30:00Z", "--to", "2007-10-28T05:30:00Z",
      "--format", "ndjson",
    ])
    // from <= trigger < to: the Mar 11 firing is in, the Oct 28 one is out.
    #expect(window.stdout.split(separator: "\n").count == 2)
  }

  @Test("the text table shows weekday, date, time, how long until, label, action and file")
  func textTable() throws {
    let file = try fixturePath("dst.ics")
    let result = runInProcess([
      "upcoming", file, "--now", "2007-03-11T05:25:00Z", "--limit", "1", "--tz", "America/New_York",
    ])
    #expect(result.stdout == "Sun 2007-03-11  03:30     in 2h 05m     Gap  AUDIO  \(file)\n")
  }

  @Test(
    "the text table shows seconds when a firing has them, and marks snooze and acknowledged rows")
  func textTableSecondsAndAcknowledged() throws {
    let file = try fixturePath("snooze-in-override.ics")
    let result = runInProcess([
      "upcoming", file, "--now", "2027-03-22T05:00:00Z", "--limit", "3", "--tz", "UTC",
      "--include-acknowledged",
    ])
    #expect(
      result.stdout == """
        Mon 2027-03-22  05:45     in 45m        Work (snoozed)  AUDIO  \(file)  (acknowledged)
        Mon 2027-03-22  06:15:05  in 1h 15m     Work (snoozed)  AUDIO  \(file)  (snooze)
        Tue 2027-03-23  05:45     in 1d 00h     Work            AUDIO  \(file)

        """)
  }

  @Test("json names the VALARM's UID and, for a snooze, the alarm it snoozes")
  func alarmUIDAndSnoozeOf() throws {
    let file = try fixturePath("snooze-in-override.ics")
    let result = runInProcess([
      "upcoming", file, "--now", "2027-03-22T05:00:00Z", "--limit", "3", "--format", "json",
      "--include-acknowledged",
    ])
    let objects = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    #expect(objects.map { $0["alarmUid"] as? String } == ["a1", "s1", "a1"])
    #expect(objects.map { $0["snoozeOf"] as? String } == [nil, "a1", nil])
    #expect(objects.map { $0["isSnooze"] as? Bool } == [false, true, false])
  }

  @Test("a UID added to a VALARM (as a snooze adds it) leaves its firings' ids as they were")
  func idsSurviveAnAddedAlarmUID() throws {
    let folder = try temporaryFolder()
    let before = """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:x\r
      BEGIN:VEVENT\r
      UID:w\r
      DTSTAMP:20270320T110000Z\r
      DTSTART:20270322T054500Z\r
      RRULE:FREQ=DAILY\r
      BEGIN:VALARM\r
      ACTION:AUDIO\r
      TRIGGER:PT0S\r
      END:VALARM\r
      BEGIN:VALARM\r
      ACTION:DISPLAY\r
      DESCRIPTION:x\r
      TRIGGER:-PT5M\r
      END:VALARM\r
      END:VEVENT\r
      END:VCALENDAR\r

      """
    let after = before.replacingOccurrences(
      of: "BEGIN:VALARM\r\nACTION:AUDIO", with: "BEGIN:VALARM\r\nUID:added\r\nACTION:AUDIO")
    var ids: [[String]] = []
    for (name, text) in [("before.ics", before), ("after.ics", after)] {
      let url = folder.appendingPathComponent(name)
      try Data(text.utf8).write(to: url)
      let result = runInProcess([
        "upcoming", url.path, "--now", "2027-03-22T00:00:00Z", "--limit", "4", "--format", "json",
      ])
      let objects = try #require(
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
      ids.append(objects.compactMap { $0["id"] as? String })
    }
    #expect(ids[0].count == 4)
    #expect(ids[0] == ids[1])
  }

  @Test("--include-due lists open tasks' deadlines (action DUE); completed tasks never ring")
  func includeDue() throws {
    let folder = try temporaryFolder()
    let url = folder.appendingPathComponent("tasks.ics")
    let calendar = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x",
      "BEGIN:VTODO", "UID:open", "DTSTAMP:20261201T000000Z", "SUMMARY:Taxes",
      "DUE;TZID=Europe/Berlin:20261207T170000", "END:VTODO",
      "BEGIN:VTODO", "UID:done", "DTSTAMP:20261201T000000Z", "SUMMARY:Done",
      "DUE:20261206T120000Z", "STATUS:COMPLETED", "COMPLETED:20261202T090000Z", "END:VTODO",
      "BEGIN:VTODO", "UID:weekly", "DTSTAMP:20261201T000000Z", "SUMMARY:Bins",
      "DTSTART;VALUE=DATE:20261204", "DUE;VALUE=DATE:20261205", "RRULE:FREQ=WEEKLY", "END:VTODO",
      "BEGIN:VTODO", "UID:alarmed", "DTSTAMP:20261201T000000Z", "SUMMARY:Call",
      "DUE:20261208T100000Z", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Call",
      "TRIGGER;RELATED=END:-PT30M", "END:VALARM", "END:VTODO",
      "BEGIN:VEVENT", "UID:ev", "DTSTAMP:20261201T000000Z", "DTSTART:20261209T080000Z",
      "SUMMARY:Meet", "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:PT0S", "END:VALARM", "END:VEVENT",
      "END:VCALENDAR", "",
    ].joined(separator: "\r\n")
    try Data(calendar.utf8).write(to: url)
    func listed(_ extra: [String]) throws -> [String] {
      let result = runInProcess(
        [
          "upcoming", url.path, "--now", "2026-12-03T00:00:00Z", "--to", "2026-12-13T00:00:00Z",
          "--tz", "UTC", "--format", "ndjson",
        ] + extra)
      #expect(result.status == 0, "\(result.stderr)")
      return try result.stdout.split(separator: "\n").map {
        let object = try #require(
          try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        return [object["trigger"], object["uid"], object["component"], object["action"]]
          .map { "\($0 ?? "nil")" }.joined(separator: " ")
      }
    }
    #expect(
      try listed([]) == [
        "2026-12-08T09:30:00Z alarmed VTODO DISPLAY", "2026-12-09T08:00:00Z ev VEVENT AUDIO",
      ])
    #expect(
      try listed(["--include-due"]) == [
        "2026-12-05T00:00:00Z weekly VTODO DUE", "2026-12-07T16:00:00Z open VTODO DUE",
        "2026-12-08T09:30:00Z alarmed VTODO DISPLAY", "2026-12-09T08:00:00Z ev VEVENT AUDIO",
        "2026-12-12T00:00:00Z weekly VTODO DUE",
      ])
  }

  @Test("an unreadable file gets its error alone, without \"No alarms in this window.\"")
  func missingFileAlone() throws {
    let result = runInProcess(["upcoming", "/nonexistent/missing.ics"])
    #expect(result.status == 66)
    #expect(result.stdout == "")
    #expect(result.stderr == "alarmcal upcoming: error: /nonexistent/missing.ics: no such file\n")
  }

  @Test("a negative --limit is judged as a value: it must be at least 1")
  func negativeLimit() throws {
    let result = runInProcess(["upcoming", "x.ics", "--limit", "-1"])
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix(
        "alarmcal upcoming: error: --limit must be a whole number of at least 1, not '-1'\n"))
  }

  @Test("acknowledged firings are hidden unless --include-acknowledged")
  func acknowledged() throws {
    let file = try fixturePath("ack.ics")
    let base = [
      "upcoming", file, "--from", "2027-01-01T00:00:00Z", "--to", "2027-02-01T00:00:00Z",
      "--format", "ndjson",
    ]
    #expect(runInProcess(base).stdout.split(separator: "\n").count == 3)
    let all = runInProcess(base + ["--include-acknowledged"])
    #expect(all.stdout.split(separator: "\n").count == 6)
    #expect(all.stdout.contains("\"acknowledged\":true"))
  }

  @Test("an unreadable file is reported, the others are still listed, and the exit code is 1")
  func brokenFile() throws {
    let folder = try temporaryFolder()
    let broken = folder.appendingPathComponent("broken.ics").path
    try "not a calendar".write(toFile: broken, atomically: true, encoding: .utf8)
    let result = runInProcess([
      "upcoming", broken, "/nonexistent/x.ics", try fixturePath("dst.ics"), "--from",
      "2007-01-01T00:00:00Z", "--limit", "1", "--format", "ndjson",
    ])
    // The first file that could not be read decides the status: unusable data.
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "alarmcal upcoming: error: \(broken):1: no BEGIN line: this is not iCalendar data\n"
        + "alarmcal upcoming: error: /nonexistent/x.ics: no such file\n"
    )
    #expect(result.stdout.split(separator: "\n").count == 1)
  }

  @Test(
    "usage errors exit 64",
    arguments: [
      (["upcoming"], "missing FILE (or --url)"),
      (
        ["upcoming", "a.ics", "--limit", "0"],
        "--limit must be a whole number of at least 1, not '0'"
      ),
      (
        ["upcoming", "a.ics", "--format", "xml"], "--format must be text, json or ndjson, not 'xml'"
      ),
      (
        ["upcoming", "a.ics", "--from", "2027-01-02", "--to", "2027-01-01"],
        "--to must be after --from"
      ),
      (
        ["upcoming", "a.ics", "--to", "soon"],
        "--to 'soon' is not an ISO 8601 date-time (e.g. 2026-12-02T07:00:00Z)"
      ),
    ])
  func usageErrors(arguments: [String], message: String) {
    let result = runInProcess(arguments)
    #expect(result.status == 64)
    #expect(result.stderr == "alarmcal upcoming: error: \(message)\n" + usageLine)
  }

  @Test("thousands of firings printed in overlapping batches come out whole and in time order")
  func manyBatches() throws {
    // 40 daily alarms for a year: about 14,600 firings, many batches of the printing pipeline.
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//alarmcal//batches//EN"]
    for index in 0..<40 {
      lines += [
        "BEGIN:VEVENT", "UID:daily-\(index)", "DTSTAMP:20260101T000000Z",
        "DTSTART:20260101T\(String(format: "%02d", index % 24))\(String(format: "%02d", index))00Z",
        "RRULE:FREQ=DAILY", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:d",
        "TRIGGER:-PT\(index)M", "END:VALARM", "END:VEVENT",
      ]
    }
    lines.append("END:VCALENDAR")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "alarmcal-batches-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("daily.ics")
    try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: file)
    let result = runInProcess([
      "upcoming", file.path, "--from", "2026-12-04T00:00:00Z", "--to", "2027-12-04T00:00:00Z",
      "--format", "ndjson",
    ])
    #expect(result.status == 0)
    let rows = try result.stdout.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    // Each alarm rings once a day for 365 days; ids are all different; triggers never go back.
    #expect(rows.count == 40 * 365)
    let triggers = rows.compactMap { $0["trigger"] as? String }
    #expect(triggers.count == rows.count)
    #expect(triggers == triggers.sorted())
    #expect(Set(rows.compactMap { $0["id"] as? String }).count == rows.count)
    for index in 0..<40 {
      #expect(rows.filter { $0["uid"] as? String == "daily-\(index)" }.count == 365)
    }
  }
}
