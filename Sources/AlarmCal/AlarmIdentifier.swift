/// Identifiers for alarms that arrive without one.
enum AlarmIdentifier {
  /// A UUID-shaped id derived from `key` alone (two 64-bit FNV-1a hashes, version 8 bits set),
  /// so converting the same file twice gives the same ids.
  static func derived(from key: String) -> String {
    var high: UInt64 = 0xcbf2_9ce4_8422_2325
    var low: UInt64 = 0x6c62_272e_07bb_0142
    for byte in key.utf8 {
      high = (high ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
      low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
      low = low ^ (high >> 29)
    }
    high = (high & 0xffff_ffff_ffff_0fff) | 0x0000_0000_0000_8000  // version 8
    low = (low & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000  // RFC 9562 variant
    let hex = hexDigits(high, 16) + hexDigits(low, 16)
    let chars = Array(hex)
    let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }
    return groups.joined(separator: "-").uppercased()
  }

  private static func hexDigits(_ value: UInt64, _ width: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: width - text.count) + text
  }
}
