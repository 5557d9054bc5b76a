/// Identifiers for alarms that arrive without one.
enum AlarmIdentifier {
  /// A UUID-shaped id derived from `key` alone (two 64-bit FNV-1a hashes, version 8 bits set),
  /// so converting the same file twice gives the same ids.
  static func derived(from key: String) -> String {
    var hasher = Hasher()
    hasher.add(key)
    var bytes: [UInt8] = []
    hasher.appendIdentifier(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The two FNV-1a hashes behind a derived id, fed piece by piece (a firing's id hashes its
  /// parts without joining them into one key first).
  struct Hasher {
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

    /// Appends the id: 8-4-4-4-12 upper-case hex digits.
    func appendIdentifier(to bytes: inout [UInt8]) {
      let high = (self.high & 0xffff_ffff_ffff_0fff) | 0x0000_0000_0000_8000  // version 8
      let low = (self.low & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000  // RFC 9562 variant
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { out in
        var position = 0
        for word in [high, low] {
          var shift = 60
          while shift >= 0 {
            if position == 8 || position == 13 || position == 18 || position == 23 {
              out[position] = UInt8(ascii: "-")
              position += 1
            }
            let nibble = UInt8(truncatingIfNeeded: word >> UInt64(shift)) & 0xF
            out[position] =
              nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
            position += 1
            shift -= 4
          }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(out))
      }
    }
  }
}
