/// Collects iCalendar text as UTF-8 bytes, one content line at a time, folding each line the way
/// libical 3 does, so the text is byte for byte what libical's printer wrote.
///
/// libical folds a line with its CRLF already appended. While 75 octets or more of it are left,
/// a physical line ends after the last `;`, `:` or space among octets 2 to 74; without one,
/// before the last octet among octets 2 to 75 that starts a character (ASCII or a UTF-8 lead
/// byte), so no character is split; failing that, after 74 octets. Each further physical line
/// starts with CRLF and a space. Because libical counts the CRLF, a line of just the wrong
/// length came out ending in `CR CRLF SP LF` (a stray CR in the value) or `CRLF SP CRLF` (an
/// empty continuation line); alarmcal ends such a line with its content and one CRLF instead.
struct ContentLineWriter {
  /// The text written so far, as UTF-8.
  private(set) var bytes: [UInt8] = []
  /// The content line being built, unfolded and without its line break.
  private var line: [UInt8] = []

  /// libical's `MAX_LINE_LEN`: a physical line is at most 75 octets, a continuation's leading
  /// space included.
  private static let lineLimit = 75

  /// Appends text to the current content line.
  mutating func append(_ text: String) {
    line.append(contentsOf: text.utf8)
  }

  /// Appends one ASCII character to the current content line.
  mutating func append(ascii: UInt8) {
    line.append(ascii)
  }

  /// Ends the current content line: writes it, folded, with CRLF.
  mutating func endLine() {
    let content = line.count
    line.append(contentsOf: [0x0D, 0x0A])
    defer { line.removeAll(keepingCapacity: true) }
    let count = line.count
    if count < Self.lineLimit {
      bytes.append(contentsOf: line)
      return
    }
    var start = 0
    while start < count {
      var next = nextLineStart(after: start)
      // A fold at or inside the line break would split it: the content ends this line.
      if next >= content { next = count }
      if start > 0 { bytes.append(contentsOf: [0x0D, 0x0A, 0x20]) }
      bytes.append(contentsOf: line[start..<next])
      start = next
    }
  }

  /// Writes a line without folding it (libical writes BEGIN and END lines whole).
  mutating func writeUnfolded(_ text: String) {
    bytes.append(contentsOf: text.utf8)
    bytes.append(contentsOf: [0x0D, 0x0A])
  }

  /// Where the physical line that starts at `start` of ``line`` ends.
  private func nextLineStart(after start: Int) -> Int {
    let limit = Self.lineLimit
    guard line.count - start >= limit else { return line.count }
    for offset in stride(from: limit - 2, to: 0, by: -1) {
      let byte = line[start + offset]
      if byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: " ") {
        return start + offset + 1
      }
    }
    for offset in stride(from: limit - 1, to: 0, by: -1) {
      // ASCII or a lead byte (11xxxxxx) starts a character; 10xxxxxx continues one.
      if line[start + offset] & 0xC0 != 0x80 { return start + offset }
    }
    return start + limit - 1
  }
}
