/// Identifiers for alarms that arrive without one.
enum AlarmIdentifier {
  /// A UUID-shaped id derived from `key` alone (two 64-bit FNV-1a hashes, version 8 bits set),
  /// so converting the same file twice gives the same ids.
  static func derived(from key: String) -> String {
    derived(fromBytes: key.utf8)
  }

  /// ``derived(from:)`` of the text these UTF-8 bytes spell.
  static func derived(fromBytes key: some Sequence<UInt8>) -> String {
    var high: UInt64 = 0xcbf2_9ce4_8422_2325
    var low: UInt64 = 0x6c62_272e_07bb_0142
    for byte in key {
      high = (high ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
      low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
      low = low ^ (high >> 29)
    }
    high = (high & 0xffff_ffff_ffff_0fff) | 0x0000_0000_0000_8000  // version 8
    low = (low & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000  // RFC 9562 variant
    // 8-4-4-4-12 upper-case hex digits, written straight into bytes (this runs per firing).
    let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
    var bytes = [UInt8](repeating: UInt8(ascii: "-"), count: 36)
    var position = 0
    for (word, shiftBase) in [(high, 60), (low, 60)] {
      var shift = shiftBase
      while shift >= 0 {
        if position == 8 || position == 13 || position == 18 || position == 23 { position += 1 }
        bytes[position] = digits[Int((word >> UInt64(shift)) & 0xF)]
        position += 1
        shift -= 4
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
