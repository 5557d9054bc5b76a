import Foundation
import ICalendar
import Testing

@Suite struct TwoThreadsTests {
  @Test("run gives both results, the second worked out on another thread")
  func run() {
    let caller = pthread_self()
    let (first, second) = TwoThreads.run(
      { (pthread_self(), (1...1_000).reduce(0, +)) },
      alongside: { (pthread_self(), (1...2_000).reduce(0, +)) })
    #expect(pthread_equal(first.0, caller) != 0)
    #expect(pthread_equal(second.0, caller) == 0)
    #expect(first.1 == 500_500)
    #expect(second.1 == 2_001_000)
  }

  @Test("release frees the value on another thread")
  func release() {
    let freed = Freed()
    let caller = Thread.current
    TwoThreads.release([Tracked(freed), Tracked(freed)])
    let threads = freed.wait(for: 2)
    #expect(threads.count == 2)
    #expect(threads.allSatisfy { $0 != caller })
  }
}

/// Records the threads its tracked objects were freed on.
private final class Freed: @unchecked Sendable {
  // @unchecked: every access holds `condition`.
  private let condition = NSCondition()
  private var threads: [Thread] = []

  func record() {
    condition.lock()
    threads.append(Thread.current)
    condition.broadcast()
    condition.unlock()
  }

  /// Waits (at most ten seconds) until `count` objects were freed; the threads they were freed on.
  func wait(for count: Int) -> [Thread] {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date().addingTimeInterval(10)
    while threads.count < count, condition.wait(until: deadline) {}
    return threads
  }
}

private final class Tracked {
  let freed: Freed

  init(_ freed: Freed) {
    self.freed = freed
  }

  deinit { freed.record() }
}
