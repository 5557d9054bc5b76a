import ICalendar

/// Identifiers derived from content: for alarms that arrive without one, and for firings.
enum AlarmIdentifier {
  /// A UUID-shaped id derived from `key` alone, so converting the same file twice gives the
  /// same ids.
  static func derived(from key: String) -> String {
    var hasher = Hasher()
    hasher.add(key)
    let (high, low) = hasher.uuidWords
    return uuidText(high, low)
  }

  /// The RFC 9074 UID of the snooze alarm that rings at `until` for the alarm whose UID is
  /// `alarmUID`, unless a client gave it another: `snooze` writes it and an export derives it
  /// the same way, so a snooze keeps its firing id through an alarm list and back.
  static func snoozeUID(ofAlarm alarmUID: String, until: Instant) -> String {
    derived(from: "snooze\u{0}\(alarmUID)\u{0}\(until)")
  }

  /// The RFC 9074 UID of the VALARM exported for the alarm `id`, unless the alarm keeps one
  /// it was imported with: derived from the id, so every export of the alarm gives it the same
  /// UID and a snooze written into one export names the alarm in the next.
  static func alarmUID(forAlarm id: String) -> String {
    // derived(from: "VALARM\u{0}" + id), without making that string: the hash is of the bytes.
    var hasher = Hasher()
    hasher.add("VALARM")
    hasher.add(0)
    hasher.add(id)
    let (high, low) = hasher.uuidWords
    return uuidText(high, low)
  }

  /// Two 64-bit FNV-1a hashes, the second folding in the first, fed piece by piece (a firing's
  /// id hashes its parts without joining them into one key first).
  struct Hasher: Sendable {
    private var high: UInt64 = 0xcbf2_9ce4_8422_2325
    private var low: UInt64 = 0x6c62_272e_07bb_0142

    mutating func add(_ byte: UInt8) {
      high = (high ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
      low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
      low = low ^ (high >> 29)
    }

    /// Adds the UTF-8 of `text`.
    mutating func add(_ text: String) {
      let added: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
        for byte in utf8 { add(byte) }
      }
      if added == nil {
        for byte in text.utf8 { add(byte) }
      }
    }

    /// Adds the bytes of `value`'s decimal text (`String(value)`) without making it.
    mutating func addDecimal(_ value: Int) {
      if value < 0 { add(UInt8(ascii: "-")) }
      let magnitude = value.magnitude
      var scale: UInt = 1
      while scale <= magnitude / 10 { scale *= 10 }
      repeat {
        add(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / scale % 10))
        scale /= 10
      } while scale > 0
    }

    /// Adds the bytes of `instant`'s description (`YYYY-MM-DDTHH:MM:SSZ`) without making it.
    mutating func add(_ instant: Instant) {
      let utc = instant.utc
      let year = utc.date.year % 10_000
      addTwoDigits(year / 100)
      addTwoDigits(year % 100)
      add(UInt8(ascii: "-"))
      addTwoDigits(utc.date.month)
      add(UInt8(ascii: "-"))
      addTwoDigits(utc.date.day)
      add(UInt8(ascii: "T"))
      addTwoDigits(utc.time.hour)
      add(UInt8(ascii: ":"))
      addTwoDigits(utc.time.minute)
      add(UInt8(ascii: ":"))
      addTwoDigits(utc.time.second)
      add(UInt8(ascii: "Z"))
    }

    private mutating func addTwoDigits(_ value: Int) {
      add(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
      add(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
    }

    /// 64 bits of what was added, for hash tables.
    var digest: UInt64 { high ^ low }

    /// The hash as a version 8 UUID's two words (RFC 9562: version 8, variant bits 10).
    var uuidWords: (high: UInt64, low: UInt64) {
      (
        (high & 0xffff_ffff_ffff_0fff) | 0x0000_0000_0000_8000,
        (low & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000
      )
    }
  }

  /// `8-4-4-4-12` upper-case hex digits: 8 of `high`'s top nibbles, a dash, its next 4, a dash,
  /// the 4 after those (skipping the 4 between), a dash, `low`'s top 4, a dash, its next 12.
  static func uuidText(_ high: UInt64, _ low: UInt64) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(36)
    appendUUID(high, low, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``uuidText(_:_:)``'s 36 bytes.
  static func appendUUID(_ high: UInt64, _ low: UInt64, to bytes: inout [UInt8]) {
    appendHex(high, from: 60, count: 8, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendHex(high, from: 28, count: 4, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendHex(high, from: 12, count: 4, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendHex(low, from: 60, count: 4, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendHex(low, from: 44, count: 12, to: &bytes)
  }

  /// Appends `count` upper-case hex digits of `word`, the first at bit `shift`.
  static func appendHex(_ word: UInt64, from shift: Int, count: Int, to bytes: inout [UInt8]) {
    for index in 0..<count {
      let nibble = Int(truncatingIfNeeded: word >> UInt64(shift - 4 * index)) & 0xF
      bytes.append(UInt8(nibble < 10 ? 48 + nibble : 55 + nibble))
    }
  }
}
