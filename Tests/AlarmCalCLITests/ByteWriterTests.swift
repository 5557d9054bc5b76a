import ICalendar
import Testing

@testable import AlarmCalCLI

@Suite struct ByteWriterTests {
  private func written(_ write: (inout ByteWriter) -> Void) -> String {
    var writer = ByteWriter(capacity: 8)
    write(&writer)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  @Test(
    "numbers are written as String(_:) writes them",
    arguments: [
      0, 7, 10, 99, 1_000, -1, -42, Int.max, Int.min,
    ])
  func decimal(_ value: Int) {
    #expect(written { $0.appendDecimal(value) } == String(value))
  }

  @Test("dates are written as LocalDate's description writes them")
  func dates() throws {
    for days in [-719_162, -1, 0, 59, 20_000, 2_932_896] {
      let date = LocalDate(daysSince1970: days)
      #expect(written { $0.appendDate(date) } == date.description)
    }
  }

  @Test("hex digits come from the bits asked for, upper-case, first digit first")
  func hex() {
    let word: UInt64 = 0x0123_4567_89AB_CDEF
    #expect(written { $0.appendHex(word, from: 60, count: 16) } == "0123456789ABCDEF")
    #expect(written { $0.appendHex(word, from: 28, count: 4) } == "89AB")
  }

  @Test("writes past the first capacity grow the storage and keep every byte")
  func growth() {
    let text = String(repeating: "abc\u{1F600}", count: 500)
    #expect(written { $0.appendUTF8(text) } == text)
    #expect(written { $0.appendSpaces(300) } == String(repeating: " ", count: 300))
  }
}
