import AlarmCal
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

  @Test("a UUID is both words' upper-case hex digits, first digit first, in 8-4-4-4-12 groups")
  func uuid() {
    #expect(
      written { $0.appendUUID(0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210) }
        == "01234567-89AB-CDEF-FEDC-BA9876543210")
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<1_000 {
      let (high, low) = (
        UInt64.random(in: 0...UInt64.max, using: &generator),
        UInt64.random(in: 0...UInt64.max, using: &generator)
      )
      let digits = [high, low].map {
        let text = String($0, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - text.count) + text
      }.joined()
      var groups: [Substring] = []
      var rest = Substring(digits)
      for length in [8, 4, 4, 4, 12] {
        groups.append(rest.prefix(length))
        rest = rest.dropFirst(length)
      }
      #expect(written { $0.appendUUID(high, low) } == groups.joined(separator: "-"))
    }
  }

  @Test("JSON strings are escaped as JSONWriter escapes them, wherever the byte to escape sits")
  func jsonStrings() {
    var texts = ["", "a", "plain text of some length", "caf\u{E9}", "\u{1F600} x"]
    for special in ["\"", "\\", "\n", "\u{1}", "\u{1F}", "\u{2028}", "\u{2029}", "\u{2013}"] {
      for position in 0..<20 {
        texts.append(String(repeating: "a", count: position) + special)
        texts.append(String(repeating: "b", count: position) + special + "cdefghij")
      }
    }
    // Bytes next to the ones escaped: one below and one above each.
    texts += ["\u{20}\u{21}\u{23}\u{5B}\u{5D}\u{7F}", "\u{E1}\u{E3}"]
    for text in texts {
      var expected: [UInt8] = []
      JSONWriter.appendString(text, to: &expected)
      #expect(written { $0.appendJSONString(text) } == String(decoding: expected, as: UTF8.self))
      // After other bytes, so the string does not start the storage.
      #expect(
        written {
          $0.appendUTF8("xyz")
          $0.appendJSONString(text)
        } == "xyz" + String(decoding: expected, as: UTF8.self))
    }
  }

  @Test("writes past the first capacity grow the storage and keep every byte")
  func growth() {
    let text = String(repeating: "abc\u{1F600}", count: 500)
    #expect(written { $0.appendUTF8(text) } == text)
    #expect(written { $0.appendSpaces(300) } == String(repeating: " ", count: 300))
  }
}
