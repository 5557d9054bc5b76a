/// UTC-OFFSET values, RFC 5545 §3.3.14: `+HHMM` or `+HHMMSS`.
public enum UTCOffsetText {
  /// Writes an offset in seconds east of UTC; seconds appear only when not zero.
  public static func format(_ seconds: Int) -> String {
    let sign = seconds < 0 ? "-" : "+"
    let magnitude = abs(seconds)
    let base = "\(sign)\(pad(magnitude / 3600, 2))\(pad(magnitude / 60 % 60, 2))"
    return magnitude % 60 == 0 ? base : base + pad(magnitude % 60, 2)
  }

  /// Reads `+HHMM` or `+HHMMSS`; nil when malformed (`-0000` is refused, as the RFC asks).
  public static func parse(_ text: String) -> Int? {
    let bytes = Array(text.utf8)
    guard bytes.count == 5 || bytes.count == 7, bytes[0] == 0x2B || bytes[0] == 0x2D,
      bytes.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
    else { return nil }
    let digits = bytes.dropFirst().map { Int($0 - 0x30) }
    let hours = digits[0] * 10 + digits[1]
    let minutes = digits[2] * 10 + digits[3]
    let secs = digits.count == 6 ? digits[4] * 10 + digits[5] : 0
    guard minutes < 60, secs < 60 else { return nil }
    let total = hours * 3600 + minutes * 60 + secs
    if bytes[0] == 0x2D && total == 0 { return nil }
    return bytes[0] == 0x2D ? -total : total
  }
}
