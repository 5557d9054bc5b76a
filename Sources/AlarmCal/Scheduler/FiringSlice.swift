import ICalendar

/// The firings of one span of time, taken walk by walk and then put in the order they are
/// handed out in (``Firing/precedes(_:_:)``). A walk gives every firing it has in the span at
/// once, while what it reads is in the cache, instead of one at a time between other walks'.
/// Only small keys are sorted; the firings stay where they were taken, for batches to read
/// (``FiringBatch``).
struct FiringSlice {
  /// What orders a firing taken: its trigger's seconds after the span's start and its series'
  /// rank in one word, then its walk (for firings of one rank from several walks) and its
  /// place in ``found``.
  private struct Key {
    let timeAndRank: UInt64
    let walk: UInt32
    let place: UInt32
  }

  /// The firings taken, in the order taken.
  private(set) var found: [FiringBatch.Entry] = []
  /// Whether each firing taken is passed over (acknowledged, when those are not listed).
  private var passedOver: [Bool] = []
  /// The warning noted once a firing was taken (its walk's rule stopped on the work limit),
  /// by the firing's place.
  private var warnings: [Int: SchedulerWarning] = [:]
  private var order: [Key] = []
  private var start = Instant(secondsSince1970: 0)
  /// The place in `order` of the next firing to hand out.
  private var next = 0

  /// How many firings the span holds.
  var count: Int { order.count }

  /// Whether every firing of the span has been handed out.
  var isEmpty: Bool { next == order.count }

  /// Empties the slice for a span that starts at `start`, the earliest trigger it will hold.
  mutating func begin(at start: Instant) {
    // A batch may still read the last span's firings: they are let go, not emptied in place.
    found = []
    passedOver.removeAll(keepingCapacity: true)
    warnings = [:]
    order.removeAll(keepingCapacity: true)
    next = 0
    self.start = start
  }

  /// Adds the next firing of walk `walk`, whose series has rank `rank`: `trigger` is at or
  /// after the span's start and less than 2³² seconds after it.
  mutating func append(
    _ entry: FiringBatch.Entry, trigger: Instant, rank: Int, walk: Int, passedOver: Bool
  ) {
    let seconds = UInt64(trigger.secondsSince1970 - start.secondsSince1970)
    order.append(
      Key(timeAndRank: seconds << 32 | UInt64(rank), walk: UInt32(walk), place: UInt32(found.count))
    )
    found.append(entry)
    self.passedOver.append(passedOver)
  }

  /// Notes a warning found once the last firing added was taken.
  mutating func noteAfterLast(_ warning: SchedulerWarning) {
    warnings[found.count - 1] = warning
  }

  /// Puts the firings added in the order they are handed out in; `series` are the walks'
  /// series, for firings of one instant and rank from different walks.
  mutating func sort(series: [AlarmSeries]) {
    // Stable: within one walk the order taken is the order.
    order.sort { $0.timeAndRank < $1.timeAndRank }
    // Firings of one instant and rank from two walks (one file and UID read as several
    // series) are ordered as within one series, then by walk, as a merge of the walks would.
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
          if a.walk == b.walk { return a.place < b.place }
          let first = found[Int(a.place)].firing(in: series)
          let second = found[Int(b.place)].firing(in: series)
          if first.followsWithinSeries(second) { return true }
          return !second.followsWithinSeries(first) && a.walk < b.walk
        }
      }
      runStart = runEnd
    }
  }

  /// The place in ``found`` of the next firing in order, whether it is passed over, and the
  /// warning noted after it was taken; nil once every one has been.
  mutating func takeNext() -> (place: Int32, passedOver: Bool, warning: SchedulerWarning?)? {
    guard next < order.count else { return nil }
    let place = Int(order[next].place)
    next += 1
    return (Int32(place), passedOver[place], warnings.isEmpty ? nil : warnings[place])
  }
}
