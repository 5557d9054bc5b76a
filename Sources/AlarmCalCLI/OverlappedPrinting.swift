import AlarmCal
import ICalendar
import Synchronization

/// Prints a schedule's firings on two cores: while one batch is printed, the schedule finds the
/// next. Each step runs the two stages side by side (``ParallelWork/both(_:_:)``) and waits
/// for both, so a batch changes hands only between steps, on the calling thread; no
/// thread is started here and the stages never wait on each other inside a step.
enum OverlappedPrinting {
  /// How many firings a batch holds: no bound of its own, so a batch is what is left of one
  /// span of time's firings (``FiringSchedule`` takes them a span at a time), and each step
  /// finds one span while the last is printed.
  static let batchSize = Int.max

  /// Finding firings: the schedule and the batch it fills.
  private struct Finding: ~Copyable {
    var schedule: FiringSchedule
    var batch = FiringBatch()
  }

  /// Printing: the printer and the batch it prints.
  private struct Printing: ~Copyable {
    var printer: FiringPrinter
    var batch = FiringBatch()
  }

  /// Prints every firing `schedule` hands out (after
  /// ``FiringSchedule/startFirings(from:to:limit:)``) and ends the output as
  /// ``FiringPrinter/end(sayWhenEmpty:)`` does; returns the warnings found on the way.
  static func printAll(
    of schedule: consuming sending FiringSchedule, with printer: consuming sending FiringPrinter,
    sayWhenEmpty: Bool
  ) -> [SchedulerWarning] {
    // Each stage's state sits behind a Mutex only so the compiler can see that the two stages
    // share nothing: within a step each lock is taken by one stage alone. The order of the
    // steps, which ThreadSanitizer checks, comes from ParallelWork.both's gate, not from these.
    let finding = Mutex(Finding(schedule: consume schedule))
    let printing = Mutex(Printing(printer: printer))
    finding.withLock { $0.schedule.nextFirings(max: batchSize, into: &$0.batch) }
    while true {
      // The batch found goes to the printer; the one printed goes back, to be emptied (its
      // firings released by the stage that made them) and filled again.
      let found = finding.withLock { stage in
        var found = FiringBatch()
        swap(&found, &stage.batch)
        return found
      }
      guard !found.isEmpty else { break }
      let printed = printing.withLock { stage in
        var printed = found
        swap(&printed, &stage.batch)
        return printed
      }
      finding.withLock { $0.batch = printed }
      ParallelWork.both {
        finding.withLock { stage in
          stage.batch.removeAll()
          stage.schedule.nextFirings(max: batchSize, into: &stage.batch)
        }
      } _: {
        printing.withLock { stage in
          let batch = stage.batch
          for index in 0..<batch.count { stage.printer.print(batch, at: index) }
        }
      }
    }
    printing.withLock { $0.printer.end(sayWhenEmpty: sayWhenEmpty) }
    return finding.withLock { $0.schedule.lateWarnings }
  }
}
