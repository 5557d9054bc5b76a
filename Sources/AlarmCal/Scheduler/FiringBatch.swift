import ICalendar

/// Firings handed out by ``FiringSchedule/nextFirings(max:into:)``, in order. A firing found
/// in a recurring series is kept as plain values and the series' place in a list shared by
/// every batch, and becomes a ``Firing`` only when read: finding firings then touches no
/// reference count, neither the series' nor those of the strings a firing carries, and
/// whoever reads the batch (another thread, say) makes them.
public struct FiringBatch: Sendable {
  /// A firing made already (boxed: rare, and large beside a found one), or one to make from
  /// its series.
  enum Entry: Sendable {
    indirect case made(Firing)
    case found(series: Int, FoundFiring)
  }

  var entries: [Entry] = []
  /// The series that ``Entry/found(series:_:)`` counts in.
  var series: [AlarmSeries] = []

  /// An empty batch.
  public init() {}

  /// How many firings it holds.
  public var count: Int { entries.count }

  /// Whether it holds none.
  public var isEmpty: Bool { entries.isEmpty }

  /// The firing at `index` (0 ..< ``count``), made as it is read.
  public subscript(index: Int) -> Firing {
    switch entries[index] {
    case .made(let firing): firing
    case .found(let index, let found): series[index].firing(found)
    }
  }

  /// Empties the batch, keeping its storage for the next.
  public mutating func removeAll() {
    entries.removeAll(keepingCapacity: true)
  }
}
