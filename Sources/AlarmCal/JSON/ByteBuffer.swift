/// A growable run of bytes written through a pointer, for output made of millions of small
/// pieces: an array's `append` checks uniqueness as well as capacity on every call.
///
/// A class, so the writers that share one buffer never copy it. Its three fields are read and
/// written only by its own short methods (a closure given to ``withBytes(_:)`` or
/// `appendJSON(maximumCount:_:)` must not touch the buffer), so the runtime's exclusivity check,
/// a third of W3's instructions when it was on, is turned off for them.
public final class ByteBuffer {
  @exclusivity(unchecked) @usableFromInline var base: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) @usableFromInline var capacity: Int
  @exclusivity(unchecked) @usableFromInline var used = 0

  /// An empty buffer with room for `capacity` bytes before it first grows.
  public init(capacity: Int = 1 << 12) {
    self.capacity = max(capacity, 16)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  /// How many bytes it holds.
  public var count: Int { used }

  /// Whether it holds no bytes.
  public var isEmpty: Bool { used == 0 }

  /// Calls `body` with the bytes held (valid only during the call).
  public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
    -> Result
  {
    try body(UnsafeBufferPointer(start: base, count: used))
  }

  /// Forgets the bytes and keeps the storage.
  public func removeAll() { used = 0 }

  /// Makes room for `extra` more bytes.
  @inlinable public func reserve(_ extra: Int) {
    if used + extra > capacity { grow(toHold: used + extra) }
  }

  @usableFromInline func grow(toHold needed: Int) {
    var newCapacity = capacity
    while newCapacity < needed { newCapacity *= 2 }
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: used)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  /// Appends one byte.
  @inlinable public func append(_ byte: UInt8) {
    reserve(1)
    base[used] = byte
    used += 1
  }

  /// Appends bytes.
  @inlinable public func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let start = bytes.baseAddress else { return }
    reserve(bytes.count)
    (base + used).update(from: start, count: bytes.count)
    used += bytes.count
  }

  /// Appends a literal's UTF-8.
  @inlinable public func append(_ text: StaticString) {
    guard text.hasPointerRepresentation else { return text.withUTF8Buffer { append($0) } }
    append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Appends a string's UTF-8.
  public func append(utf8 text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }
}
