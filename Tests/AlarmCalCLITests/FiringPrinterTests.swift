import AlarmCal
import Foundation
import ICalendar
import Testing

@testable import AlarmCalCLI

@Suite struct FiringPrinterTests {
  /// 2,000 weekly series in a zone, each with two alarms, every third pair at one instant, and
  /// labels that need escaping.
  private func schedule() throws -> FiringSchedule {
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n"
    for index in 0..<2_000 {
      let day = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][index % 7]
      let second = index % 3 == 0 ? "-PT5M" : "-PT1H"
      text += "BEGIN:VEVENT\r\nUID:p\(index)@test\r\nDTSTAMP:20260101T000000Z\r\n"
      text += "DTSTART;TZID=Europe/Berlin:2026010\(index % 7 + 1)T0\(index % 10)3000\r\n"
      text += "RRULE:FREQ=WEEKLY;BYDAY=\(day)\r\nSUMMARY:Alarm \"\(index)\"\\, tab\tend\r\n"
      text += "BEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\n"
      text += "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:x\r\nTRIGGER:\(second)\r\n"
      text += "END:VALARM\r\nEND:VEVENT\r\n"
    }
    var schedule = FiringSchedule(defaultZone: .utc)
    try schedule.read(Array((text + "END:VCALENDAR\r\n").utf8), file: "printer \"test\".ics")
    return schedule
  }

  @Test(
    "a window formatted in rounds on two threads gives the bytes of one firing at a time",
    arguments: [FiringFormat.json, .ndjson])
  func twoHalves(format: FiringFormat) throws {
    let zone = try #require(TimeZoneRules(identifier: "Europe/Berlin"))
    let from = Instant(secondsSince1970: 1_796_198_400)  // 2026-12-02T08:00:00Z
    let to = from.adding(seconds: 30 * 86_400)
    var oneByOne = try schedule()
    let expected = CapturedText()
    var printer = FiringPrinter(
      format: format, zone: zone, now: from, colour: false, sink: expected)
    printer.begin()
    var count = 0
    _ = oneByOne.firings(from: from, to: to, limit: nil) {
      printer.print($0)
      count += 1
    }
    printer.end()
    #expect(count > 8_000)
    for (twoThreadsFrom, roundRun) in [(2, 8_192), (3, 1), (4_096, 8_192), (100, 777)] {
      var windows = try schedule()
      let captured = CapturedText()
      var printer = FiringPrinter(
        format: format, zone: zone, now: from, colour: false, sink: captured,
        twoThreadsFrom: twoThreadsFrom, roundRun: roundRun)
      printer.begin()
      _ = windows.firingWindows(from: from, to: to, limit: nil) { printer.print($0) }
      printer.end()
      #expect(captured.text == expected.text, "\(twoThreadsFrom) \(roundRun)")
    }
  }
}
