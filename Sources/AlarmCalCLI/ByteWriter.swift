import AlarmCal
import ICalendar

/// A growable run of bytes for output made of millions of small pieces (a year of firings as
/// JSON): the one type in alarmcal that writes through a pointer. Every write first makes room
/// for itself, so no write can land outside the storage; an array would check its uniqueness
/// on every append as well.
struct ByteWriter: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// How many bytes it holds.
  private(set) var count = 0

  /// An empty writer with room for `capacity` bytes before it first grows.
  init(capacity: Int) {
    self.capacity = max(capacity, 64)
    base = .allocate(capacity: self.capacity)
    // Every byte of the storage is initialized, so a whole word may be read or stored anywhere
    // inside it.
    base.initialize(repeating: 0, count: self.capacity)
  }

  deinit { base.deallocate() }

  /// The bytes held, as an array.
  var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

  /// Forgets the bytes and keeps the storage.
  mutating func removeAll() { count = 0 }

  /// Makes room for `extra` more bytes.
  private mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(toHold: count + extra) }
  }

  /// Moves the bytes to storage of at least `needed` bytes.
  private mutating func grow(toHold needed: Int) {
    var grown = capacity * 2
    while grown < needed { grown *= 2 }
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
    moved.initialize(from: base, count: count)
    (moved + count).initialize(repeating: 0, count: grown - count)
    base.deallocate()
    base = moved
    capacity = grown
  }

  /// Appends one byte.
  mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  /// Appends bytes.
  mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
  }

  /// Appends a run of bytes.
  mutating func append(_ bytes: ArraySlice<UInt8>) {
    bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
  }

  /// Appends the bytes of a literal: the fixed parts of the output, copied without a lookup.
  @inline(__always)
  mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { append(contentsOf: $0) }
  }

  /// Appends the UTF-8 of `text`.
  mutating func appendUTF8(_ text: String) {
    let copied: Void? = text.utf8.withContiguousStorageIfAvailable { append(contentsOf: $0) }
    guard copied == nil else { return }
    let utf8 = text.utf8
    reserve(utf8.count)
    for byte in utf8 {
      base[count] = byte
      count += 1
    }
  }

  @inline(__always)
  private mutating func append(contentsOf source: UnsafeBufferPointer<UInt8>) {
    reserve(source.count)
    if let start = source.baseAddress { (base + count).update(from: start, count: source.count) }
    count += source.count
  }

  /// Appends `count` spaces (none when `count` is not positive).
  mutating func appendSpaces(_ count: Int) {
    for _ in 0..<max(count, 0) { append(UInt8(ascii: " ")) }
  }

  /// Appends `value` in decimal, with a `-` when negative.
  mutating func appendDecimal(_ value: Int) {
    if value < 0 { append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    reserve(20)  // UInt.max has 20 digits
    let first = count
    repeat {
      base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
      magnitude /= 10
      count += 1
    } while magnitude > 0
    // The digits went in last first.
    var (low, high) = (first, count - 1)
    while low < high {
      (base[low], base[high]) = (base[high], base[low])
      low += 1
      high -= 1
    }
  }

  /// Appends `YYYY-MM-DD` (the year's last four digits).
  mutating func appendDate(_ date: LocalDate) {
    reserve(10)
    let year = date.year % 10_000
    storeTwoDigits(year / 100, at: count)
    storeTwoDigits(year % 100, at: count + 2)
    base[count + 4] = UInt8(ascii: "-")
    storeTwoDigits(date.month, at: count + 5)
    base[count + 7] = UInt8(ascii: "-")
    storeTwoDigits(date.day, at: count + 8)
    count += 10
  }

  /// Appends `THH:MM:SS` for `seconds` (0 ..< 86,400) into a day.
  mutating func appendTimeOfDay(_ seconds: Int) {
    reserve(9)
    base[count] = UInt8(ascii: "T")
    storeTwoDigits(seconds / 3600, at: count + 1)
    base[count + 3] = UInt8(ascii: ":")
    storeTwoDigits(seconds / 60 % 60, at: count + 4)
    base[count + 6] = UInt8(ascii: ":")
    storeTwoDigits(seconds % 60, at: count + 7)
    count += 9
  }

  /// Stores `value` (0 ... 99) as two digits at `index`, inside room already reserved.
  private func storeTwoDigits(_ value: Int, at index: Int) {
    base[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
    base[index + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
  }

  /// Appends `value` (0 ... 99) as two decimal digits.
  mutating func appendTwoDigits(_ value: Int) {
    reserve(2)
    storeTwoDigits(value, at: count)
    count += 2
  }

  /// Appends `text` as a JSON string in quotes (RFC 8259), escaped as
  /// `JSONWriter.appendString(_:to:)` escapes it.
  mutating func appendJSONString(_ text: String) {
    // A native string lends its UTF-8: copied at once, then looked over a word at a time where
    // it landed, and taken back only when a byte needs an escape (nearly no UID, label or file
    // name does).
    let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { utf8 in
      let start = count
      reserve(utf8.count + 2 + 8)
      base[count] = UInt8(ascii: "\"")
      count += 1
      append(contentsOf: utf8)
      guard !anyNeedsEscape(from: start + 1, to: count) else {
        count = start
        return false
      }
      base[count] = UInt8(ascii: "\"")
      count += 1
      return true
    }
    guard copied != true else { return }
    var escaped: [UInt8] = []
    JSONWriter.appendString(text, to: &escaped)
    append(escaped)
  }

  /// Whether a byte in `start ..< end` may be written by `JSONWriter` otherwise than as itself:
  /// a control character, a quote, a backslash, or the lead byte of U+2028 and U+2029. Reads
  /// whole words, so the storage must hold 8 bytes past `end`.
  private func anyNeedsEscape(from start: Int, to end: Int) -> Bool {
    var found: UInt64 = 0
    var index = start
    while index < end {
      var word = loadWord(at: index)
      let left = end - index
      if left < 8 {
        // The bytes past the end count as `@`, which needs no escape.
        let kept: UInt64 = (1 << UInt64(8 * left)) - 1
        word = word & kept | 0x4040_4040_4040_4040 & ~kept
      }
      found |= Self.escapeBits(word)
      index += 8
    }
    return found != 0
  }

  /// Not zero when a byte of `word` is below 0x20, 0x22, 0x5C or 0xE2 (the bit tricks are
  /// exact about whether any byte is; which bit is set does not matter here).
  private static func escapeBits(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func zeroByte(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
    let control = (word &- ones &* 0x20) & ~word & highs
    return control | zeroByte(word ^ ones &* 0x22) | zeroByte(word ^ ones &* 0x5C)
      | zeroByte(word ^ ones &* 0xE2)
  }

  /// The 8 bytes from `index`, first byte lowest.
  private func loadWord(at index: Int) -> UInt64 {
    precondition(index >= 0 && index + 8 <= capacity)
    return UInt64(
      littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
  }

  /// Appends the first `bytes` (0 ... 8) bytes of `word`, lowest first: a whole word is stored
  /// and the count moves on by `bytes`.
  mutating func appendWord(_ word: UInt64, count bytes: Int) {
    precondition(bytes >= 0 && bytes <= 8)
    reserve(8)
    UnsafeMutableRawPointer(base + count).storeBytes(of: word.littleEndian, as: UInt64.self)
    count += bytes
  }

  /// Appends `8-4-4-4-12` upper-case hex digits: the 16 of `high`, then the 16 of `low`.
  mutating func appendUUID(_ high: UInt64, _ low: UInt64) {
    let a = Self.hexDigits(UInt32(truncatingIfNeeded: high >> 32))
    let b = Self.hexDigits(UInt32(truncatingIfNeeded: high))
    let c = Self.hexDigits(UInt32(truncatingIfNeeded: low >> 32))
    let d = Self.hexDigits(UInt32(truncatingIfNeeded: low))
    let dash = UInt64(UInt8(ascii: "-"))
    appendWord(a, count: 8)
    appendWord(dash | (b & 0xFFFF_FFFF) << 8 | dash << 40 | (b >> 32) << 48, count: 8)
    appendWord(b >> 48 | dash << 16 | (c & 0xFFFF_FFFF) << 24 | dash << 56, count: 8)
    appendWord(c >> 32 | d << 32, count: 8)
    appendWord(d >> 32, count: 4)
  }

  /// The 8 upper-case hex digits of `value` as a word, the first digit its lowest byte.
  static func hexDigits(_ value: UInt32) -> UInt64 {
    // Each nibble spread into a byte of its own, the lowest nibble in the lowest byte.
    var spread = UInt64(value)
    spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
    spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
    spread = (spread | spread << 4) & 0x0F0F_0F0F_0F0F_0F0F
    // 1 in each byte whose nibble is 10 or more: those skip from `9` to `A`.
    let letters = (spread &+ 0x0606_0606_0606_0606) >> 4 & 0x0101_0101_0101_0101
    return (spread &+ 0x3030_3030_3030_3030 &+ letters &* 7).byteSwapped
  }

  /// `value` (0 ... 99) as two digits in the two lowest bytes, as ``appendTwoDigits(_:)``
  /// writes it.
  static func twoDigits(_ value: Int) -> UInt64 {
    UInt64(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
      | UInt64(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)) << 8
  }

  /// `YYYY-MM-` of `date` as a word, as ``appendDate(_:)`` writes it.
  static func yearAndMonth(_ date: LocalDate) -> UInt64 {
    let year = date.year % 10_000
    let dash = UInt64(UInt8(ascii: "-"))
    return twoDigits(year / 100) | twoDigits(year % 100) << 16 | dash << 32
      | twoDigits(date.month) << 40 | dash << 56
  }

  /// `HH:MM:SS` for `seconds` (0 ..< 86,400) into a day as a word, as
  /// ``appendTimeOfDay(_:)`` writes it after its `T`.
  static func timeOfDay(_ seconds: Int) -> UInt64 {
    let colon = UInt64(UInt8(ascii: ":"))
    return twoDigits(seconds / 3600) | colon << 16 | twoDigits(seconds / 60 % 60) << 24
      | colon << 40 | twoDigits(seconds % 60) << 48
  }

  /// Writes the bytes to `descriptor`; the error text on failure.
  func write(to descriptor: Int32) -> String? {
    AtomicFile.writeAll(UnsafeBufferPointer(start: base, count: count), to: descriptor)
  }
}
