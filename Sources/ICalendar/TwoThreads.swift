import Foundation

/// Runs two pieces of work at once, one on the calling thread and one on a new thread, for the
/// few jobs that split into two independent halves (printing a large calendar, formatting a
/// window of firings). The machine this is measured on has two cores.
public enum TwoThreads {
  /// Runs `second` on a new thread while `first` runs on this one; returns both results when
  /// both are done. The caller must make sure the two share no mutable state.
  public static func run<First, Second>(
    _ first: () -> First, alongside second: @escaping @Sendable () -> Second
  ) -> (First, Second) {
    let handOver = HandOver<Second>()
    let thread = Thread { handOver.finish(second()) }
    thread.stackSize = 1 << 22
    thread.start()
    let firstResult = first()
    // `second` may read what the caller lends it only until this returns.
    return (firstResult, handOver.wait())
  }
}

extension TwoThreads {
  /// Lets go of `value` on a new thread, for a large structure whose freeing the caller need
  /// not wait for (a command about to exit: 100,000 alarm series take 70 ms to free).
  ///
  /// `value` must be the last reference to what it owns, and nothing it owns may be used by
  /// another thread meanwhile: only the new thread touches it.
  public static func release<Value>(_ value: consuming Value) {
    let box = Released(value)
    let thread = Thread { box.empty() }
    thread.start()
  }
}

/// A value on its way to being freed by another thread.
///
/// `@unchecked Sendable`: ``TwoThreads/release(_:)`` hands over the last reference, so only
/// the thread it starts touches the value (starting a thread orders the accesses).
private final class Released<Value>: @unchecked Sendable {
  private var value: Value?

  init(_ value: consuming Value) {
    self.value = value
  }

  func empty() {
    value = nil
  }
}

/// The second thread's result, handed to the waiting one.
///
/// `@unchecked Sendable`: `result` is written once by the working thread and read by the
/// waiting one, both while holding `condition` (a pthread mutex and condition variable, which
/// ThreadSanitizer sees).
private final class HandOver<Value>: @unchecked Sendable {
  private let condition = NSCondition()
  private var result: Value?

  func finish(_ value: Value) {
    condition.lock()
    defer { condition.unlock() }
    result = value
    condition.broadcast()
  }

  func wait() -> Value {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let result { return result }
      condition.wait()
    }
  }
}
