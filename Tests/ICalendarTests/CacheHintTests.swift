import ICalendar
import Testing

@Suite struct CacheHintTests {
  @Test("a prefetch changes nothing and never faults, even at an address that is not mapped")
  func prefetch() {
    var values = [1, 2, 3]
    values.withUnsafeBytes { CacheHint.prefetch($0.baseAddress! + 8) }
    if let unmapped = UnsafeRawPointer(bitPattern: 0x10) { CacheHint.prefetch(unmapped) }
    #expect(values == [1, 2, 3])
    values[0] = 4
    #expect(values == [4, 2, 3])
  }
}
