/// The firings of a window of a ``FiringSchedule``, in time order
/// (``FiringSchedule/firings(from:to:limit:)``), each found only when asked for.
///
/// It is its own iterator: read it with `while let firing = firings.next()` when the
/// ``lateWarnings`` are wanted after, since `for … in` reads a copy.
public struct FiringSequence: Sequence, IteratorProtocol {
  /// The schedule handing out the firings.
  private var schedule: FiringSchedule
  /// The firings found and not yet all handed out, and the place of the next one.
  private var batch = FiringBatch()
  private var place = 0

  init(schedule: consuming FiringSchedule) {
    self.schedule = schedule
  }

  /// Problems found so far while handing out firings (rules cut off by the work limit).
  public var lateWarnings: [SchedulerWarning] { schedule.lateWarnings }

  /// How many recurrence instances all series have looked at so far: a measure of laziness.
  public var instancesExamined: Int { schedule.instancesExamined }

  /// How many firings the schedule's spans have sorted so far, for tests.
  var firingsSorted: Int { schedule.firingsSorted }

  /// The next firing, nil once every firing asked for has been handed out.
  public mutating func next() -> Firing? {
    if place == batch.count {
      schedule.nextFirings(max: .max, into: &batch)
      place = 0
      guard !batch.isEmpty else { return nil }
    }
    defer { place += 1 }
    return batch[place]
  }
}
