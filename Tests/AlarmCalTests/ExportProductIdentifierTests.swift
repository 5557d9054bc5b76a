import AlarmCal
import ICalendar
import Testing

@Suite struct ExportProductIdentifierTests {
  @Test("an export's PRODID is alarmcal's one, which validate counts as its own")
  func export() throws {
    let text = try AlarmExporter(now: testNow, timestamp: testNow).text([])
    #expect(text.contains("\r\nPRODID:\(ProductIdentifier.alarmcal)\r\n"))
    #expect(ProductIdentifier.isAlarmcal(ProductIdentifier.alarmcal))
  }
}
