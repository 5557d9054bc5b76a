extension String {
  /// A string of exactly `count` ASCII bytes that `write` stores through the pointer it is
  /// given: the text of timestamps and ids, made without an intermediate array.
  public init(asciiCount count: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Void) {
    self.init(unsafeUninitializedCapacity: count) { buffer in
      guard let start = buffer.baseAddress else { return 0 }
      write(start)
      return count
    }
  }
}
