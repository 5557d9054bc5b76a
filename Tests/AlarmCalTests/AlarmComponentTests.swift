import Foundation
import ICalendar
import Testing

@testable import AlarmCal

/// The one reading of a VALARM, and the three readers of it agreeing on what it says.
@Suite struct AlarmComponentTests {
  /// The first VEVENT or VTODO of a calendar holding `item`, and its alarms read.
  private func read(_ item: String) throws -> (ICalComponent, [AlarmComponent]) {
    let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\n\(item)END:VCALENDAR\r\n"
    let calendar = try #require(try ICalendarReader.read(Array(text.utf8)).first)
    let component = try #require(calendar.components.first)
    return (component, AlarmComponent.all(in: component))
  }

  private func task(_ properties: String, alarm: String) -> String {
    "BEGIN:VTODO\r\nUID:t\r\nDTSTAMP:20261201T000000Z\r\n\(properties)BEGIN:VALARM\r\n\(alarm)"
      + "END:VALARM\r\nEND:VTODO\r\n"
  }

  @Test("REPEAT rings at most 1,000 more times, only with a positive DURATION")
  func repetition() throws {
    let cases: [(String, Int, Bool)] = [
      ("REPEAT:3\r\nDURATION:PT5M\r\n", 3, false),
      ("REPEAT:1000000000000000\r\nDURATION:PT1M\r\n", 1000, false),
      ("REPEAT:-1\r\nDURATION:PT5M\r\n", 0, false),
      ("REPEAT:2\r\n", 0, true),
      ("REPEAT:2\r\nDURATION:-PT5M\r\n", 0, true),
      ("REPEAT:2\r\nDURATION:PT0S\r\n", 0, true),
      ("REPEAT:two\r\nDURATION:PT5M\r\n", 0, true),
    ]
    for (lines, count, problem) in cases {
      let (_, alarms) = try read(
        task(
          "DUE:20270101T090000Z\r\n", alarm: "ACTION:AUDIO\r\nTRIGGER;RELATED=END:-PT1M\r\n\(lines)"
        )
      )
      let alarm = try #require(alarms.first)
      #expect(alarm.repeatCount == count, "\(lines)")
      #expect((alarm.repeatProblem != nil) == problem, "\(lines)")
    }
  }

  @Test("a relative trigger needs its anchor: DTSTART, or DTEND/DUE or DTSTART and DURATION")
  func anchors() throws {
    let cases: [(String, String, AlarmComponent.MissingAnchor?)] = [
      ("DUE:20270101T090000Z\r\n", "TRIGGER:-PT5M\r\n", .start),
      ("DUE:20270101T090000Z\r\n", "TRIGGER;RELATED=END:-PT5M\r\n", nil),
      ("DTSTART:20270101T090000Z\r\n", "TRIGGER;RELATED=END:-PT5M\r\n", .end),
      ("DTSTART:20270101T090000Z\r\nDURATION:PT1H\r\n", "TRIGGER;RELATED=END:-PT5M\r\n", nil),
      ("", "TRIGGER;VALUE=DATE-TIME:20270101T080000Z\r\n", nil),
    ]
    for (properties, trigger, missing) in cases {
      let (_, alarms) = try read(task(properties, alarm: "ACTION:DISPLAY\r\n\(trigger)"))
      #expect(try #require(alarms.first).missingAnchor == missing, "\(properties) \(trigger)")
    }
  }

  @Test("ACTION:NONE is switched off; a missing ACTION is not, and neither rings")
  func actions() throws {
    let (_, off) = try read(
      task("DUE:20270101T090000Z\r\n", alarm: "ACTION:none\r\nTRIGGER:PT0S\r\n"))
    #expect(try #require(off.first).isSwitchedOff)
    let (_, bare) = try read(task("DUE:20270101T090000Z\r\n", alarm: "TRIGGER:PT0S\r\n"))
    #expect(try #require(bare.first).action.isEmpty)
    #expect(try !#require(bare.first).isSwitchedOff)
  }

  @Test("triggers: a date-time, a duration, or the reason there is none")
  func triggers() throws {
    let (_, alarms) = try read(
      task(
        "DTSTART:20270101T090000Z\r\n",
        alarm: "ACTION:DISPLAY\r\nTRIGGER;VALUE=DATE-TIME:soon\r\nEND:VALARM\r\nBEGIN:VALARM\r\n"
          + "ACTION:DISPLAY\r\nTRIGGER:-P1X\r\nEND:VALARM\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\n"
          + "END:VALARM\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;RELATED=end:-P1DT2H\r\n"))
    #expect(alarms.count == 4)
    guard alarms.count == 4 else { return }
    guard case .failure(.notDateTime("soon")) = alarms[0].trigger else {
      Issue.record("\(alarms[0].trigger)")
      return
    }
    #expect(alarms[0].isAbsolute)
    guard case .failure(.notDuration("-P1X")) = alarms[1].trigger else {
      Issue.record("\(alarms[1].trigger)")
      return
    }
    guard case .failure(.missing) = alarms[2].trigger else {
      Issue.record("\(alarms[2].trigger)")
      return
    }
    guard case .success(.relative(let duration, fromEnd: true)) = alarms[3].trigger else {
      Issue.record("\(alarms[3].trigger)")
      return
    }
    #expect(duration == ICalDuration("-P1DT2H"))
  }

  @Test("scheduler and importer agree on how often a capped REPEAT rings and when")
  func schedulerAndImporterAgree() throws {
    let text = """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:t\r
      BEGIN:VEVENT\r
      UID:r\r
      DTSTAMP:20261201T000000Z\r
      DTSTART:20270105T090000Z\r
      BEGIN:VALARM\r
      ACTION:AUDIO\r
      TRIGGER:-PT30M\r
      REPEAT:5000\r
      DURATION:PT1M\r
      END:VALARM\r
      END:VEVENT\r
      END:VCALENDAR\r

      """
    var schedule = FiringSchedule(defaultZone: try #require(TimeZoneRules(identifier: "UTC")))
    try schedule.read(Array(text.utf8), file: "r.ics")
    var rings: [Instant] = []
    for firing in schedule.firings(
      from: testNow, to: testNow.adding(seconds: 90 * 86_400), limit: nil)
    {
      rings.append(firing.trigger)
    }
    #expect(rings.count == 1 + AlarmComponent.maximumRepeats)
    #expect(rings.first == (try instant("20270105T083000Z")))
    let imported = try AlarmImporter(fileName: "r.ics", defaultTimeZone: "UTC", now: testNow)
      .importAlarms(fromText: text)
    #expect(imported.alarms.count == 1)
    #expect(
      imported.losses.map(\.description).contains { $0.contains("REPEAT:5000 re-rings every PT1M") }
    )
  }
}
