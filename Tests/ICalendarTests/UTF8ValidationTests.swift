import ICalendar
import Testing

/// RFC 3629 §4: well-formed UTF-8, the rule the lexer, the JSON parser and the input check
/// share (`UTF8Validation`).
@Suite struct UTF8ValidationTests {
  /// The scalar RFC 3629 §3 decodes from `bytes` read as one sequence, or nil when they are
  /// not one well-formed sequence: its lead's count of continuation bytes, each `10xxxxxx`,
  /// the value in the range its length is for (no overlong form), not a surrogate, at most
  /// U+10FFFF. Worked out from the bits, not from a table of byte ranges.
  static func decoded(_ bytes: [UInt8]) -> UInt32? {
    guard let lead = bytes.first else { return nil }
    let ones = (~lead).leadingZeroBitCount
    let length = ones == 0 ? 1 : ones
    guard ones != 1, length <= 4, bytes.count == length else { return nil }
    var value = UInt32(lead) & (0x7F >> UInt32(length == 1 ? 0 : length))
    for byte in bytes.dropFirst() {
      guard byte >> 6 == 0b10 else { return nil }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    let smallest: [UInt32] = [0, 0x80, 0x800, 0x1_0000]
    guard value >= smallest[length - 1], value <= 0x10_FFFF, !(0xD800...0xDFFF).contains(value)
    else { return nil }
    return value
  }

  @Test(
    "RFC 3629 §4: one to four bytes; overlong forms, surrogates, values past U+10FFFF and cut sequences are not UTF-8",
    arguments: [
      // Valid: each length at its smallest and largest value, and around the surrogates.
      ([0x41], 1), ([0x7F], 1), ([0xC2, 0x80], 2), ([0xDF, 0xBF], 2), ([0xC3, 0xA9], 2),
      ([0xE0, 0xA0, 0x80], 3), ([0xE2, 0x82, 0xAC], 3), ([0xED, 0x9F, 0xBF], 3),
      ([0xEE, 0x80, 0x80], 3), ([0xEF, 0xBF, 0xBF], 3), ([0xF0, 0x90, 0x80, 0x80], 4),
      ([0xF0, 0x9F, 0x95, 0xB0], 4), ([0xF4, 0x8F, 0xBF, 0xBF], 4),
      // Overlong: U+0000 in two bytes, U+007F in two, U+0000 and U+07FF in three, U+FFFF in four.
      ([0xC0, 0x80], 0), ([0xC1, 0xBF], 0), ([0xE0, 0x80, 0x80], 0), ([0xE0, 0x9F, 0xBF], 0),
      ([0xF0, 0x8F, 0xBF, 0xBF], 0),
      // Surrogates U+D800 and U+DFFF.
      ([0xED, 0xA0, 0x80], 0), ([0xED, 0xBF, 0xBF], 0),
      // Past U+10FFFF: U+110000, and leads F5 to FF.
      ([0xF4, 0x90, 0x80, 0x80], 0), ([0xF5, 0x80, 0x80, 0x80], 0), ([0xF8], 0), ([0xFF], 0),
      // A continuation byte with nothing to continue.
      ([0x80], 0), ([0xBF], 0),
      // Cut short, at the end or by a byte that does not continue.
      ([0xC3], 0), ([0xE2, 0x82], 0), ([0xF0, 0x9F, 0x95], 0), ([0xC3, 0x41], 0),
      ([0xE2, 0x41, 0xAC], 0), ([0xE2, 0x82, 0xC3], 0), ([0xF0, 0x9F, 0x95, 0x41], 0),
    ] as [([UInt8], Int)])
  func sequenceLength(bytes: [UInt8], length: Int) {
    #expect(UTF8Validation.sequenceLength(bytes, at: 0) == length)
    #expect((Self.decoded(bytes) != nil) == (length > 0))
    // The same bytes after others, read from a slice that does not start at 0.
    let padded = [0x61, 0xC3, 0xA9] + bytes
    #expect(UTF8Validation.sequenceLength(padded[1...], at: 3) == length)
    // A slice ending before the sequence does cuts it short.
    if length > 1 {
      #expect(UTF8Validation.sequenceLength(padded[1..<(padded.count - 1)], at: 3) == 0)
    }
  }

  @Test(
    "every one- and two-byte sequence, and every three- and four-byte lead with its second byte, as RFC 3629 decodes them"
  )
  func agreesWithDecoding() {
    var disagreements: [[UInt8]] = []
    func check(_ bytes: [UInt8]) {
      let expected = Self.decoded(bytes) != nil ? bytes.count : 0
      let found = UTF8Validation.sequenceLength(bytes, at: 0)
      // A shorter valid sequence at the start (ASCII before a stray byte) is not this one.
      if (found == bytes.count ? found : 0) != expected { disagreements.append(bytes) }
    }
    let continuationsAndOthers: [UInt8] = [
      0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF,
    ]
    for first in UInt8.min...UInt8.max {
      check([first])
      for second in UInt8.min...UInt8.max {
        check([first, second])
        guard first >= 0xE0 else { continue }
        for third in continuationsAndOthers {
          check([first, second, third])
          guard first >= 0xF0 else { continue }
          for fourth in continuationsAndOthers { check([first, second, third, fourth]) }
        }
      }
    }
    #expect(disagreements.isEmpty, "first: \(disagreements.prefix(5))")
  }

  @Test("the first byte that is not UTF-8, wherever it falls against the eight bytes read at once")
  func firstInvalidOffset() {
    let text = Array("BEGIN:VEVENT\r\nSUMMARY:Ünïcødé 🕰 alarm\r\nX:ab\r\n€\r\nEND:VEVENT\r\n".utf8)
    #expect(UTF8Validation.firstInvalidOffset(text) == nil)
    #expect(UTF8Validation.firstInvalidOffset([]) == nil)
    let broken: [[UInt8]] = [
      [0x80], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
      [0xF5], [0xFF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x95],
    ]
    var wrong: [String] = []
    var cases = 0
    for piece in broken {
      // At each character's start: what follows is ASCII or a lead byte, never a byte that
      // continues a cut sequence, so the piece is where the text stops being UTF-8.
      for position in 0...text.count where position == text.count || text[position] & 0xC0 != 0x80 {
        let bytes = Array(text[..<position]) + piece + Array(text[position...])
        cases += 1
        if UTF8Validation.firstInvalidOffset(bytes) != position {
          wrong.append("\(piece) at \(position)")
        }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    #expect(cases > 500)
  }
}
