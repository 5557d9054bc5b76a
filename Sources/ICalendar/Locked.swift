import Foundation

/// A value guarded by a lock: the few process-wide caches, and CalDAV's shared state.
///
/// Built on `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: on Linux the latter
/// waits on raw futexes that ThreadSanitizer cannot see, so every access it guards is reported
/// as a race and the sanitizer run in CI becomes noise.
package final class Locked<Value>: @unchecked Sendable {
  // @unchecked: `value` is only touched under `lock`.
  private let lock = NSLock()
  private var value: Value

  /// Guards `value`.
  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with the value while holding the lock.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
