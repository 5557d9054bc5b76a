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
  /// The text written so far, as UTF-8, the content line being built last.
  private(set) var bytes: [UInt8] = []
  /// Where the content line being built starts in ``bytes``.
  private var lineStart = 0

  /// libical's `MAX_LINE_LEN`: a physical line is at most 75 octets, a continuation's leading
  /// space included.
  private static let lineLimit = 75

  /// Appends text to the current content line.
  mutating func append(_ text: String) {
    // Copying the UTF-8 in one piece beats appending it a byte at a time.
    let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
    if copied == nil { bytes.append(contentsOf: text.utf8) }
  }

  /// Appends text as a TEXT value, escaped (RFC 5545 §3.3.11).
  mutating func append(escaping text: String) {
    append(TextEscaping.escape(text))
  }

  /// Appends a DATE-TIME's `YYYYMMDDTHHMMSS`.
  mutating func append(_ local: LocalDateTime) {
    local.appendICalString(to: &bytes)
  }

  /// Appends a DATE's `YYYYMMDD`.
  mutating func append(_ date: LocalDate) {
    date.appendICalString(to: &bytes)
  }

  /// Appends a DURATION's canonical text.
  mutating func append(_ duration: ICalDuration) {
    duration.appendText(to: &bytes)
  }

  /// Gives up the text written so far, leaving the writer empty.
  mutating func takeBytes() -> [UInt8] {
    lineStart = 0
    defer { bytes = [] }
    return bytes
  }

  /// Appends one ASCII character to the current content line.
  mutating func append(ascii: UInt8) {
    bytes.append(ascii)
  }

  /// Ends the current content line: writes it, folded, with CRLF.
  mutating func endLine() {
    let content = bytes.count - lineStart
    // Most lines are short: they stay where they were built.
    if content + 2 < Self.lineLimit {
      endUnfoldedLine()
      return
    }
    var line = Array(bytes[lineStart...])
    line.append(0x0D)
    line.append(0x0A)
    bytes.removeSubrange(lineStart...)
    let count = line.count
    var start = 0
    while start < count {
      var next = Self.nextLineStart(in: line, after: start)
      // A fold at or inside the line break would split it: the content ends this line.
      if next >= content { next = count }
      if start > 0 {
        bytes.append(0x0D)
        bytes.append(0x0A)
        bytes.append(0x20)
      }
      bytes.append(contentsOf: line[start..<next])
      start = next
    }
    lineStart = bytes.count
  }

  /// Ends the current content line with CRLF without folding it (libical writes BEGIN and END
  /// lines whole).
  mutating func endUnfoldedLine() {
    bytes.append(0x0D)
    bytes.append(0x0A)
    lineStart = bytes.count
  }

  /// Where the physical line that starts at `start` of `line` ends.
  private static func nextLineStart(in line: [UInt8], after start: Int) -> Int {
    let limit = lineLimit
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
