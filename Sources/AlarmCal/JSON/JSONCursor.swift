/// Writes JSON text through a pointer into room reserved beforehand with
/// ``ByteBuffer/appendJSON(maximumCount:_:)``: for output of millions of objects of one fixed
/// shape, each piece a literal (keys with their punctuation), a string to escape, an integer or a
/// few ASCII characters.
///
/// The caller is responsible for reserving enough room (``maximumLength(of:)`` bounds a string)
/// and for writing well-formed JSON; tests pin every shape written this way.
public struct JSONCursor {
  @usableFromInline var position: UnsafeMutablePointer<UInt8>

  @usableFromInline init(_ position: UnsafeMutablePointer<UInt8>) {
    self.position = position
  }

  /// The most bytes ``string(_:)`` stores for `text`: every byte as `\u00XX`, and two quotes.
  public static func maximumLength(of text: String) -> Int { 6 * text.utf8.count + 2 }

  /// Stores a literal as is. Inlined, a literal's length is a constant and the copy a few moves.
  @inlinable @inline(__always) public mutating func literal(_ text: StaticString) {
    guard text.hasPointerRepresentation else {
      return text.withUTF8Buffer { bytes in
        for byte in bytes {
          position.pointee = byte
          position += 1
        }
      }
    }
    position.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    position += text.utf8CodeUnitCount
  }

  /// Stores exactly `count` ASCII characters that `write` stores through the pointer given.
  @inlinable public mutating func ascii(count: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Void)
  {
    write(position)
    position += count
  }

  /// Stores an integer in decimal.
  public mutating func integer(_ value: Int) {
    if value >= 0, value < 10 {
      position.pointee = UInt8(ascii: "0") + UInt8(value)
      position += 1
    } else {
      var text = String(value)
      text.withUTF8 { copy($0) }
    }
  }

  /// Stores `text` as a JSON string in quotes (RFC 8259): it escapes `"`, `\`, control
  /// characters (`\n`, `\r`, `\t`, `\b`, `\f`, else `\u00XX` in lower-case hex) and U+2028 and
  /// U+2029, which end lines in JavaScript; everything else, non-ASCII included, is copied as is.
  public mutating func string(_ text: String) {
    // Native strings lend their UTF-8 as they are; a copy (a retain, contended when two threads
    // format firings of the same series) only for the rare bridged or lazily decoded string.
    let lent: Void? = text.utf8.withContiguousStorageIfAvailable { escaped($0) }
    if lent == nil {
      var copy = text
      copy.withUTF8 { escaped($0) }
    }
  }

  private mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    position.pointee = UInt8(ascii: "\"")
    position += 1
    if Self.needsNoEscape(utf8) {
      // Nearly every UID, label and file name: checked a word at a time, copied at once.
      copy(utf8)
      position.pointee = UInt8(ascii: "\"")
      position += 1
      return
    }
    var runStart = 0
    var index = 0
    while index < utf8.count {
      // Eight bytes at a time while none of them might need an escape.
      if index + 8 <= utf8.count, let base = utf8.baseAddress,
        !mightNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
      {
        index += 8
        continue
      }
      let byte = utf8[index]
      guard
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xE2
      else {
        index += 1
        continue
      }
      var length = 1
      let escape: StaticString?  // nil: a control character written as \u00XX
      switch byte {
      case UInt8(ascii: "\""): escape = "\\\""
      case UInt8(ascii: "\\"): escape = "\\\\"
      case UInt8(ascii: "\n"): escape = "\\n"
      case UInt8(ascii: "\r"): escape = "\\r"
      case UInt8(ascii: "\t"): escape = "\\t"
      case 0x08: escape = "\\b"
      case 0x0C: escape = "\\f"
      case 0xE2:
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
        guard index + 2 < utf8.count, utf8[index + 1] == 0x80, utf8[index + 2] & 0xFE == 0xA8
        else {
          index += 1
          continue
        }
        escape = utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
        length = 3
      default:
        escape = nil
      }
      copy(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      if let escape {
        literal(escape)
      } else {
        literal("\\u00")
        position[0] = hexDigit(byte >> 4)
        position[1] = hexDigit(byte & 0x0F)
        position += 2
      }
      index += length
      runStart = index
    }
    copy(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
    position.pointee = UInt8(ascii: "\"")
    position += 1
  }

  /// Whether no byte of `utf8` needs an escape (exact when it says yes): eight bytes at a time,
  /// the last word overlapping the one before it, a short text padded with spaces.
  private static func needsNoEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = utf8.baseAddress else { return true }
    let count = utf8.count
    guard count >= 8 else {
      var word: UInt64 = 0x2020_2020_2020_2020
      withUnsafeMutableBytes(of: &word) { $0.copyMemory(from: UnsafeRawBufferPointer(utf8)) }
      return !mightNeedEscape(word)
    }
    let raw = UnsafeRawPointer(base)
    var offset = 0
    while offset + 8 < count {
      if mightNeedEscape(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) {
        return false
      }
      offset += 8
    }
    return !mightNeedEscape(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
  }

  private mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let start = bytes.baseAddress else { return }
    position.update(from: start, count: bytes.count)
    position += bytes.count
  }
}

/// A lower-case hex digit.
private func hexDigit(_ nibble: UInt8) -> UInt8 {
  nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
}

/// Whether any of eight bytes is a control character, `"`, `\` or not ASCII (U+2028 and U+2029
/// start with 0xE2): a check on the whole word at once, exact when it says "none".
@inline(__always)
private func mightNeedEscape(_ word: UInt64) -> Bool {
  let ones: UInt64 = 0x0101_0101_0101_0101
  let highBits: UInt64 = 0x8080_8080_8080_8080
  func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highBits != 0 }
  let belowSpace = (word &- 0x20 &* ones) & ~word & highBits != 0
  return belowSpace || word & highBits != 0 || hasZeroByte(word ^ (0x22 &* ones))
    || hasZeroByte(word ^ (0x5C &* ones))
}

extension ByteBuffer {
  /// Appends JSON text written through a cursor, with room for `maximumCount` bytes.
  @inlinable public func appendJSON(maximumCount: Int, _ write: (inout JSONCursor) -> Void) {
    reserve(maximumCount)
    var cursor = JSONCursor(base + used)
    write(&cursor)
    used = cursor.position - base
  }
}
