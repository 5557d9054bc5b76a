import AlarmCal

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
    guard count + extra > capacity else { return }
    var grown = capacity * 2
    while grown < count + extra { grown *= 2 }
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
    reserve(bytes.count)
    bytes.withUnsafeBufferPointer { source in
      if let start = source.baseAddress { (base + count).update(from: start, count: source.count) }
    }
    count += bytes.count
  }

  /// Appends the UTF-8 of `text`.
  mutating func append(_ text: String) {
    let utf8 = text.utf8
    reserve(utf8.count)
    for byte in utf8 {
      base[count] = byte
      count += 1
    }
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
    base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
    base[count + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
    count += 2
  }

  /// Appends `text` as a JSON string in quotes (RFC 8259), escaped as
  /// `JSONWriter.appendString(_:to:)` escapes it.
  mutating func appendJSONString(_ text: String) {
    // A native string lends its UTF-8: scanned once, copied at once when nothing needs an
    // escape (nearly every UID, label and file name).
    let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { utf8 in
      for byte in utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0xE2 {
        return false
      }
      reserve(utf8.count + 2)
      base[count] = UInt8(ascii: "\"")
      if let source = utf8.baseAddress {
        (base + count + 1).update(from: source, count: utf8.count)
      }
      base[count + 1 + utf8.count] = UInt8(ascii: "\"")
      count += utf8.count + 2
      return true
    }
    guard copied != true else { return }
    var escaped: [UInt8] = []
    JSONWriter.appendString(text, to: &escaped)
    append(escaped)
  }
}
