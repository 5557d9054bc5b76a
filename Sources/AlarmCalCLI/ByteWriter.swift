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
    moved.update(from: base, count: count)
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

  /// Appends the bytes of a literal: the fixed parts of the output, copied without a lookup.
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

  /// Appends `count` upper-case hex digits of `word`, the first being its four bits from bit
  /// `shift` up.
  mutating func appendHex(_ word: UInt64, from shift: Int, count digits: Int) {
    reserve(digits)
    // The last digit first, each from the bottom of what is left.
    var rest = word >> UInt64(shift + 4 - 4 * digits)
    for index in (count..<count + digits).reversed() {
      let nibble = UInt8(truncatingIfNeeded: rest) & 0xF
      base[index] = nibble < 10 ? 48 &+ nibble : 55 &+ nibble
      rest >>= 4
    }
    count += digits
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
    // A native string lends its UTF-8: scanned once, copied at once when nothing needs an
    // escape (nearly every UID, label and file name).
    let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { utf8 in
      for byte in utf8 where Self.needsEscape(byte) { return false }
      reserve(utf8.count + 2)
      base[count] = UInt8(ascii: "\"")
      count += 1
      append(contentsOf: utf8)
      base[count] = UInt8(ascii: "\"")
      count += 1
      return true
    }
    guard copied != true else { return }
    var escaped: [UInt8] = []
    JSONWriter.appendString(text, to: &escaped)
    append(escaped)
  }

  /// Whether `JSONWriter` may write `byte` otherwise than as itself: a control character, a
  /// quote, a backslash, or the lead byte of U+2028 and U+2029.
  private static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0xE2
  }
}
