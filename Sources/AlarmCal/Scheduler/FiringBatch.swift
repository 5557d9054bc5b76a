import ICalendar

/// Firings handed out by ``FiringSchedule/nextFirings(max:into:)``, in order. A firing found
/// in a recurring series is kept as plain values and the series' place in a list shared by
/// every batch, and becomes a ``Firing`` only when read: finding firings then touches no
/// reference count, neither the series' nor those of the strings a firing carries, and
/// whoever reads the batch (another thread, say) makes them. A batch reads its firings where
/// the schedule found them, in one span of time, by their places in the order they are
/// listed in; so the reader, not the finder, waits for memory that order scatters.
package struct FiringBatch: Sendable {
  /// A firing made already (boxed: rare, and large beside a found one), or one to make from
  /// its series.
  enum Entry: Sendable {
    indirect case made(Firing)
    case found(series: Int, FoundFiring)

    /// The firing, made from its series in `series` when it was found in one.
    func firing(in series: [AlarmSeries]) -> Firing {
      switch self {
      case .made(let firing): firing
      case .found(let index, let found): series[index].firing(found)
      }
    }

    /// Whether an acknowledgement covers the firing.
    var acknowledged: Bool {
      switch self {
      case .made(let firing): firing.acknowledged
      case .found(_, let found): found.acknowledged
      }
    }
  }

  /// The firings of the span the batch reads from, in the order found.
  var found: [Entry] = []
  /// The places in `found` of the batch's firings, in order.
  var places: [Int32] = []
  /// The series that ``Entry/found(series:_:)`` counts in.
  var series: [AlarmSeries] = []

  /// An empty batch.
  package init() {}

  /// How many firings it holds.
  package var count: Int { places.count }

  /// Whether it holds none.
  package var isEmpty: Bool { places.isEmpty }

  /// The firing at `index` (0 ..< ``count``), made as it is read.
  package subscript(index: Int) -> Firing {
    found[Int(places[index])].firing(in: series)
  }

  /// The firing at `index` as its source and the values that are its own, without making it:
  /// for output that writes what a source's firings share once. Nil for a firing that shares
  /// nothing with others (read it with the subscript).
  package func sharedSource(at index: Int) -> (source: FiringSource, own: FiringOwnValues)? {
    guard case .found(let series, let found) = found[Int(places[index])] else { return nil }
    return (
      FiringSource(series: series, template: found.template, alarm: found.alarm),
      FiringOwnValues(
        trigger: found.trigger, recurrenceID: found.recurrenceID, eventStart: found.eventStart,
        repeatIndex: found.repeatIndex, acknowledged: found.acknowledged)
    )
  }

  /// Empties the batch, keeping the room for its places and letting go of the firings it read.
  package mutating func removeAll() {
    places.removeAll(keepingCapacity: true)
    found = []
  }
}

/// One alarm of one series in the batches of one schedule: firings of one source have equal
/// ``Firing/uid``, ``Firing/component``, ``Firing/file``, ``Firing/summary``,
/// ``Firing/action``, ``Firing/alarmUID``, ``Firing/snoozeOf``, ``Firing/isSnooze``,
/// ``Firing/settings`` and ``Firing/idSeed``.
package struct FiringSource: Hashable, Sendable {
  let series: Int
  let template: Int
  let alarm: Int
}

/// The values of a firing that are its own, not its source's (``FiringBatch/sharedSource(at:)``).
public struct FiringOwnValues: Sendable {
  /// ``Firing/trigger``.
  public let trigger: Instant
  /// ``Firing/recurrenceID``.
  public let recurrenceID: RecurrenceID?
  /// ``Firing/eventStart``.
  public let eventStart: Instant
  /// ``Firing/repeatIndex``.
  public let repeatIndex: Int
  /// ``Firing/acknowledged``.
  public let acknowledged: Bool
}
