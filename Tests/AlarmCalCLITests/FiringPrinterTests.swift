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

  /// Prints a month of the schedule's firings in batches, as `upcoming` does, more than one
  /// block of output, and returns the text with the firings in the order printed.
  private func printed(_ format: FiringFormat) throws -> (text: String, firings: [Firing]) {
    let zone = try #require(TimeZoneRules(identifier: "Europe/Berlin"))
    let from = Instant(secondsSince1970: 1_796_198_400)  // 2026-12-02T08:00:00Z
    var schedule = try schedule()
    let captured = CapturedText()
    var printer = FiringPrinter(
      format: format, zone: zone, now: from, colour: false, sink: captured)
    printer.begin()
    var firings: [Firing] = []
    schedule.startFirings(from: from, to: from.adding(seconds: 30 * 86_400), limit: nil)
    var batch = FiringBatch()
    while true {
      batch.removeAll()
      schedule.nextFirings(max: 512, into: &batch)
      guard !batch.isEmpty else { break }
      for index in 0..<batch.count {
        printer.print(batch, at: index)
        firings.append(batch[index])
      }
    }
    printer.end()
    return (captured.text, firings)
  }

  @Test("output written in blocks is one well-formed JSON object per firing, in order")
  func blocksKeepEveryFiring() throws {
    let (text, firings) = try printed(.json)
    #expect(firings.count > 8_000)
    #expect(text.utf8.count > 1 << 20, "more than one block")
    let array = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    #expect(array.count == firings.count)
    let berlin = try #require(TimeZoneRules(identifier: "Europe/Berlin"))
    for (object, firing) in zip(array, firings) {
      #expect(object["uid"] as? String == firing.uid)
      #expect(object["summary"] as? String == firing.summary)
      #expect(object["id"] as? String == firing.id.description)
      #expect(object["trigger"] as? String == "\(firing.trigger)")
      let local = berlin.local(at: firing.trigger)
      let local19 = (object["local"] as? String)?.prefix(19)
      #expect(local19.map(String.init) == "\(local.date)T\(local.time)")
    }
    #expect(firings.allSatisfy { $0.summary?.hasSuffix("\", tab\tend") == true })
  }

  @Test("NDJSON gives the JSON array's objects, one per line")
  func ndjsonMatchesJSON() throws {
    let json = try printed(.json).text
    let ndjson = try printed(.ndjson).text
    let lines = ndjson.split(separator: "\n").map(String.init)
    let objects = json.split(separator: "\n").dropFirst().dropLast().map {
      String($0.dropFirst(2).hasSuffix(",") ? $0.dropFirst(2).dropLast() : $0.dropFirst(2))
    }
    #expect(lines.count > 8_000)
    #expect(lines == objects)
  }
}
