import Foundation

/// Finding a byte in a file's bytes with the C library's `memchr`, which looks at many bytes
/// per step: the lexer's search for line ends. The one place the reader touches a pointer; it
/// never reads outside `bytes[start..<bytes.count]`.
enum ByteSearch {
  /// The offset of the first `byte` at or after `start` in `bytes`, or `bytes.count` when there
  /// is none.
  static func firstOffset(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int {
    let count = bytes.count
    guard start >= 0, start < count else { return count }
    return bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress,
        let found = memchr(base + start, Int32(byte), count - start)
      else { return count }
      return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
  }
}
