import Foundation

/// A value guarded by an `NSLock` (ThreadSanitizer sees pthread mutexes, not raw futexes).
final class LockedValue<Value>: @unchecked Sendable {
  // @unchecked: `value` is only touched while `lock` is held.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  /// Runs `body` with the value while holding the lock.
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
