import Foundation
import ICalendar
import LibicalReference
import Testing

@testable import AlarmCal

@Suite struct SchedulerTests {
  /// Runs the scheduler over one fixture and renders each firing as
  /// `trigger recurrenceId rREPEAT ACTION uid`.
  private func schedule(
    _ fixture: String, from: String, to: String, tz: String = "Europe/Berlin",
    includeAcknowledged: Bool = false, limit: Int? = nil
  ) throws -> (firings: [String], warnings: [String]) {
    let schedule = try FiringSchedule.reading(
      try fixtureText("schedule/\(fixture)"), name: fixture,
      zone: try #require(TimeZoneRules(identifier: tz)), includeAcknowledged: includeAcknowledged)
    var lines: [String] = []
    var window = schedule.firings(from: try instant(from), to: try instant(to), limit: limit)
    while let firing = window.next() {
      lines.append(
        "\(firing.trigger) \(firing.recurrenceID?.text ?? "-") r\(firing.repeatIndex) \(firing.action) \(firing.uid)"
      )
    }
    let late = window.lateWarnings
    return (lines, (schedule.warnings + late).map(\.description))
  }

  @Test(
    "RFC 5545 §3.3.5: a gap time is read with the offset before the gap, an overlap time is the first, and the series keeps its wall clock"
  )
  func dst() throws {
    let result = try schedule("dst.ics", from: "20070101T000000Z", to: "20080101T000000Z")
    #expect(
      result.firings == [
        "2007-03-04T07:30:00Z 2007-03-04T07:30:00Z r0 AUDIO gap",  // 02:30 EST
        "2007-03-11T07:30:00Z 2007-03-11T07:30:00Z r0 AUDIO gap",  // no 02:30: 03:30 EDT
        "2007-03-18T06:30:00Z 2007-03-18T06:30:00Z r0 AUDIO gap",  // back to 02:30, now EDT
        "2007-10-28T05:30:00Z 2007-10-28T05:30:00Z r0 AUDIO overlap",  // 01:30 EDT
        "2007-11-04T05:30:00Z 2007-11-04T05:30:00Z r0 AUDIO overlap",  // the first 01:30 (EDT)
        "2007-11-11T06:30:00Z 2007-11-11T06:30:00Z r0 AUDIO overlap",  // 01:30 EST
      ])
    #expect(result.warnings.isEmpty)
  }

  @Test("RFC 5545 §3.3.6: -P1D is a calendar day and -PT24H is 24 hours, across a DST change")
  func durations() throws {
    let result = try schedule("durations.ics", from: "20070301T000000Z", to: "20070401T000000Z")
    #expect(
      result.firings == [
        "2007-03-10T13:00:00Z - r0 DISPLAY nominal",  // -PT24H: 09:00 EDT less 24 h = 08:00 EST
        "2007-03-10T14:00:00Z - r0 DISPLAY nominal",  // -P1D: 09:00 EST the day before
      ])
  }

  @Test("triggers related to the end use DTEND, DTSTART+DURATION, or a task's DUE")
  func endRelated() throws {
    let result = try schedule("end.ics", from: "20270101T000000Z", to: "20270201T000000Z")
    #expect(
      result.firings == [
        "2027-01-05T10:25:00Z - r0 DISPLAY dtend",
        "2027-01-06T11:10:00Z - r0 DISPLAY duration",
        "2027-01-07T16:30:00Z - r0 DISPLAY task",
      ])
  }

  @Test("an absolute trigger on a series rings once; REPEAT adds rings DURATION apart")
  func absoluteAndRepeat() throws {
    let result = try schedule(
      "absolute-repeat.ics", from: "20270101T000000Z", to: "20270201T000000Z")
    #expect(
      result.firings == [
        "2027-01-03T06:00:00Z - r0 AUDIO absolute",
        "2027-01-10T07:50:00Z - r0 AUDIO repeat",
        "2027-01-10T07:55:00Z - r1 AUDIO repeat",
        "2027-01-10T08:00:00Z - r2 AUDIO repeat",
      ])
  }

  @Test("all-day events with a sub-day trigger ring at 09:00 the day before in --tz; DATE EXDATE")
  func allDay() throws {
    let result = try schedule("allday.ics", from: "20270101T000000Z", to: "20270201T000000Z")
    #expect(
      result.firings == [
        "2027-01-03T08:00:00Z 2027-01-04 r0 DISPLAY allday",
        "2027-01-05T08:00:00Z 2027-01-06 r0 DISPLAY allday",
      ])
    let tokyo = try schedule(
      "allday.ics", from: "20270101T000000Z", to: "20270201T000000Z", tz: "Asia/Tokyo")
    #expect(tokyo.firings.first == "2027-01-03T00:00:00Z 2027-01-04 r0 DISPLAY allday")
  }

  @Test("EXDATE matches by instant whatever its form; RDATE adds DATE-TIME and PERIOD starts")
  func exdateAndRdate() throws {
    let result = try schedule("exdate-rdate.ics", from: "20270101T000000Z", to: "20270201T000000Z")
    #expect(
      result.firings.map { String($0.prefix(20)) } == [
        "2027-01-04T12:00:00Z", "2027-01-06T12:00:00Z", "2027-01-07T12:00:00Z",
        "2027-01-10T12:00:00Z", "2027-01-11T15:00:00Z",
      ])
  }

  @Test("a moved instance rings with its own alarm; a cancelled instance does not ring")
  func overrides() throws {
    let result = try schedule("overrides.ics", from: "20270101T000000Z", to: "20270201T000000Z")
    #expect(
      result.firings == [
        "2027-01-04T08:00:00Z 2027-01-04T08:00:00Z r0 AUDIO moved",
        "2027-01-05T11:00:00Z 2027-01-05T08:00:00Z r0 DISPLAY moved",
      ])
  }

  @Test(
    "RFC 9074: acknowledged firings are not listed unless asked; snoozes ring; NONE never rings")
  func acknowledgement() throws {
    let result = try schedule("ack.ics", from: "20270101T000000Z", to: "20270201T000000Z")
    #expect(
      result.firings == [
        "2027-01-06T08:00:00Z 2027-01-06T08:00:00Z r0 AUDIO acked",
        "2027-01-06T08:10:00Z - r0 AUDIO acked",  // the RFC 9074 snooze alarm
        "2027-01-10T08:15:00Z - r0 DISPLAY mozilla",  // X-MOZ-SNOOZE-TIME
      ])
    let all = try schedule(
      "ack.ics", from: "20270101T000000Z", to: "20270201T000000Z", includeAcknowledged: true)
    #expect(all.firings.count == 6)
    #expect(all.firings.first == "2027-01-04T08:00:00Z 2027-01-04T08:00:00Z r0 AUDIO acked")
  }

  @Test("UNTIL in UTC against a zoned DTSTART compares instants")
  func untilComparesInstants() throws {
    let result = try schedule("until.ics", from: "20270101T000000Z", to: "20270201T000000Z")
    // 07:00 EST on Jan 6 is 12:00Z, one second after UNTIL: not an instance.
    #expect(
      result.firings.map { String($0.prefix(20)) } == [
        "2027-01-04T12:00:00Z", "2027-01-05T12:00:00Z",
      ])
  }

  @Test("with X-WR-TIMEZONE a series written in UTC keeps its wall-clock time across DST")
  func googleCalendarZone() throws {
    let result = try schedule("google.ics", from: "20270301T000000Z", to: "20270401T000000Z")
    #expect(
      result.firings.map { String($0.prefix(20)) } == [
        "2027-03-08T12:00:00Z", "2027-03-15T11:00:00Z",
      ])
  }

  @Test("the file's VTIMEZONE wins over the IANA zone of the same name; Windows names map to IANA")
  func fileZoneWins() throws {
    let result = try schedule(
      "own-zone.ics", from: "20270101T000000Z", to: "20280101T000000Z", tz: "UTC")
    #expect(
      result.firings == [
        "2027-07-01T00:00:00Z - r0 AUDIO windows",  // Tokyo Standard Time: 09:00 +09:00
        "2027-07-01T06:00:00Z - r0 AUDIO own",  // the file says +03:00, not Berlin's +02:00
      ])
  }

  @Test("rules that never produce an instance are reported; hostile counts stay fast and lazy")
  func hostile() throws {
    // Termination itself is the check: every iterator has a work limit (speed is benchmarked).
    let result = try schedule(
      "hostile.ics", from: "20270101T000000Z", to: "20280101T000000Z", limit: 4)
    #expect(
      result.firings == [
        "2027-01-01T00:00:00Z 2027-01-01T00:00:00Z r0 AUDIO impossible",
        "2027-01-01T00:00:00Z 2027-01-01T00:00:00Z r0 AUDIO secondly",
        "2027-01-01T00:00:00Z - r0 AUDIO zero",
        "2027-01-01T00:00:01Z 2027-01-01T00:00:01Z r0 AUDIO secondly",
      ])
    #expect(
      result.warnings.contains {
        $0
          == "hostile.ics:4: event \"impossible\": RRULE FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30 can never produce an instance; only DTSTART rings"
      })
    #expect(
      result.warnings.contains {
        $0
          == "hostile.ics:14: event \"zero\": RRULE cannot be read (INTERVAL must be a positive integer, not \"0\"); only DTSTART rings"
      })
  }
}

extension SchedulerTests {
  @Test("a trigger landing in the second pass of a repeated hour is exact elapsed time (§3.3.6)")
  func triggerInOverlap() throws {
    // DTSTART 01:10 on 2027-11-07 is the first 01:10 (EDT, 05:10Z); PT1H later is 06:10Z, the
    // second 01:10 (EST), not the first one again.
    let result = try schedule(
      "overlap-trigger.ics", from: "20270101T000000Z", to: "20280101T000000Z")
    #expect(result.firings == ["2027-11-07T06:10:00Z - r0 AUDIO overlap-trigger"])
  }

  @Test("an RDATE PERIOD gives its instance its own end for RELATED=END triggers")
  func rdatePeriodEnd() throws {
    let result = try schedule(
      "rdate-period-end.ics", from: "20270101T000000Z", to: "20280101T000000Z")
    #expect(
      result.firings.map { String($0.prefix(20)) } == [
        "2027-06-01T08:00:00Z", "2027-06-03T18:00:00Z",
      ])
  }

  @Test("RANGE=THISANDFUTURE moves the instance and every later one by the same amount")
  func thisAndFuture() throws {
    let result = try schedule("thisandfuture.ics", from: "20270101T000000Z", to: "20280101T000000Z")
    #expect(
      result.firings.map { String($0.prefix(20)) } == [
        "2027-04-01T07:00:00Z", "2027-04-02T09:00:00Z", "2027-04-03T09:00:00Z",
        "2027-04-04T09:00:00Z",
      ])
  }
}

@Suite struct SchedulerLazinessTests {
  /// A calendar of `count` weekly series that started years ago.
  private func calendar(count: Int) -> String {
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n"
    for index in 0..<count {
      let day = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][index % 7]
      text += "BEGIN:VEVENT\r\nUID:s\(index)\r\nDTSTAMP:20260101T000000Z\r\n"
      text += "DTSTART;TZID=Europe/Berlin:2020010\(index % 7 + 1)T0\(index % 10)3000\r\n"
      text += "RRULE:FREQ=WEEKLY;BYDAY=\(day)\r\nBEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:-PT5M\r\n"
      text += "END:VALARM\r\nEND:VEVENT\r\n"
    }
    return text + "END:VCALENDAR\r\n"
  }

  @Test("dense rules bound the window: 100 SECONDLY series look at minutes of instances, not days")
  func denseSeries() throws {
    // Found by fuzzing: a day-long first window held 86,400 firings per SECONDLY series, and a
    // day of margin either side 172,800 more instances each.
    let events = (0..<100).map { index in
      "BEGIN:VEVENT\r\nUID:dense-\(index)\r\nDTSTAMP:20260101T000000Z\r\n"
        + "DTSTART:19700101T000000Z\r\nRRULE:FREQ=SECONDLY;COUNT=2147483647\r\nBEGIN:VALARM\r\n"
        + "ACTION:AUDIO\r\nTRIGGER:PT0S\r\nEND:VALARM\r\nEND:VEVENT\r\n"
    }
    let text =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n" + events.joined() + "END:VCALENDAR\r\n"
    let schedule = try FiringSchedule.reading(text, name: "dense.ics", zone: .utc)
    var window = schedule.firings(from: testNow, to: nil, limit: 300)
    var firings: [Firing] = []
    while let firing = window.next() { firings.append(firing) }
    #expect(firings.count == 300)
    #expect(firings.first?.trigger == testNow)
    #expect(firings.last?.trigger == testNow.adding(seconds: 2))
    // 100 series, each walked at most a span past the firings asked for (a minute at first).
    #expect(window.instancesExamined <= 100 * 1_000)
  }

  @Test("the next 64 firings of 2,000 weekly series look at a few days of instances, not years")
  func nextSixtyFour() throws {
    let schedule = try FiringSchedule.reading(
      calendar(count: 2000), name: "many.ics",
      zone: try #require(TimeZoneRules(identifier: "Europe/Berlin")))
    var window = schedule.firings(from: testNow, to: nil, limit: 64)
    var firings: [Firing] = []
    while let firing = window.next() { firings.append(firing) }
    #expect(firings.count == 64)
    #expect(zip(firings, firings.dropFirst()).allSatisfy { !Firing.precedes($1, $0) })
    // The first spans, a minute and a few, need at most a couple of instances per series; a
    // year would be 52.
    #expect(window.instancesExamined <= 2 * schedule.seriesCount)
  }
}

/// The scheduler reads calendars with the Swift reader; libical's parser must agree with it:
/// a calendar read by libical and printed again schedules the same firings as the calendar.
@Suite struct ReaderAgreementTests {
  private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  private func firings(_ text: String, _ name: String) throws -> [String] {
    let schedule = try FiringSchedule.reading(
      text, name: name, zone: try #require(TimeZoneRules(identifier: "Europe/Berlin")),
      includeAcknowledged: true, workLimit: 20_000)
    let window = schedule.firings(
      from: try instant("19900101T000000Z"), to: try instant("20300101T000000Z"),
      limit: 20_000)
    return window.map { "\($0.trigger) \($0.id)" }
  }

  @Test("the project's calendars give the same firings read by the Swift reader or by libical")
  func sameFirings() throws {
    let names = projectCalendars(root: Self.root)
    #expect(try compareReaders(names.map { Self.root.appendingPathComponent($0) }) > 50)
  }

  @Test(
    "the corpus gives the same firings read by the Swift reader or by libical",
    .enabled(if: SharedCorpus.isPresent))
  func sameFiringsInCorpus() throws {
    let files = try SharedCorpus.files().map { SharedCorpus.folder.appendingPathComponent($0) }
    #expect(try compareReaders(files) > 100)
  }

  /// The firings, or the error that refused the text.
  private func outcome(_ text: String, _ name: String) -> [String] {
    do { return try firings(text, name) } catch { return ["refused: \(error)"] }
  }

  /// Compares each file's firings with those of libical's reading of it, for each file libical
  /// can read; how many it compared.
  private func compareReaders(_ files: [URL]) throws -> Int {
    var compared = 0
    for file in files {
      let name = file.lastPathComponent
      let bytes = [UInt8](try Data(contentsOf: file))
      guard let text = String(validating: bytes, as: UTF8.self),
        let viaLibical = try? LibicalReader.parse(text),
        (try? ICalendarReader.read(bytes)) != nil
      else { continue }
      let printed = viaLibical.map(ICalendarPrinter.print).joined()
      // A file either reading refuses (no VCALENDAR) must be refused by both, for one reason.
      #expect(outcome(text, name) == outcome(printed, name), "\(name)")
      compared += 1
    }
    return compared
  }

  @Test("values the reader keeps but nobody can read are reported, never silently dropped")
  func unreadableValues() throws {
    let text = """
      BEGIN:VCALENDAR\r
      BEGIN:VEVENT\r
      UID:u\r
      DTSTART:20270101T090000Z\r
      DURATION:1H\r
      EXDATE:20270108T090000Z,tomorrow\r
      RRULE:FREQ=DAILY;COUNT=3\r
      this is no property\r
      BEGIN:VALARM\r
      ACTION:DISPLAY\r
      TRIGGER:-15M\r
      END:VALARM\r
      BEGIN:VALARM\r
      ACTION:DISPLAY\r
      TRIGGER:-PT15M\r
      REPEAT:twice\r
      END:VALARM\r
      END:VEVENT\r
      END:VCALENDAR\r

      """
    let schedule = try FiringSchedule.reading(
      text, name: "u.ics", zone: try #require(TimeZoneRules(identifier: "UTC")))
    #expect(
      schedule.warnings.map(\.description) == [
        "u.ics:2: event \"u\": a line could not be read and is ignored (unreadable content line 8: this is no property)",
        "u.ics:2: event \"u\": EXDATE value \"tomorrow\" cannot be read; it is ignored",
        "u.ics:2: event \"u\": DURATION \"1H\" cannot be read; it is ignored",
        "u.ics:2: event \"u\": TRIGGER \"-15M\" is not a duration; the alarm is ignored",
        "u.ics:2: event \"u\": REPEAT \"twice\" is not an integer; the alarm rings once",
      ])
  }

  @Test("the series' firings merge in order with 0 to 5 series, ties, and series with none left")
  func mergeOfSeries() throws {
    // In file order s4 ... s0, so that the file's order is not the UIDs'. s2 rang before
    // `from`; s0, s1 and s3 tie at 08:00 on 2 December, and s3's two alarms at each instance.
    let events: [(uid: String, lines: [String])] = [
      ("s4", ["DTSTART:20261203T090000Z", "RRULE:FREQ=WEEKLY;COUNT=2"]),
      ("s3", ["DTSTART:20261202T080000Z", "RRULE:FREQ=DAILY;COUNT=2"]),
      ("s2", ["DTSTART:20261101T080000Z"]),
      ("s1", ["DTSTART:20261202T080000Z"]),
      ("s0", ["DTSTART:20261201T080000Z", "RRULE:FREQ=DAILY;COUNT=3"]),
    ]
    func alarm(_ action: String) -> [String] {
      ["BEGIN:VALARM", "ACTION:\(action)", "DESCRIPTION:x", "TRIGGER:PT0S", "END:VALARM"]
    }
    // Time, then UID, then within the series (equal triggers of one instance by their ids).
    let all = [
      "2026-12-02T08:00:00Z AUDIO s0", "2026-12-02T08:00:00Z AUDIO s1",
      "2026-12-02T08:00:00Z DISPLAY s3", "2026-12-02T08:00:00Z AUDIO s3",
      "2026-12-03T08:00:00Z AUDIO s0", "2026-12-03T08:00:00Z AUDIO s3",
      "2026-12-03T08:00:00Z DISPLAY s3", "2026-12-03T09:00:00Z AUDIO s4",
      "2026-12-10T09:00:00Z AUDIO s4",
    ]
    for count in 0...5 {
      var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//alarmcal//merge//EN"]
      for event in events where Int(event.uid.dropFirst())! < count {
        lines += ["BEGIN:VEVENT", "UID:\(event.uid)", "DTSTAMP:20261201T000000Z"] + event.lines
        lines += alarm("AUDIO") + (event.uid == "s3" ? alarm("DISPLAY") : []) + ["END:VEVENT"]
      }
      lines.append("END:VCALENDAR")
      let schedule = try FiringSchedule.reading(
        lines.joined(separator: "\r\n") + "\r\n", name: "m.ics",
        zone: try #require(TimeZoneRules(identifier: "UTC")))
      let found = schedule.firings(
        from: try instant("20261202T000000Z"), to: try instant("20270101T000000Z"), limit: nil
      ).map { "\($0.trigger) \($0.action) \($0.uid)" }
      #expect(found == all.filter { Int($0.suffix(1))! < count }, "\(count) series")
    }
  }
}

/// `FiringSchedule.read` reads a calendar's zones first and then its events one at a time:
/// wherever in the file zones, masters and overrides stand, the firings are the same.
@Suite struct ReadingOrderTests {
  /// Firings (with ids) and warnings of `text`, from `from` to 2030.
  private func outcome(_ text: String, from: String = "19900101T000000Z") throws -> [String] {
    let schedule = try FiringSchedule.reading(
      text, name: "o.ics", zone: try #require(TimeZoneRules(identifier: "America/New_York")),
      includeAcknowledged: true, workLimit: 20_000)
    var lines = schedule.warnings.map(\.description)
    var window = schedule.firings(
      from: try instant(from), to: try instant("20300101T000000Z"), limit: 20_000)
    while let firing = window.next() {
      lines.append("\(firing.trigger) \(firing.id) \(firing.summary ?? "-")")
    }
    let late = window.lateWarnings
    return lines + late.map(\.description)
  }

  /// Just the firings of `text`, in order.
  private func firings(_ text: String) throws -> [String] {
    try outcome(text).filter { $0.first?.isNumber == true }
  }

  private static let zone = """
    BEGIN:VTIMEZONE\r
    TZID:Mine\r
    BEGIN:STANDARD\r
    DTSTART:19700101T000000\r
    TZOFFSETFROM:+0530\r
    TZOFFSETTO:+0530\r
    END:STANDARD\r
    END:VTIMEZONE\r

    """

  private static func event(_ uid: String, _ extra: String = "", start: String = "20270104T090000")
    -> String
  {
    "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTART;TZID=Mine:\(start)\r\nRRULE:FREQ=WEEKLY;COUNT=4\r\n"
      + "SUMMARY:\(uid)\r\n\(extra)BEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\n"
      + "END:VEVENT\r\n"
  }

  private static let moved =
    "BEGIN:VEVENT\r\nUID:a\r\nRECURRENCE-ID;TZID=Mine:20270111T090000\r\n"
    + "DTSTART;TZID=Mine:20270111T100000\r\nSUMMARY:moved\r\nBEGIN:VALARM\r\nACTION:AUDIO\r\n"
    + "TRIGGER:-PT10M\r\nEND:VALARM\r\nEND:VEVENT\r\n"

  @Test("overrides before or after their master give the same firings")
  func overrideOrder() throws {
    let after =
      "BEGIN:VCALENDAR\r\n" + Self.zone + Self.event("a") + Self.event("b") + Self.moved
      + "END:VCALENDAR\r\n"
    let before =
      "BEGIN:VCALENDAR\r\n" + Self.zone + Self.moved + Self.event("b") + Self.event("a")
      + "END:VCALENDAR\r\n"
    let firings = try firings(after)
    #expect(firings.count == 8)  // two weekly series of four; a's moved one rings 10 minutes early
    #expect(firings.contains { $0.hasSuffix(" moved") })
    #expect(try self.firings(before).sorted() == firings.sorted())
  }

  @Test("a zone and X-WR-TIMEZONE defined after the events that use them are used for them")
  func zonesAfterEvents() throws {
    let floating =
      "BEGIN:VEVENT\r\nUID:f\r\nDTSTART:20270106T080000\r\nBEGIN:VALARM\r\nACTION:AUDIO\r\n"
      + "TRIGGER:PT0S\r\nEND:VALARM\r\nEND:VEVENT\r\n"
    let late =
      "BEGIN:VCALENDAR\r\n" + Self.event("a") + Self.event("b", start: "20270105T070000")
      + floating + Self.zone + "X-WR-TIMEZONE:Asia/Tokyo\r\nEND:VCALENDAR\r\n"
    let early =
      "BEGIN:VCALENDAR\r\nX-WR-TIMEZONE:Asia/Tokyo\r\n" + Self.zone + Self.event("a")
      + Self.event("b", start: "20270105T070000") + floating + "END:VCALENDAR\r\n"
    #expect(try outcome(late) == outcome(early))
    // 09:00 in the file's own +05:30 zone, and the floating 08:00 in Tokyo.
    #expect(try firings(late).first?.hasPrefix("2027-01-04T03:25:00Z") == true)
    #expect(try firings(late).contains { $0.hasPrefix("2027-01-05T23:00:00Z") })
  }

  @Test("two calendars in one file each read their own zones; one UID in both is one series")
  func severalCalendars() throws {
    let text =
      "BEGIN:VCALENDAR\r\n" + Self.event("a") + "END:VCALENDAR\r\nBEGIN:VCALENDAR\r\n" + Self.zone
      + Self.event("a") + Self.moved + "END:VCALENDAR\r\n"
    let lines = try outcome(text)
    // The same revision twice: the later in the file is current (RFC 5546 §2.1.5), read in its
    // own calendar's zone; the first calendar's (whose zone Mine is unknown) is passed over.
    #expect(lines.first?.contains("an older revision than the one at line") == true)
    #expect(!lines.contains { $0.contains("time zone \"Mine\" is unknown") })
    #expect(try firings(text).count == 4)
    let alone = "BEGIN:VCALENDAR\r\n" + Self.event("b") + "END:VCALENDAR\r\n" + text
    #expect(try outcome(alone).contains { $0.contains("time zone \"Mine\" is unknown") })
  }

  @Test("a file that cannot be read adds nothing, and says why with its line")
  func refused() throws {
    var schedule = FiringSchedule(defaultZone: .utc)
    let deep = "BEGIN:VCALENDAR\r\n" + Self.event("a") + String(repeating: "BEGIN:X\r\n", count: 40)
    #expect(throws: ICalendarSyntaxError.self) { try schedule.read(Array(deep.utf8), file: "d") }
    do {
      try schedule.read(Array("BEGIN:VEVENT\r\nEND:VEVENT\r\n".utf8), file: "e")
      Issue.record("a file without VCALENDAR was accepted")
    } catch {
      #expect(error.line == 1)
      #expect(error.message == "no VCALENDAR component: this is not an iCalendar file")
    }
    #expect(schedule.seriesCount == 0)
    try schedule.read(Array(("BEGIN:VCALENDAR\r\n" + Self.zone + Self.event("a")).utf8), file: "ok")
    #expect(schedule.seriesCount == 1)
  }

  @Test("a window's firings are a sequence: one schedule gives each window its own walks")
  func windowsOfOneSchedule() throws {
    // A daily 09:00 UTC event: every firing is 86,400 s after the last.
    let text = """
      BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:d\r\n\
      DTSTAMP:20260101T000000Z\r\nDTSTART:20261201T090000Z\r\nRRULE:FREQ=DAILY\r\n\
      BEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:PT0S\r\nEND:VALARM\r\nEND:VEVENT\r\n\
      END:VCALENDAR\r\n
      """
    let schedule = try FiringSchedule.reading(text, name: "d.ics", zone: .utc)
    let from = try instant("20261203T000000Z")
    let five = schedule.firings(from: from, to: nil, limit: 5).map(\.trigger)
    let first = try instant("20261203T090000Z")
    #expect(five == (0..<5).map { first.adding(seconds: Int64($0) * 86_400) })
    // A second window of the same schedule starts over; stopping early leaves it usable.
    #expect(
      schedule.firings(from: from, to: nil, limit: nil).prefix(2).map(\.trigger) == [
        first, first.adding(seconds: 86_400),
      ])
    // The end is excluded.
    let end = first.adding(seconds: 2 * 86_400)
    #expect(schedule.firings(from: from, to: end, limit: nil).map(\.trigger).count == 2)
  }

  @Test(
    "firings taken in batches are the firings of the sequence, in order, with the same warnings",
    arguments: [
      ("dst.ics", nil), ("overrides.ics", nil), ("thisandfuture.ics", nil), ("ack.ics", nil),
      ("exdate-rdate.ics", 5),  // the limit falls inside a batch
      ("hostile.ics", nil),
    ] as [(String, Int?)])
  func batches(_ fixture: String, limit: Int?) throws {
    let text = try fixtureText("schedule/\(fixture)")
    let zone = try #require(TimeZoneRules(identifier: "Europe/Berlin"))
    let (from, to) = (try instant("20000101T000000Z"), try instant("20300101T000000Z"))
    let called = try FiringSchedule.reading(text, name: fixture, zone: zone, workLimit: 5_000)
    var expected: [Firing] = []
    var window = called.firings(from: from, to: to, limit: limit)
    while let firing = window.next() { expected.append(firing) }
    let late = window.lateWarnings
    var batched = try FiringSchedule.reading(text, name: fixture, zone: zone, workLimit: 5_000)
    batched.startFirings(from: from, to: to, limit: limit)
    var firings: [Firing] = []
    var batch = FiringBatch()
    repeat {
      batch.removeAll()
      batched.nextFirings(max: 3, into: &batch)
      #expect(batch.count <= 3)
      for index in 0..<batch.count { firings.append(batch[index]) }
    } while !batch.isEmpty
    #expect(firings == expected)
    #expect(firings.map(\.id) == expected.map(\.id))
    #expect(batched.lateWarnings.map(\.description) == late.map(\.description))
  }

  @Test(
    "a batch's shared source and own values give back the firing: firings of one source share their text and id seed",
    arguments: ["dst.ics", "overrides.ics", "thisandfuture.ics", "ack.ics", "exdate-rdate.ics"])
  func sharedSources(_ fixture: String) throws {
    let text = try fixtureText("schedule/\(fixture)")
    let zone = try #require(TimeZoneRules(identifier: "Europe/Berlin"))
    var schedule = try FiringSchedule.reading(text, name: fixture, zone: zone, workLimit: 5_000)
    schedule.startFirings(
      from: try instant("20000101T000000Z"), to: try instant("20300101T000000Z"), limit: nil)
    var firstOfSource: [FiringSource: Firing] = [:]
    var shared = 0
    var batch = FiringBatch()
    repeat {
      batch.removeAll()
      schedule.nextFirings(max: 7, into: &batch)
      for index in 0..<batch.count {
        let firing = batch[index]
        guard let (source, own) = batch.sharedSource(at: index) else { continue }
        shared += 1
        #expect(own.trigger == firing.trigger && own.eventStart == firing.eventStart)
        #expect(own.recurrenceID == firing.recurrenceID && own.repeatIndex == firing.repeatIndex)
        #expect(own.acknowledged == firing.acknowledged)
        #expect(firing.ownValues.trigger == own.trigger)
        let first = firstOfSource[source] ?? firing
        firstOfSource[source] = first
        // What the JSON printer writes once per source must hold for each of its firings.
        #expect(
          [first.uid, first.component, first.file, first.action]
            == [firing.uid, firing.component, firing.file, firing.action])
        #expect(
          [first.summary, first.alarmUID, first.snoozeOf]
            == [firing.summary, firing.alarmUID, firing.snoozeOf])
        #expect(first.isSnooze == firing.isSnooze)
        #expect(
          first.idSeed.id(recurrenceID: own.recurrenceID, repeatIndex: own.repeatIndex)
            == firing.id)
      }
    } while !batch.isEmpty
    #expect(shared > 0)
  }
}

/// Firings are taken a span of time at a time and sorted (`FiringSlice`): however the spans
/// fall, the same firings are listed in the same order, with the same warnings.
@Suite struct SliceTests {
  /// Two series whose MINUTELY rules stop on the work limit within their first hour (each has
  /// 60 instances among its first 200 candidates), one UID in both calendars of the file (its
  /// master in the first, an instance without master in the second: two walks of one rank)
  /// whose four alarms each ring at one minute, a daily series whose first
  /// week is acknowledged, a weekly one, and one that rings half a minute after each of the
  /// first's firings (so that a span cut short carries firings into the next).
  private static let calendar: String = {
    func event(_ uid: String, _ lines: [String], alarms: [[String]]) -> [String] {
      ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261201T000000Z"] + lines
        + alarms.flatMap { ["BEGIN:VALARM"] + $0 + ["END:VALARM"] } + ["END:VEVENT"]
    }
    let audio = ["ACTION:AUDIO", "TRIGGER:PT0S"]
    let display = ["ACTION:DISPLAY", "DESCRIPTION:d", "TRIGGER:PT0S"]
    let once = ["DTSTART:20261202T093000Z"]
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//alarmcal//slices//EN"]
    lines += event(
      "stops-a", ["DTSTART:20261202T090000Z", "RRULE:FREQ=MINUTELY;BYHOUR=9"], alarms: [display])
    lines += event(
      "stops-b", ["DTSTART:20261203T091000Z", "RRULE:FREQ=MINUTELY;BYHOUR=9"],
      alarms: [["ACTION:AUDIO", "TRIGGER:-PT10M"]])
    lines += event("twice", once, alarms: Array(repeating: audio, count: 4))
    lines += event(
      "offset", ["DTSTART:20261202T090030Z", "RRULE:FREQ=MINUTELY;BYHOUR=9;COUNT=30"],
      alarms: [audio])
    lines += event(
      "daily", ["DTSTART:20261201T093000Z", "RRULE:FREQ=DAILY;COUNT=40"],
      alarms: [
        display + ["ACKNOWLEDGED:20261208T000000Z"],
        ["ACTION:AUDIO", "TRIGGER:-PT1H", "REPEAT:2", "DURATION:PT30M"],
      ])
    lines += event(
      "weekly", ["DTSTART:20261202T093000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR"], alarms: [audio])
    lines += ["END:VCALENDAR", "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//alarmcal//two//EN"]
    lines += event(
      "twice", once + ["RECURRENCE-ID:20261202T093000Z"],
      alarms: Array(repeating: display, count: 4))
    lines.append("END:VCALENDAR")
    return lines.joined(separator: "\r\n") + "\r\n"
  }()

  /// The firings, each also as a line with its id, and the warnings found while listing them,
  /// with slices meant to hold `sliceFirings` firings.
  private func listing(
    sliceFirings: Int?, includeAcknowledged: Bool, limit: Int?, to: String = "20270301T000000Z"
  ) throws -> (firings: [Firing], lines: [String], warnings: [String]) {
    var schedule = try FiringSchedule.reading(
      Self.calendar, name: "s.ics", zone: try #require(TimeZoneRules(identifier: "UTC")),
      includeAcknowledged: includeAcknowledged, workLimit: 200)
    if let sliceFirings { schedule.sliceFirings = sliceFirings }
    let window = schedule.firings(
      from: try instant("20261202T000000Z"), to: try instant(to), limit: limit)
    let (firings, late) = Self.all(of: window)
    let lines = firings.map { "\($0.trigger) \($0.uid) \($0.action) \($0.id)" }
    return (firings, lines, late.map(\.description))
  }

  /// Every firing `window` hands out, and the warnings found on the way.
  private static func all(of window: FiringSequence) -> ([Firing], [SchedulerWarning]) {
    var window = window
    var firings: [Firing] = []
    while let firing = window.next() { firings.append(firing) }
    return (firings, window.lateWarnings)
  }

  /// Whether no firing of `firings` is listed before one ahead of it.
  private func inOrder(_ firings: [Firing]) -> Bool {
    !zip(firings, firings.dropFirst()).contains { Firing.precedes($1, $0) }
  }

  @Test(arguments: [false, true], [nil, 1, 50, 61, 150])
  func anySlicingListsTheSame(includeAcknowledged: Bool, limit: Int?) throws {
    // Slices meant to hold one firing never grow and shrink to spans of a second: firings are
    // handed out a second at a time.
    let single = try listing(
      sliceFirings: 1, includeAcknowledged: includeAcknowledged, limit: limit)
    #expect(single.lines.count == limit ?? single.lines.count)
    #expect(single.lines.count >= min(limit ?? 101, 101))
    let ordered = inOrder(single.firings)
    #expect(ordered)
    for sliceFirings in [3, 40, 1_000, nil] {
      let sliced = try listing(
        sliceFirings: sliceFirings, includeAcknowledged: includeAcknowledged, limit: limit)
      #expect(sliced.lines == single.lines, "slices of \(sliceFirings ?? 0)")
      #expect(sliced.warnings == single.warnings, "slices of \(sliceFirings ?? 0)")
    }
  }

  @Test(arguments: [1, 3, nil])
  func theEndIsExcluded(sliceFirings: Int?) throws {
    // `daily`'s AUDIO alarm rings at 08:30, 09:00 and 09:30, and its DISPLAY at 09:30 (a Tuesday:
    // `weekly` does not ring).
    let before = try listing(
      sliceFirings: sliceFirings, includeAcknowledged: false, limit: nil,
      to: "20261208T093000Z")
    let after = try listing(
      sliceFirings: sliceFirings, includeAcknowledged: false, limit: nil,
      to: "20261208T093001Z")
    #expect(before.lines.last?.hasPrefix("2026-12-08T09:00:00Z daily AUDIO") == true)
    #expect(after.lines.count == before.lines.count + 2)
    #expect(after.lines.suffix(2).allSatisfy { $0.hasPrefix("2026-12-08T09:30:00Z daily") })
  }

  @Test func aListingThatEndsWhereARuleStoppedDoesNotSaySo() throws {
    // The first limit whose listing warns: the rule stopped after the last firing of the
    // listing one shorter, which says nothing of it, as no later firing was asked for.
    var limit = 1
    while try listing(sliceFirings: nil, includeAcknowledged: false, limit: limit).warnings
      .isEmpty, limit < 400
    {
      limit += 1
    }
    let shorter = try listing(sliceFirings: nil, includeAcknowledged: false, limit: limit - 1)
    #expect(limit < 400)
    #expect(shorter.lines.last?.contains("stops-a") == true)
  }

  @Test func theListingIsInOrder() throws {
    let listed = try listing(sliceFirings: nil, includeAcknowledged: false, limit: nil)
    let ordered = inOrder(listed.firings)
    #expect(ordered)
    // Both rules stop on the work limit, `stops-a`'s first.
    #expect(listed.warnings.count == 2)
    #expect(listed.warnings.first?.contains("stops-a") == true)
    // `twice`, in each calendar of the file, rings at one minute: the master's four alarms
    // (the first calendar's), then the instance's (its RECURRENCE-ID gives other ids), the
    // same order however the spans fall (the other tests of this suite).
    let twice = listed.lines.filter { $0.hasPrefix("2026-12-02T09:30:00Z twice") }
    #expect(
      twice.map { $0.split(separator: " ")[2] }
        == Array(repeating: "AUDIO", count: 4) + Array(repeating: "DISPLAY", count: 4))
    // Acknowledged firings are passed over: none of `daily`'s DISPLAY before 8 December.
    #expect(!listed.lines.contains { $0.hasPrefix("2026-12-07T09:30:00Z daily DISPLAY") })
    #expect(listed.lines.contains { $0.hasPrefix("2026-12-08T09:30:00Z daily DISPLAY") })
  }

  @Test func denseRulesAfterSparseOnesAreCutShort() throws {
    // A daily event lets spans grow to weeks; then four SECONDLY rules start. A span is cut
    // short once twice the firings a slice is meant to hold are taken, so the rules are not
    // walked to their work limit for a few firings; what was taken past the cut comes in
    // order after, and is not sorted again span after span.
    func event(_ uid: String, _ start: String, _ rule: String) -> [String] {
      [
        "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261201T000000Z", "DTSTART:\(start)",
        "RRULE:\(rule)", "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:PT0S", "END:VALARM",
        "END:VEVENT",
      ]
    }
    let text =
      (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//alarmcal//dense//EN"]
      + event("sparse", "20261202T080000Z", "FREQ=DAILY")
      + ["a", "b", "c", "d"].flatMap { event("dense-\($0)", "20270120T000000Z", "FREQ=SECONDLY") }
      + ["END:VCALENDAR"])
      .joined(separator: "\r\n") + "\r\n"
    for limit in [59 + 10, 59 + 5_000] {
      var schedule = try FiringSchedule.reading(
        text, name: "d.ics", zone: try #require(TimeZoneRules(identifier: "UTC")))
      schedule.sliceFirings = 1_000
      var window = schedule.firings(from: try instant("20261202T000000Z"), to: nil, limit: limit)
      var firings: [Firing] = []
      while let firing = window.next() { firings.append(firing) }
      let late = window.lateWarnings
      #expect(late.isEmpty)
      #expect(firings.count == limit)
      let ordered = inOrder(firings)
      #expect(ordered)
      #expect(firings.suffix(10).allSatisfy { $0.uid.hasPrefix("dense") })
      #expect(window.instancesExamined < limit + 4 * 1_000)
      #expect(window.firingsSorted < 10 * limit + 4 * 1_000)
    }
  }
}
