import Foundation
import Testing

@testable import AlarmCalCLI

/// Reading inputs: the UTF-8 check `upcoming` makes without copying the file into a String.
@Suite struct InputFileTests {
  @Test("the word-at-a-time UTF-8 check finds exactly what String's validation finds, and where")
  func utf8Check() {
    // Valid text with multi-byte characters at every alignment, then single bytes broken in
    // every way UTF-8 can be broken (stray continuation, overlong, surrogate, too large,
    // truncated), at every position.
    let text = Array("BEGIN:VEVENT\r\nSUMMARY:Ünïcødé 🕰 alarm\r\nX:ab\r\n€\r\nEND:VEVENT\r\n".utf8)
    let broken: [[UInt8]] = [
      [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
      [0xF4, 0x90, 0x80, 0x80], [0xF5], [0xFF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x95],
    ]
    var cases = [text, [], Array(text.prefix(7))]
    for piece in broken {
      for position in 0...text.count {
        cases.append(Array(text[..<position]) + piece + Array(text[position...]))
      }
    }
    var disagreements = 0
    for bytes in cases {
      let expected: Int? =
        switch InputFile.utf8Text(bytes) {
        case .success: nil
        case .failure(let failure): failure.line
        }
      if InputFile.checkUTF8(bytes)?.line != expected { disagreements += 1 }
    }
    #expect(disagreements == 0)
    #expect(cases.count > 700)
  }
}
