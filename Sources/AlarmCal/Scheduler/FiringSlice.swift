import ICalendar

/// The firings of one span of time, taken walk by walk and then put in the order they are
/// handed out in (``Firing/precedes(_:_:)``). A walk gives every firing it has in the span at
/// once, while what it reads is in the cache, instead of one at a time between other walks'.
/// Only small keys are sorted; the firings stay where they were taken, for batches to read
/// (``FiringBatch``). Firings taken at or after the point up to which every walk has given
/// its firings (a span cut short) are carried into the next span.
struct FiringSlice {
  /// What orders a firing taken: levels 1 and 2 of ``Firing/precedes(_:_:)`` in one word, its
  /// trigger's seconds after the span's start above its series' rank, so the word's order is
  /// theirs; then its walk and its place in ``found``, for level 3
  /// (``Firing/listedBefore(_:walk:_:walk:)`` between walks of one rank, the order taken
  /// within one walk).
  private struct Key {
    let timeAndRank: UInt64
    let walk: Int32
    let place: Int32
  }

  /// The firings taken, in the order taken.
  private(set) var found: [FiringBatch.Entry] = []
  /// Whether each firing taken is passed over (acknowledged, when those are not listed).
  private var passedOver: [Bool] = []
  /// The warning noted once a firing was taken (its walk's rule stopped on the work limit),
  /// by the firing's place.
  private var warnings: [Int: SchedulerWarning] = [:]
  /// The firings taken, once sorted in the order they are handed out in.
  private var order: [Key] = []
  /// The span's start: the earliest trigger it holds, which keys count from.
  private var start = Instant(secondsSince1970: 0)
  /// The place in `order` of the next firing to hand out, and of the first that is carried
  /// into the next span.
  private var next = 0
  private var carriedFrom = 0
  /// How many firings were carried into the span from the last.
  private var carriedIn = 0

  /// How many firings the span holds, carried ones included.
  var count: Int { order.count }

  /// How many firings were taken from the walks into the span (not carried into it).
  var takenCount: Int { order.count - carriedIn }

  /// Whether every firing of the span that is not carried has been handed out.
  var isHandedOut: Bool { next == carriedFrom }

  /// The earliest trigger of the firings carried into the next span, nil when none is.
  var carriedStart: Instant? {
    carriedFrom < order.count ? trigger(of: order[carriedFrom]) : nil
  }

  private func trigger(of key: Key) -> Instant {
    start.adding(seconds: Int64(key.timeAndRank >> 32))
  }

  /// Starts a span at `start`: at or before every trigger it will hold, carried ones too. The
  /// firings carried from the last span come first, in their order, their keys counted from
  /// the new start.
  mutating func begin(at start: Instant) {
    let carried = order[carriedFrom...]
    // Carried firings are past the last span's start and at or after the new one.
    let moved =
      carried.isEmpty ? 0 : UInt64(start.secondsSince1970 - self.start.secondsSince1970) << 32
    // A batch may still read the last span's firings: they are let go, not emptied in place.
    var found: [FiringBatch.Entry] = []
    var passedOver: [Bool] = []
    var warnings: [Int: SchedulerWarning] = [:]
    var order: [Key] = []
    for key in carried {
      let place = Int(key.place)
      warnings[found.count] = self.warnings[place]
      order.append(
        Key(timeAndRank: key.timeAndRank - moved, walk: key.walk, place: Int32(found.count)))
      found.append(self.found[place])
      passedOver.append(self.passedOver[place])
    }
    (self.found, self.passedOver, self.warnings, self.order) = (found, passedOver, warnings, order)
    (next, carriedFrom, carriedIn) = (0, 0, carried.count)
    self.start = start
  }

  /// Adds the next firing of walk `walk`, whose series has rank `rank`: `trigger` is at or
  /// after the span's start and less than 2³² seconds after it.
  mutating func append(
    _ entry: FiringBatch.Entry, trigger: Instant, rank: Int, walk: Int, passedOver: Bool
  ) {
    let seconds = trigger.secondsSince1970 - start.secondsSince1970
    assert(seconds >= 0 && seconds < 1 << 32 && rank >= 0 && rank < 1 << 32)
    order.append(
      Key(
        timeAndRank: UInt64(seconds) << 32 | UInt64(rank), walk: Int32(walk),
        place: Int32(found.count)))
    found.append(entry)
    self.passedOver.append(passedOver)
  }

  /// Notes a warning found once the last firing added was taken.
  mutating func noteAfterLast(_ warning: SchedulerWarning) {
    warnings[found.count - 1] = warning
  }

  /// Puts the firings added in the order they are handed out in, and carries those at or after
  /// `complete` (before which every walk has given all its firings) into the next span;
  /// `series` are the walks' series, for firings of one instant and rank from several walks.
  mutating func sort(series: [AlarmSeries], complete: Instant) {
    // Stable: within one walk the order taken is the order.
    order.sort { $0.timeAndRank < $1.timeAndRank }
    var runStart = 0
    while runStart < order.count {
      var runEnd = runStart + 1
      while runEnd < order.count, order[runEnd].timeAndRank == order[runStart].timeAndRank {
        runEnd += 1
      }
      let walk = order[runStart].walk
      if order[runStart..<runEnd].contains(where: { $0.walk != walk }) {
        let found = found
        order[runStart..<runEnd].sort { a, b in
          a.walk == b.walk
            ? a.place < b.place
            : Firing.listedBefore(
              found[Int(a.place)].firing(in: series), walk: Int(a.walk),
              found[Int(b.place)].firing(in: series), walk: Int(b.walk))
        }
      }
      runStart = runEnd
    }
    carriedFrom = order.count
    while carriedFrom > 0, trigger(of: order[carriedFrom - 1]) >= complete { carriedFrom -= 1 }
  }

  /// The place in ``found`` of the next firing in order, whether it is passed over, and the
  /// warning noted after it was taken; nil once every one not carried has been.
  mutating func takeNext() -> (place: Int32, passedOver: Bool, warning: SchedulerWarning?)? {
    guard next < carriedFrom else { return nil }
    let place = order[next].place
    next += 1
    let warning = warnings.isEmpty ? nil : warnings[Int(place)]
    return (place, passedOver[Int(place)], warning)
  }
}
