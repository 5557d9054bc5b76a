import Dispatch
import Foundation

/// Independent pieces of work done at once, one per processor: the one place alarmcal splits its
/// own work across threads. Dispatch's `concurrentPerform` runs the pieces and returns when all are done;
/// nothing waits on a lock while another piece works.
public enum ParallelWork {
  /// `body` of each input, computed concurrently, in the inputs' order. Each piece is given its
  /// input to own (no other reference to it is left), so it can let go of what it has used as it
  /// goes. With one input or one processor the pieces are computed in turn on the calling
  /// thread.
  public static func map<Input: Sendable, Result: Sendable>(
    _ inputs: consuming [Input], _ body: @Sendable (consuming Input) -> Result
  ) -> [Result] {
    guard inputs.count > 1, ProcessInfo.processInfo.activeProcessorCount > 1 else {
      var results: [Result] = []
      results.reserveCapacity(inputs.count)
      var remaining = inputs
      remaining.reverse()
      while let input = remaining.popLast() { results.append(body(input)) }
      return results
    }
    let pieces = Pieces<Input, Result>(consume inputs)
    pieces.gate.synchronize()
    DispatchQueue.concurrentPerform(iterations: pieces.count) { index in
      pieces.hand(body(pieces.take(index)), at: index)
    }
    return pieces.results()
  }

  /// ``map(_:_:)``, handing each result to `take` in the inputs' order and letting go of it once
  /// taken, so that the results need not all sit beside what is made of them.
  public static func map<Input: Sendable, Result: Sendable>(
    _ inputs: consuming [Input], _ body: @Sendable (consuming Input) -> Result,
    each take: (consuming Result) -> Void
  ) {
    var results = map(inputs, body)
    results.reverse()
    while let result = results.popLast() { take(result) }
  }

  /// Runs `first` and `second` side by side and returns when both are done: two stages of a
  /// pipeline, each working on state the other does not touch. With one processor they run in
  /// turn on the calling thread.
  public static func both(_ first: @Sendable () -> Void, _ second: @Sendable () -> Void) {
    guard ProcessInfo.processInfo.activeProcessorCount > 1 else {
      first()
      second()
      return
    }
    let gate = Gate()
    gate.synchronize()
    DispatchQueue.concurrentPerform(iterations: 2) { stage in
      gate.synchronize()
      if stage == 0 { first() } else { second() }
      gate.synchronize()
    }
    gate.synchronize()
  }

  /// `0..<count` cut into consecutive runs for ``map(_:_:)``: about four per processor, so that
  /// no processor waits long for another, and none shorter than `minimum`.
  public static func runs(of count: Int, minimum: Int = 1_000) -> [Range<Int>] {
    let wanted = 4 * ProcessInfo.processInfo.activeProcessorCount
    let length = max(minimum, (count + wanted - 1) / max(wanted, 1), 1)
    return stride(from: 0, to: count, by: length).map { $0..<min(count, $0 + length) }
  }

  /// A lock taken and released at once: what one thread wrote before is then seen, by
  /// ThreadSanitizer too (it cannot see inside libdispatch), as written before what the next
  /// thread to pass does.
  private final class Gate: Sendable {
    private let lock = NSLock()

    func synchronize() {
      withLock {}
    }

    func withLock<Value>(_ body: () -> Value) -> Value {
      lock.lock()
      defer { lock.unlock() }
      return body()
    }
  }

  /// The pieces' inputs and results. Each slot is taken or written once, by its piece, under the
  /// gate's lock, held only for that; the lock also orders the writes for ThreadSanitizer.
  private final class Pieces<Input: Sendable, Result: Sendable>: @unchecked Sendable {
    // @unchecked: `inputs` and `outputs` are changed only under the gate's lock; `count` is
    // read before the pieces start.
    let gate = Gate()
    private var inputs: [Input?]
    private var outputs: [Result?]

    init(_ inputs: consuming [Input]) {
      self.inputs = inputs.map { $0 }
      outputs = [Result?](repeating: nil, count: self.inputs.count)
    }

    var count: Int { outputs.count }

    /// Input `index`, handed over: the pieces keep no reference to it.
    func take(_ index: Int) -> Input {
      gate.withLock {
        guard let input = inputs[index] else { preconditionFailure("piece \(index) taken twice") }
        inputs[index] = nil
        return input
      }
    }

    func hand(_ result: Result, at index: Int) {
      gate.withLock { outputs[index] = result }
    }

    func results() -> [Result] {
      gate.withLock {
        var all = [Result?]()
        swap(&all, &outputs)
        let results = all.compactMap { $0 }
        precondition(results.count == all.count, "a piece handed in no result")
        return results
      }
    }
  }
}
