import ICalendar
import Testing

@testable import AlarmCalCLI

@Suite struct ReadingDigitsTests {
  @Test("a reading writer that remembers its last day writes exactly what LocalDateTime writes")
  func readingWriter() {
    // Runs within one day, jumps across days, years and 1970, back and forth, the ends, and
    // repeats.
    var seconds: [Int64] = [
      0, -1, 86_399, 86_400, -86_400, -86_401, 253_402_300_799, -62_135_596_800,
    ]
    var generator = SystemRandomNumberGenerator()
    var value: Int64 = -3_000_000_000
    while value < 3_000_000_000 {
      seconds += [value, value + 1, value + 3_599, value + 86_399]
      value += Int64.random(in: 1...40_000_000, using: &generator)
    }
    seconds += seconds.reversed()
    // Each reading twice in a row too (the writer keeps the last one whole).
    seconds += seconds.flatMap { [$0, $0, $0 + 1, $0] }
    var digits = ReadingDigits()
    var mismatches: [Int64] = []
    for second in seconds {
      var writer = ByteWriter(capacity: 32)
      digits.append(second, to: &writer)
      if String(decoding: writer.bytes, as: UTF8.self)
        != LocalDateTime(secondsSince1970: second).description
      {
        mismatches.append(second)
      }
    }
    #expect(mismatches.isEmpty)
    #expect(seconds.count > 500)
  }
}
