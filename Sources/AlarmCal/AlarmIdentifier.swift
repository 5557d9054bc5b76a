/// Identifiers for alarms that arrive without one.
enum AlarmIdentifier {
  /// A UUID-shaped id derived from `key` alone (two 64-bit FNV-1a hashes, version 8 bits set),
  /// so converting the same file twice gives the same ids.
  static func derived(from key: String) -> String {
    var hasher = Hasher()
    hasher.add(key)
    return String(asciiCount: Hasher.identifierLength, hasher.writeIdentifier)
  }

  /// The two FNV-1a hashes behind a derived id, fed piece by piece (a firing's id hashes its
  /// parts without joining them into one key first).
  struct Hasher: Sendable {
    private var high: UInt64 = 0xcbf2_9ce4_8422_2325
    private var low: UInt64 = 0x6c62_272e_07bb_0142

    mutating func add(_ byte: UInt8) {
      high = (high ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
      low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
      low = low ^ (high >> 29)
    }

    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
      for byte in bytes { add(byte) }
    }

    /// Adds the UTF-8 of `text`.
    mutating func add(_ text: String) {
      let done: Void? = text.utf8.withContiguousStorageIfAvailable { add($0) }
      if done == nil { for byte in text.utf8 { add(byte) } }
    }

    /// 64 bits of what was added, for hash tables.
    var digest: UInt64 { high ^ low }

    /// The length of an id in bytes.
    static let identifierLength = 36

    /// Stores the id, 8-4-4-4-12 upper-case hex digits, at `start`.
    func writeIdentifier(to start: UnsafeMutablePointer<UInt8>) {
      let high = (self.high & 0xffff_ffff_ffff_0fff) | 0x0000_0000_0000_8000  // version 8
      let low = (self.low & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000  // RFC 9562 variant
      // Nibbles from the top: 8 of high, a dash, 4, a dash, 4; a dash, 4 of low, a dash, 12.
      writeHex(high, from: 60, count: 8, to: start)
      start[8] = UInt8(ascii: "-")
      writeHex(high, from: 28, count: 4, to: start + 9)
      start[13] = UInt8(ascii: "-")
      writeHex(high, from: 12, count: 4, to: start + 14)
      start[18] = UInt8(ascii: "-")
      writeHex(low, from: 60, count: 4, to: start + 19)
      start[23] = UInt8(ascii: "-")
      writeHex(low, from: 44, count: 12, to: start + 24)
    }

    /// Stores `count` upper-case hex digits of `word`, the first at bit `shift`, at `start`
    /// (whole bytes here: `shift` is 4 less than a multiple of 8 and `count` even).
    private func writeHex(
      _ word: UInt64, from shift: Int, count: Int, to start: UnsafeMutablePointer<UInt8>
    ) {
      Self.hexPairs.withUnsafeBufferPointer { pairs in
        for pair in 0..<count / 2 {
          let byte = Int(truncatingIfNeeded: word >> UInt64(shift - 4 - 8 * pair)) & 0xFF
          UnsafeMutableRawPointer(start + 2 * pair).storeBytes(of: pairs[byte], as: UInt16.self)
        }
      }
    }

    /// Each byte's two upper-case hex digits, as they lie in memory (little-endian: the first
    /// digit in the low byte).
    private static let hexPairs: [UInt16] = (0..<256).map { byte in
      func digit(_ nibble: Int) -> UInt16 {
        UInt16(nibble < 10 ? 48 + nibble : 55 + nibble)  // "0"..."9", "A"..."F"
      }
      let pair = digit(byte >> 4) | digit(byte & 0xF) << 8
      return UInt16(littleEndian: pair)
    }
  }
}
