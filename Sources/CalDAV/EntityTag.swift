/// Which ETags alarmcal sends back in `If-Match`: only an entity-tag as RFC 7232 §2.3 spells
/// it (`"..."` or `W/"..."`, no control characters), so a write is never made unconditional by
/// an empty or broken header.
public enum EntityTag {
  /// `text` when it is a well-formed entity-tag, else nil.
  public static func usable(_ text: String?) -> String? {
    guard let text else { return nil }
    var body = Substring(text)
    if body.hasPrefix("W/") { body = body.dropFirst(2) }
    guard body.count >= 2, body.first == "\"", body.last == "\"" else { return nil }
    // etagc = %x21 / %x23-7E / obs-text
    let inner = body.dropFirst().dropLast().utf8
    return inner.allSatisfy { $0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80 }
      ? text : nil
  }
}
