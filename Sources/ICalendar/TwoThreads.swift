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
