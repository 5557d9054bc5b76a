/// What well-formed UTF-8 is (RFC 3629 §4): a sequence of one to four bytes for one scalar
/// value, with no overlong forms, no surrogates (U+D800–U+DFFF) and nothing above U+10FFFF.
/// The one home of that rule: the content-line lexer, the JSON parser and the command line's
/// input check all ask here.
public enum UTF8Validation {
  /// The length of the well-formed sequence that starts at `index` of `bytes` (1 for ASCII),
  /// or 0 when none does there: a byte that cannot begin a sequence, a sequence cut short, or
  /// one whose bytes RFC 3629 rules out.
  @inlinable
  public static func sequenceLength<Bytes: RandomAccessCollection<UInt8>>(
    _ bytes: Bytes, at index: Int
  ) -> Int where Bytes.Index == Int {
    let lead = bytes[index]
    if lead < 0x80 { return 1 }
    // How many continuation bytes follow, and the range of the first: narrower after E0
    // (overlong), ED (surrogates), F0 (overlong) and F4 (above U+10FFFF).
    let continuations: Int
    let second: ClosedRange<UInt8>
    switch lead {
    case 0xC2...0xDF: (continuations, second) = (1, 0x80...0xBF)
    case 0xE0: (continuations, second) = (2, 0xA0...0xBF)
    case 0xE1...0xEC, 0xEE...0xEF: (continuations, second) = (2, 0x80...0xBF)
    case 0xED: (continuations, second) = (2, 0x80...0x9F)
    case 0xF0: (continuations, second) = (3, 0x90...0xBF)
    case 0xF1...0xF3: (continuations, second) = (3, 0x80...0xBF)
    case 0xF4: (continuations, second) = (3, 0x80...0x8F)
    default: return 0
    }
    guard bytes.endIndex - index > continuations, second.contains(bytes[index + 1]) else {
      return 0
    }
    for next in index + 2..<index + 1 + continuations where bytes[next] & 0xC0 != 0x80 {
      return 0
    }
    return continuations + 1
  }

  /// Whether `byte` can begin a well-formed sequence: ASCII, or C2–F4 (C0 and C1 begin only
  /// overlong forms, F5–FF only values above U+10FFFF, 80–BF only continue one).
  public static func canBegin(_ byte: UInt8) -> Bool {
    byte < 0x80 || (0xC2...0xF4).contains(byte)
  }

  /// The offset of the first byte of `bytes` that does not begin a well-formed sequence
  /// (the bytes before it are well-formed UTF-8), or nil when all of them are UTF-8.
  public static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { firstInvalidOffset($0) }
  }

  /// The offset of the first byte of `buffer` that does not begin a well-formed sequence, or
  /// nil. ASCII is skipped eight bytes at a time.
  static func firstInvalidOffset(_ buffer: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = buffer.baseAddress else { return nil }
    let count = buffer.count
    var index = 0
    while index < count {
      if index + 8 <= count,
        UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index += 8
        continue
      }
      let length = sequenceLength(buffer, at: index)
      if length == 0 { return index }
      index += length
    }
    return nil
  }
}
