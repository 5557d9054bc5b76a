import AlarmCal
import ICalendar
import Testing

@Suite struct ImportTests {
  private let weekdays: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday]

  private func importCases() throws -> ImportResult {
    try AlarmImporter(fileName: "import-cases.ics", defaultTimeZone: "Europe/Berlin", now: testNow)
      .importAlarms(fromText: try fixtureText("import-cases.ics"))
  }

  @Test("weekly, daily and single events map to time, repeat and at exactly")
  func mappedAlarms() throws {
    let alarms = try importCases().alarms
    let t = { (h: Int, m: Int) in LocalTime(hour: h, minute: m)! }
    #expect(
      alarms == [
        Alarm(
          id: "weekly", schedule: .time(t(7, 15), repeat: [.monday, .wednesday, .friday]),
          label: "Weekly", sound: "Chord", timeZone: "Europe/Berlin"),
        // A Windows zone name maps to IANA; the -PT15M trigger moves the ring time.
        Alarm(
          id: "daily", schedule: .time(t(5, 45), repeat: Set(Weekday.allCases)),
          label: "Daily in a Windows zone", timeZone: "Europe/Berlin"),
        // 00:05 on weekdays with -PT10M rings at 23:55 the evening before: Sunday to Thursday.
        Alarm(
          id: "workdays",
          schedule: .time(t(23, 55), repeat: [.sunday, .monday, .tuesday, .wednesday, .thursday]),
          label: "Past midnight", timeZone: "America/New_York"),
        // UTC times without X-WR-TIMEZONE stay in UTC; RELATED=END counts from DTEND.
        Alarm(
          id: "tuesdays", schedule: .time(t(7, 25), repeat: [.tuesday]), label: "Weekly in UTC",
          timeZone: "UTC"),
        // All-day: -PT15H rings at 09:00 the day before, in the default zone.
        Alarm(
          id: "allday", schedule: .at(try local("20261223T090000")), label: "Christmas Eve",
          timeZone: "Europe/Berlin"),
        Alarm(
          id: "absolute", schedule: .at(try local("20270110T090000")), label: "Absolute trigger",
          timeZone: "Europe/Berlin"),
        Alarm(
          id: "exdate", schedule: .time(t(8, 0), repeat: [.tuesday]),
          label: "Tuesdays but not before Christmas", timeZone: "Europe/Berlin"),
      ])
  }

  @Test("a VTODO with a DUE is a task, its end-related alarm its reminder")
  func mappedTask() throws {
    #expect(
      try importCases().tasks == [
        ToDo(
          id: "task", title: "Hand in the report", deadline: .at(try local("20261215T180000")),
          remindMinutesBefore: 30, timeZone: "Europe/Berlin")
      ])
  }

  @Test("what a clock alarm cannot express gets one loss line per item, in file order")
  func lossLines() throws {
    #expect(
      try importCases().losses.map(\.description) == [
        #"import-cases.ics:68: event "allday" (Christmas Eve): ACTION:EMAIL alarm does not ring; this alarm is skipped"#,
        #"import-cases.ics:108: event "biweekly" (Every other Friday): RRULE FREQ=WEEKLY;INTERVAL=2;BYDAY=FR repeats every 2 weeks; a clock alarm repeats every week; the event is skipped"#,
        #"import-cases.ics:119: event "exdate" (Tuesdays but not before Christmas): EXDATE 2026-12-22T08:00:00 removes an instance, and a clock alarm has no exceptions; the alarm is kept: it also rings on that day"#,
        #"import-cases.ics:119: event "exdate" (Tuesdays but not before Christmas): REPEAT:2 re-rings every PT5M; the alarm is kept: it rings once"#,
        #"import-cases.ics:133: event "exdate" (Tuesdays but not before Christmas): the instance of 2026-12-15T08:00:00 is moved to 2026-12-15T09:00:00 (RECURRENCE-ID), and a clock alarm has no exceptions; the alarm is kept: it rings at the series' time that day"#,
        #"import-cases.ics:144: event "mars" (Unknown zone): time zone "Mars/Olympus_Mons" is neither an IANA nor a Windows zone; the event is skipped"#,
      ])
  }

  @Test("Google's X-WR-TIMEZONE reads UTC and floating times in that zone")
  func googleCalendarZone() throws {
    let text = """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:test\r
      X-WR-TIMEZONE:America/Los_Angeles\r
      BEGIN:VEVENT\r
      UID:g\r
      DTSTAMP:20261201T000000Z\r
      DTSTART:20261202T150000Z\r
      RRULE:FREQ=WEEKLY;BYDAY=WE\r
      BEGIN:VALARM\r
      ACTION:DISPLAY\r
      DESCRIPTION:x\r
      TRIGGER:PT0S\r
      END:VALARM\r
      END:VEVENT\r
      END:VCALENDAR\r

      """
    let result = try AlarmImporter(fileName: "g.ics", defaultTimeZone: "UTC", now: testNow)
      .importAlarms(fromText: text)
    #expect(
      result.alarms.map(\.schedule) == [.time(LocalTime(hour: 7, minute: 0)!, repeat: [.wednesday])]
    )
    #expect(result.alarms.map(\.timeZone) == ["America/Los_Angeles"])
    #expect(result.alarms.map(\.label) == [""])
  }

  @Test("a file that is not iCalendar is refused with its line")
  func notICalendar() {
    #expect(throws: AlarmImportError.self) {
      try AlarmImporter(fileName: "x.ics", defaultTimeZone: "UTC", now: testNow).importAlarms(
        fromText: "BEGIN:VCARD\r\nEND:VCARD\r\n")
    }
    do {
      _ = try AlarmImporter(fileName: "x.ics", defaultTimeZone: "UTC", now: testNow).importAlarms(
        fromText: "BEGIN:VCARD\r\nEND:VCARD\r\n")
    } catch {
      #expect(error.description == "x.ics:1: no VCALENDAR component: this is not an iCalendar file")
    }
  }

  @Test("Apple's ACTION:NONE placeholder is reported, a relative ACTION:NONE is a disabled alarm")
  func actionNone() throws {
    let text = """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:test\r
      BEGIN:VEVENT\r
      UID:n\r
      DTSTAMP:20261201T000000Z\r
      DTSTART;TZID=Europe/Berlin:20261202T070000\r
      BEGIN:VALARM\r
      ACTION:NONE\r
      TRIGGER;VALUE=DATE-TIME:19760401T005545Z\r
      END:VALARM\r
      BEGIN:VALARM\r
      ACTION:NONE\r
      TRIGGER:PT0S\r
      END:VALARM\r
      END:VEVENT\r
      END:VCALENDAR\r

      """
    let result = try AlarmImporter(fileName: "n.ics", defaultTimeZone: "UTC", now: testNow)
      .importAlarms(fromText: text)
    #expect(result.alarms.map(\.enabled) == [false])
    #expect(
      result.losses.map(\.reason) == [
        #"ACTION:NONE alarm with an absolute trigger is a "no alert" placeholder"#
      ])
  }

  @Test("every sample calendar imports; its losses name lines inside the file")
  func samples() throws {
    for name in [
      "apple-calendar.ics", "google-calendar.ics", "outlook.ics", "thunderbird.ics",
      "nextcloud.ics",
    ] {
      let text = try String(contentsOf: samplesFolder.appendingPathComponent(name), encoding: .utf8)
      let result = try AlarmImporter(fileName: name, defaultTimeZone: "Europe/Berlin", now: testNow)
        .importAlarms(fromText: text)
      #expect(!result.alarms.isEmpty, "\(name) gave no alarms")
      let lineCount = text.utf8.filter { $0 == UInt8(ascii: "\n") }.count
      for loss in result.losses {
        let line = try #require(loss.line)
        #expect((1...lineCount).contains(line))
      }
    }
  }

  @Test("Outlook's custom \"Customized Time Zone\" maps to the IANA zone with its offsets")
  func customizedTimeZone() throws {
    let text = """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN\r
      BEGIN:VTIMEZONE\r
      TZID:Customized Time Zone\r
      BEGIN:STANDARD\r
      DTSTART:16010101T030000\r
      TZOFFSETFROM:+0200\r
      TZOFFSETTO:+0100\r
      RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r
      END:STANDARD\r
      BEGIN:DAYLIGHT\r
      DTSTART:16010101T020000\r
      TZOFFSETFROM:+0100\r
      TZOFFSETTO:+0200\r
      RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r
      END:DAYLIGHT\r
      END:VTIMEZONE\r
      BEGIN:VEVENT\r
      UID:c\r
      DTSTAMP:20261201T000000Z\r
      DTSTART;TZID="Customized Time Zone":20261201T063000\r
      RRULE:FREQ=WEEKLY;BYDAY=TU\r
      SUMMARY:Custom zone\r
      BEGIN:VALARM\r
      ACTION:DISPLAY\r
      DESCRIPTION:Reminder\r
      TRIGGER:-PT15M\r
      PROXIMITY:ARRIVE\r
      END:VALARM\r
      END:VEVENT\r
      END:VCALENDAR\r

      """
    for zone in ["Europe/Paris", "America/Chicago"] {
      let result = try AlarmImporter(fileName: "o.ics", defaultTimeZone: zone, now: testNow)
        .importAlarms(fromText: text)
      // The user's own zone wins when it fits; otherwise the first CLDR primary zone that does.
      #expect(
        result.alarms.map(\.timeZone) == [zone == "Europe/Paris" ? "Europe/Paris" : "Europe/Berlin"]
      )
      #expect(
        result.alarms.map(\.schedule) == [
          .time(LocalTime(hour: 6, minute: 15)!, repeat: [.tuesday])
        ])
      // RFC 9074's PROXIMITY (which libical drops) is read, and import says it is not kept.
      #expect(
        result.losses.map(\.reason) == [
          "PROXIMITY:ARRIVE (RFC 9074) rings on arriving at or leaving a place"
        ])
      #expect(result.losses.map(\.outcome) == [.alarmKept("it rings at its time alone")])
    }
  }

  @Test("a line that is no content line is reported, not dropped silently")
  func unreadableLine() throws {
    let text =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:u\r\n"
      + "DTSTAMP:20261201T000000Z\r\nDTSTART:20261203T070000Z\r\nthis is no property\r\n"
      + "BEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:PT0S\r\nEND:VALARM\r\nEND:VEVENT\r\n"
      + "END:VCALENDAR\r\n"
    let result = try AlarmImporter(fileName: "u.ics", defaultTimeZone: "UTC", now: testNow)
      .importAlarms(fromText: text)
    #expect(result.alarms.map(\.id) == ["u"])
    #expect(
      result.losses.map(\.reason) == [
        "a line could not be read (unreadable content line 8: this is no property)"
      ])
    #expect(result.losses.map(\.outcome) == [.alarmKept("without that line")])
  }

  @Test(
    "alarms outside the VCALENDAR, older revisions and triggers beyond year 9999 are reported")
  func strayAndDuplicate() throws {
    let event = { (uid: String, trigger: String) in
      "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20261201T000000Z\r\nDTSTART:20261203T070000Z\r\n"
        + "SUMMARY:\u{1B}[31mred\r\nBEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:\(trigger)\r\nEND:VALARM\r\nEND:VEVENT\r\n"
    }
    let text =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n" + event("dup", "PT0S") + event("dup", "PT0S")
      + event("far", "P99999999W") + "END:VCALENDAR\r\n" + event("stray", "PT0S")
    let result = try AlarmImporter(fileName: "s.ics", defaultTimeZone: "UTC", now: testNow)
      .importAlarms(fromText: text)
    #expect(result.alarms.map(\.id) == ["dup"])
    #expect(
      result.losses.map(\.description) == [
        #"s.ics:24: event "far" (\u{1b}[31mred): TRIGGER P99999999W rings outside the years 1 to 9999; this alarm is skipped"#,
        #"s.ics:35: event "stray" (\u{1b}[31mred): stands outside any VCALENDAR; the event is skipped"#,
      ])
    // Two copies with one UID are two revisions of one event: the later in the file wins.
    #expect(
      result.warnings.map(\.description) == [
        #"s.ics:4: event "dup" (\u{1b}[31mred): an older revision than the one at line 14 (same SEQUENCE and DTSTAMP, and it comes earlier in the file); it is ignored"#
      ])
  }
}
