import ICalendar

/// Reading JSON's scalars: literals, numbers, strings with their escapes, and the UTF-8
/// they are written in (RFC 8259 §3, §6, §7, §8.1).
extension JSONReader {
  /// Reads `true`, `false` or `null`; any other word is reported whole.
  mutating func parseLiteral() throws(JSONSyntaxError) -> JSONValue {
    let start = index
    while index < bytes.count, isWordByte(bytes[index]) {
      index += 1
    }
    let word = text(start..<min(index, start + 32))
    switch word {
    case "true": return .bool(true)
    case "false": return .bool(false)
    case "null": return .null
    default:
      let shown = index - start > 32 ? word + "..." : word
      throw failure("invalid literal '\(shown)'", at: start)
    }
  }

  private func isWordByte(_ byte: UInt8) -> Bool {
    switch byte {
    case Byte.lowerA...Byte.lowerZ, Byte.upperA...Byte.upperZ, Byte.zero...Byte.nine,
      Byte.underscore:
      true
    default: false
    }
  }

  /// Reads `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` and returns it as written.
  mutating func parseNumber() throws(JSONSyntaxError) -> String {
    let start = index
    if bytes[index] == Byte.minus {
      index += 1
    }
    guard isDigit(at: index) else { throw expected("a digit after '-'") }
    if bytes[index] == Byte.zero {
      index += 1
      if isDigit(at: index) {
        throw failure("leading zeros are not allowed in numbers", at: start)
      }
    } else {
      skipDigits()
    }
    if peek(Byte.period) {
      index += 1
      guard isDigit(at: index) else { throw expected("a digit after the decimal point") }
      skipDigits()
    }
    if peek(Byte.lowerE) || peek(Byte.upperE) {
      index += 1
      if peek(Byte.plus) || peek(Byte.minus) {
        index += 1
      }
      guard isDigit(at: index) else { throw expected("a digit in the exponent") }
      skipDigits()
    }
    return text(start..<index)
  }

  @inline(__always)
  private func isDigit(at position: Int) -> Bool {
    position < bytes.count && (Byte.zero...Byte.nine).contains(bytes[position])
  }

  @inline(__always)
  private mutating func skipDigits() {
    while isDigit(at: index) {
      index += 1
    }
  }

  /// Reads a string starting at its opening quote and returns it with escapes decoded.
  mutating func parseString() throws(JSONSyntaxError) -> String {
    let openingQuote = index
    index += 1
    var runStart = index
    // Strings without escapes become a String straight from the buffer; the others are decoded
    // into `scratch`, a run of plain bytes at a time.
    var hasEscapes = false
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == Byte.quote || byte == Byte.backslash else {
        try advanceOverStringByte(byte)
        continue
      }
      if byte == Byte.quote && !hasEscapes {
        let string = text(runStart..<index)
        index += 1
        return string
      }
      if !hasEscapes {
        hasEscapes = true
        scratch.removeAll(keepingCapacity: true)
      }
      scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
      if byte == Byte.quote {
        index += 1
        return String(decoding: scratch, as: UTF8.self)
      }
      try decodeEscape(openingQuote: openingQuote)
      runStart = index
    }
    throw failure("unterminated string", at: openingQuote)
  }

  /// Steps over one unescaped character inside a string, checking it is allowed there.
  @inline(__always)
  private mutating func advanceOverStringByte(_ byte: UInt8) throws(JSONSyntaxError) {
    if byte < Byte.space {
      throw failure("unescaped control character \(scalarName(UInt32(byte))) in a string")
    }
    index += byte < 0x80 ? 1 : try utf8SequenceLength(at: index)
  }

  /// Decodes the escape at `index` (a backslash) into `scratch`.
  private mutating func decodeEscape(openingQuote: Int) throws(JSONSyntaxError) {
    let backslash = index
    index += 1
    guard index < bytes.count else { throw failure("unterminated string", at: openingQuote) }
    let replacement: UInt8
    switch bytes[index] {
    case Byte.quote: replacement = Byte.quote
    case Byte.backslash: replacement = Byte.backslash
    case Byte.slash: replacement = Byte.slash
    case Byte.lowerB: replacement = 0x08
    case Byte.lowerF: replacement = 0x0C
    case Byte.lowerN: replacement = Byte.newline
    case Byte.lowerR: replacement = Byte.carriageReturn
    case Byte.lowerT: replacement = Byte.tab
    case Byte.lowerU:
      index = backslash
      appendUTF8(try decodeUnicodeEscape())
      return
    default:
      let byte = bytes[index]
      if byte > Byte.space && byte < 0x7F {
        throw failure(
          "invalid escape sequence '\\\(Character(Unicode.Scalar(byte)))'", at: backslash)
      }
      throw failure(
        "invalid escape sequence: '\\' followed by \(try describeCharacter(at: index))",
        at: backslash)
    }
    index += 1
    scratch.append(replacement)
  }

  /// Decodes `\uXXXX` at `index`, or a surrogate pair `\uXXXX\uXXXX`, into a scalar.
  private mutating func decodeUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
    let first = index
    let unit = try readHexEscape()
    switch unit {
    case 0xD800...0xDBFF:
      let second = index
      if peek(Byte.backslash), index + 1 < bytes.count, bytes[index + 1] == Byte.lowerU {
        let low = try readHexEscape()
        if (0xDC00...0xDFFF).contains(low) {
          let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
          if let scalar = Unicode.Scalar(value) { return scalar }
        }
        index = second
      }
      throw failure("lone surrogate '\\u\(hex(unit, width: 4))' in a string", at: first)
    case 0xDC00...0xDFFF:
      throw failure("lone surrogate '\\u\(hex(unit, width: 4))' in a string", at: first)
    default:
      guard let scalar = Unicode.Scalar(unit) else {
        throw failure("lone surrogate '\\u\(hex(unit, width: 4))' in a string", at: first)
      }
      return scalar
    }
  }

  /// Reads `\u` and four hex digits at `index`.
  private mutating func readHexEscape() throws(JSONSyntaxError) -> UInt32 {
    let backslash = index
    index += 2
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard index < bytes.count, let digit = hexDigitValue(bytes[index]) else {
        throw failure("invalid \\u escape; expected four hex digits", at: backslash)
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  private func hexDigitValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case Byte.zero...Byte.nine: UInt32(byte - Byte.zero)
    case Byte.lowerA...Byte.lowerF: UInt32(byte - Byte.lowerA + 10)
    case Byte.upperA...Byte.upperF: UInt32(byte - Byte.upperA + 10)
    default: nil
    }
  }

  private mutating func appendUTF8(_ scalar: Unicode.Scalar) {
    let value = scalar.value
    switch value {
    case 0..<0x80:
      scratch.append(UInt8(value))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | value >> 6))
      scratch.append(UInt8(0x80 | value & 0x3F))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | value >> 12))
      scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | value & 0x3F))
    default:
      scratch.append(UInt8(0xF0 | value >> 18))
      scratch.append(UInt8(0x80 | value >> 12 & 0x3F))
      scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | value & 0x3F))
    }
  }

  // MARK: UTF-8

  /// The length of the well-formed UTF-8 sequence at `position` (whose first byte is not ASCII;
  /// ``UTF8Validation``), or an error naming the byte that begins none.
  func utf8SequenceLength(at position: Int) throws(JSONSyntaxError) -> Int {
    let length = UTF8Validation.sequenceLength(bytes, at: position)
    if length > 0 { return length }
    let lead = bytes[position]
    guard UTF8Validation.canBegin(lead) else {
      throw failure("invalid UTF-8 byte 0x\(hex(UInt32(lead), width: 2))", at: position)
    }
    throw invalidSequence(at: position)
  }

  private func invalidSequence(at position: Int) -> JSONSyntaxError {
    failure(
      "invalid UTF-8 sequence starting with byte 0x\(hex(UInt32(bytes[position]), width: 2))",
      at: position)
  }
}
