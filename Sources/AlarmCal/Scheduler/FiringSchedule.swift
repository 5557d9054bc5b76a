import ICalendar

/// Computes alarm firings from calendars, lazily, in time order.
///
/// Each calendar's events become series as they are read (``read(_:file:)``); firings are then
/// taken a span of time at a time: a heap keyed by each series' next firing names the series
/// due in the span, each gives its firings in the span at once, and the span's
/// firings are sorted (``FiringSlice``). Each series finds instances only as far as its next
/// firing needs, and spans start short and grow: so the next 64 firings of 100,000 series look
/// at about one instance of each, and memory follows the series and the span, not the window.
public struct FiringSchedule {
  /// The zone for floating and all-day times (`--tz`).
  public let defaultZone: TimeZoneRules
  /// The most instances (candidates) one component may cost per query.
  public let workLimit: Int
  /// Whether firings covered by an acknowledgement are listed anyway.
  public let includeAcknowledged: Bool
  /// Whether open tasks without a VALARM ring at their DUE, with action `DUE`.
  public let includeDue: Bool
  /// A walk through each series read.
  private var walks: [SeriesWalk] = []
  /// How many files were read.
  private var fileCount = 0
  /// Problems found while reading the calendars.
  public private(set) var warnings: [SchedulerWarning] = []
  /// Problems found while handing out firings (rules cut off by the work limit).
  public private(set) var lateWarnings: [SchedulerWarning] = []
  /// The walks with firings left, earliest first, once firings are asked for.
  private var queue = WalkQueue()
  /// The end of the firings asked for, and how many more may be handed out.
  private var end = Instant(secondsSince1970: 0)
  private var remaining = 0
  /// Each walk's series, in the walks' order, for batches to make firings from.
  private var seriesOfWalks: [AlarmSeries] = []
  /// The firings of the span being handed out.
  private var slice = FiringSlice()
  /// How long the next span is, in seconds: a minute at first.
  private var span: Int64 = 60

  /// How many recurrence instances all series have looked at so far: a measure of laziness.
  public var instancesExamined: Int { walks.reduce(0) { $0 + $1.instancesExamined } }

  /// How many series (components with alarms that can ring) were read.
  public var seriesCount: Int { walks.count }

  /// An empty schedule; ``read(_:file:)`` adds calendars to it.
  public init(
    defaultZone: TimeZoneRules, includeAcknowledged: Bool = false, workLimit: Int = 1_000_000,
    includeDue: Bool = false
  ) {
    self.defaultZone = defaultZone
    self.workLimit = workLimit
    self.includeAcknowledged = includeAcknowledged
    self.includeDue = includeDue
  }

  /// Reads one calendar file's text (UTF-8) and adds its series; nothing of the file is added
  /// when it cannot be read.
  ///
  /// The file is read twice: first each calendar's own properties and VTIMEZONEs (the times its
  /// events are read in, wherever in the file they stand), then its events in pieces at once.
  /// Each event becomes part of its series as it comes, so a large file's tree never sits in
  /// memory. The text is let go of once read, before the series are made: pass it with
  /// `consume` when it is not needed after.
  public mutating func read(_ bytes: consuming [UInt8], file name: String)
    throws(ICalendarSyntaxError)
  {
    guard let outline = ICalendarReader.calendarsAndZones(bytes) else {
      _ = try ICalendarReader.read(bytes)  // throws the reason
      return
    }
    let calendars = outline.roots
    guard calendars.contains(where: { $0.name == "VCALENDAR" }) else {
      throw ICalendarSyntaxError(
        line: calendars.first?.line ?? 1,
        message: "no VCALENDAR component: this is not an iCalendar file")
    }
    // A builder per VCALENDAR, changed in place in an array.
    var (builders, builderOfRoot) = calendarBuilders(outline, file: name)
    // The calendars' children are read in pieces at once, then added in file order.
    let pieces = outline.pieces().filter { builderOfRoot[$0.root] >= 0 }
    let readers = builders.map(\.itemReader)
    let builderIndex = builderOfRoot
    // A consuming parameter cannot be captured by the pieces' closure; a local can, and goes
    // where it is consumed below.
    let text = consume bytes
    var read = ParallelWork.map(pieces) { piece in
      let (root, children) = piece
      var reader = readers[builderIndex[root]]
      var items: [SeriesBuilder.ReadItem] = []
      // Sized once: an array grown by doubling can hold up to twice the room its items need.
      items.reserveCapacity(children.count)
      ICalendarReader.children(children, of: root, in: outline, bytes: text) { child in
        if let item = SeriesBuilder.read(child, with: &reader) { items.append(item) }
      }
      return items
    }
    _ = consume text
    // A UID whose masters several calendars hold: the current one's calendar keeps it.
    let across = Self.currentMasters(
      read, calendars: pieces.map(\.root), calendarCount: builders.count)
    for (root, builder) in builderOfRoot.enumerated() where builder >= 0 {
      builders[builder].passOver(by: across, calendar: root)
    }
    for index in pieces.indices {
      let builder = builderOfRoot[pieces[index].root]
      for item in read[index].indices { builders[builder].add(&read[index][item]) }
      read[index] = []
    }
    for index in builders.indices { take(&builders[index]) }
    fileCount += 1
  }

  /// A builder for each VCALENDAR of `outline`, and each root's builder (-1: not a VCALENDAR).
  private func calendarBuilders(_ outline: CalendarOutline, file name: String)
    -> (builders: [SeriesBuilder], ofRoot: [Int])
  {
    var builders: [SeriesBuilder] = []
    var builderOfRoot = [Int](repeating: -1, count: outline.roots.count)
    for (index, calendar) in outline.roots.enumerated() where calendar.name == "VCALENDAR" {
      builderOfRoot[index] = builders.count
      builders.append(
        SeriesBuilder(
          file: name, fileIndex: fileCount,
          times: CalendarTimes(calendar: calendar, defaultZone: defaultZone),
          workLimit: workLimit, components: outline.childCounts[index], includeDue: includeDue))
    }
    return (builders, builderOfRoot)
  }

  /// The current master of each UID that several of the file's `calendarCount` calendars
  /// hold, from the items read in pieces (`calendars`: each piece's calendar), in file order.
  private static func currentMasters(
    _ read: [[SeriesBuilder.ReadItem]], calendars: [Int], calendarCount: Int
  ) -> CurrentAcrossCalendars {
    let items = read.indices.lazy.flatMap { index in
      read[index].lazy.map { item in
        CurrentAcrossCalendars.Item(
          uid: item.uid, isOverride: item.isOverride, calendar: calendars[index],
          revision: item.revision, line: item.line)
      }
    }
    return CurrentAcrossCalendars(calendarCount: calendarCount, items: items)
  }

  /// Takes a builder's walks and warnings, once every component of its calendar is added.
  private mutating func take(_ builder: inout SeriesBuilder) {
    let built = builder.finish()
    // The first calendar's walks are taken as they are: a copy would hold them twice.
    if walks.isEmpty { walks = built.walks } else { walks += built.walks }
    warnings += built.warnings
  }

  /// Every firing in `from..<to` (to: nil for no end), in time order, at most `limit` of them;
  /// the sequence's ``FiringSequence/lateWarnings`` are those found on the way (rules cut off
  /// by the work limit). The schedule's walks do not go back: ask a copy for each window.
  public consuming func firings(from: Instant, to: Instant?, limit: Int?) -> FiringSequence {
    startFirings(from: from, to: to, limit: limit)
    return FiringSequence(schedule: self)
  }

  /// Starts handing out the firings in `from..<to` (to: nil for no end), in time order, at most
  /// `limit` of them, a batch at a time by ``nextFirings(max:into:)``. Once per schedule: the
  /// series' walks do not go back.
  package mutating func startFirings(from: Instant, to: Instant?, limit: Int?) {
    let ranks = rankSeries()
    for index in walks.indices {
      walks[index].rank = ranks[index]
      walks[index].start(at: from)
      // A walk may use its whole work limit finding its first firing.
      if let warning = Self.workLimitWarning(&walks[index], workLimit: workLimit) {
        lateWarnings.append(warning)
      }
    }
    let horizon = Instant(secondsSince1970: 253_402_300_799)  // 9999-12-31T23:59:59Z
    end = min(to ?? horizon, horizon)
    remaining = limit ?? .max
    queue = WalkQueue(walks)
    seriesOfWalks = walks.map(\.series)
  }

  /// Fills `batch` (emptied first) with the next firings, at most `max` of them, all of one
  /// span of time (so fewer than `max` may come while firings are left); none once every
  /// firing asked for by ``startFirings(from:to:limit:)`` has been handed out.
  package mutating func nextFirings(max: Int, into batch: inout FiringBatch) {
    batch.removeAll()
    if batch.series.count != walks.count { batch.series = seriesOfWalks }
    var taken = 0
    while taken < max, remaining > 0 {
      if slice.isHandedOut {
        // A batch reads the firings of one span.
        guard batch.isEmpty else { return }
        takeSlice()
      }
      guard let next = slice.takeNext() else { return }
      if !next.passedOver {
        if batch.isEmpty { batch.found = slice.found }
        batch.places.append(next.place)
        taken += 1
        remaining -= 1
        // The last firing asked for ends the walks at once.
        if remaining == 0 { return }
      }
      if let warning = next.warning { lateWarnings.append(warning) }
    }
  }

  /// Takes every firing of the next span of time from the walks, sorted (``FiringSlice``): each
  /// walk whose next firing comes first gives all of its firings in the span at once. Once
  /// twice ``sliceFirings`` firings are taken (dense rules after sparse ones) the span is cut
  /// short where every walk has given its firings (after its start, whose firings are all
  /// taken), and what was taken past that is carried into the next. Spans grow or shrink
  /// towards ``sliceFirings`` firings. The slice stays handed out when no firing is left
  /// before the end.
  private mutating func takeSlice() {
    guard let start = [firstHeadTrigger, slice.carriedStart].compactMap({ $0 }).min(),
      start < end
    else { return }
    let sliceEnd = min(end, start.adding(seconds: span))
    let most = 2 * sliceFirings
    // Whether a firing at `trigger` is taken, `taken` firings in: before the span's end, and
    // within the bound, unless at the span's start (whose firings are all taken: the cut must
    // come after it).
    let takes = { (trigger: Instant, taken: Int) in
      trigger < sliceEnd && (taken < most || trigger == start)
    }
    slice.begin(at: start)
    let skipAcknowledged = !includeAcknowledged
    while let next = queue.first, var trigger = walks[next].headTrigger,
      takes(trigger, slice.takenCount)
    {
      // A walk gives at most `Self.firingsPerVisit` at a time, so dense walks go on side by
      // side and a span cut short carries little past the cut.
      var given = 0
      repeat {
        guard let entry = walks[next].takeHead(place: next) else { break }
        slice.append(
          entry, trigger: trigger, rank: walks[next].rank, walk: next,
          passedOver: skipAcknowledged && entry.acknowledged)
        if let warning = Self.workLimitWarning(&walks[next], workLimit: workLimit) {
          slice.noteAfterLast(warning)
        }
        given += 1
        guard let after = walks[next].headTrigger else { break }
        trigger = after
      } while given < Self.firingsPerVisit && takes(trigger, slice.takenCount)
      queue.firstMoved(in: walks)
    }
    let complete = min(sliceEnd, firstHeadTrigger ?? sliceEnd)
    slice.sort(series: seriesOfWalks, complete: complete)
    firingsSorted += slice.count
    // Spans follow what the walks gave; firings carried in say nothing of this span's length.
    if slice.takenCount < sliceFirings / 4 {
      span = min(span * 4, Self.longestSpan)
    } else if slice.takenCount > sliceFirings {
      span = max(span * Int64(sliceFirings) / Int64(slice.takenCount), 1)
    }
  }

  /// The next firing's trigger of the walk due first; nil when no walk has one left.
  private var firstHeadTrigger: Instant? { queue.first.flatMap { walks[$0].headTrigger } }

  /// How many firings a slice is meant to hold: enough that most walks give several at once.
  /// Only tests change it, to see that any slicing lists the same.
  var sliceFirings = 131_072
  /// The most firings a walk gives at one visit: many more than a weekly or daily series has
  /// in a span, few beside a span's bound.
  private static let firingsPerVisit = 256
  /// How many firings all spans sorted, carried ones each time: a measure of the work spans
  /// cost, for tests.
  private(set) var firingsSorted = 0
  /// The longest span a slice covers, in seconds: a year (well within ``FiringSlice``'s
  /// 2³² seconds).
  private static let longestSpan: Int64 = 366 * 86_400

  /// A warning, once per walk, when its rule stopped on the work limit.
  private static func workLimitWarning(_ walk: inout SeriesWalk, workLimit: Int)
    -> SchedulerWarning?
  {
    guard walk.stoppedByWorkLimit, !walk.warnedAboutWork else { return nil }
    walk.warnedAboutWork = true
    let item = walk.series
    return SchedulerWarning(
      file: item.origin.file, line: item.line, component: item.componentName, uid: item.uid,
      message: "stopped after \(workLimit) recurrence candidates; later instances are not listed")
  }

  /// Each series' place in level 2 of ``Firing/precedes(_:_:)`` (file, then UID; equal for
  /// equal file and UID): the series sorted by ``FiringOrigin/precedes(_:_:)`` and numbered,
  /// so sorting compares integers, not UIDs.
  private func rankSeries() -> [Int] {
    let origins = walks.map(\.series.origin)
    let order = origins.indices.sorted { FiringOrigin.precedes(origins[$0], origins[$1]) }
    var ranks = [Int](repeating: 0, count: origins.count)
    var rank = -1
    var last: FiringOrigin?
    for index in order {
      if last.map({ FiringOrigin.precedes($0, origins[index]) }) ?? true { rank += 1 }
      ranks[index] = rank
      last = origins[index]
    }
    return ranks
  }
}

/// The walks' next firings merged into one list in ``Firing/precedes(_:_:)`` order: a binary
/// heap of walks keyed by their next firing, the walk due first at its root. A walk with no
/// firing left has a trigger past every other and sinks to a leaf.
private struct WalkQueue {
  /// A walk with its next firing's trigger and its rank, so most comparisons read no walk.
  private struct Entry {
    var trigger: Int64
    let rank: Int32
    let walk: Int32

    init(trigger: Instant?, rank: Int, walk: Int) {
      self.trigger = trigger?.secondsSince1970 ?? Self.noTrigger
      self.rank = Int32(rank)
      self.walk = Int32(walk)
    }

    /// The trigger of a walk with no firing left: after every instant.
    static let noTrigger = Int64.max
  }

  /// The heap: each entry's next firing comes before its children's (2i + 1 and 2i + 2).
  private var heap: [Entry] = []

  /// An empty queue.
  init() {}

  /// The queue of `walks`, each at its next firing.
  init(_ walks: [SeriesWalk]) {
    precondition(walks.count <= Int(Int32.max), "more series than a queue entry can count")
    heap = walks.indices.map {
      Entry(trigger: walks[$0].headTrigger, rank: walks[$0].rank, walk: $0)
    }
    for node in stride(from: heap.count / 2 - 1, through: 0, by: -1) {
      siftDown(from: node, in: walks)
    }
  }

  /// The walk whose next firing comes first, nil when no walk has one left.
  var first: Int? {
    guard let top = heap.first, top.trigger != Entry.noTrigger else { return nil }
    return Int(top.walk)
  }

  /// Puts the first walk in its place again after it advanced to its next firing (or its end).
  mutating func firstMoved(in walks: [SeriesWalk]) {
    guard !heap.isEmpty else { return }
    heap[0].trigger = walks[Int(heap[0].walk)].headTrigger?.secondsSince1970 ?? Entry.noTrigger
    siftDown(from: 0, in: walks)
  }

  /// Moves the entry at `node` down until neither child comes before it.
  private mutating func siftDown(from node: Int, in walks: [SeriesWalk]) {
    var node = node
    while case let left = 2 * node + 1, left < heap.count {
      let right = left + 1
      let child =
        right < heap.count && Self.before(heap[right], heap[left], in: walks) ? right : left
      guard Self.before(heap[child], heap[node], in: walks) else { return }
      heap.swapAt(child, node)
      node = child
    }
  }

  /// Whether `a`'s next firing is listed before `b`'s (``Firing/precedes(_:_:)``): levels 1
  /// and 2 as the trigger's seconds and the series' rank, then
  /// ``Firing/listedBefore(_:walk:_:walk:)``; the walk's place decides between walks with
  /// none left.
  private static func before(_ a: Entry, _ b: Entry, in walks: [SeriesWalk]) -> Bool {
    if a.trigger != b.trigger { return a.trigger < b.trigger }
    if a.trigger == Entry.noTrigger { return a.walk < b.walk }
    if a.rank != b.rank { return a.rank < b.rank }
    guard let fa = walks[Int(a.walk)].head, let fb = walks[Int(b.walk)].head else { return false }
    return Firing.listedBefore(fa, walk: Int(a.walk), fb, walk: Int(b.walk))
  }
}
