import ICalendar

/// One calendar file to schedule.
public struct CalendarInput: Sendable {
  /// The name as given on the command line.
  public let name: String
  /// The parsed top-level components.
  public let components: [ICalComponent]

  /// Creates an input.
  public init(name: String, components: [ICalComponent]) {
    self.name = name
    self.components = components
  }
}

/// Computes alarm firings from calendars, lazily, in time order.
///
/// Firings are found window by window (a day first, an hour for small limits; growing until a
/// window holds about four firings per series, shrinking when dense rules crowd one), so asking
/// for the next 64 of 100,000 series never expands whole years, and memory stays proportional
/// to one window's firings.
public struct FiringSchedule {
  /// The zone for floating and all-day times (`--tz`).
  public let defaultZone: TimeZoneRules
  /// The most instances (candidates) one component may cost per query.
  public let workLimit: Int
  /// Whether firings covered by an acknowledgement are listed anyway.
  public let includeAcknowledged: Bool
  private var series: [AlarmSeries] = []
  /// How many files were read.
  var fileCount = 0
  /// Whether ``AlarmSeries/rank`` numbers the series as they are now.
  private var ranked = false
  /// Problems found while reading the calendars.
  public private(set) var warnings: [SchedulerWarning] = []

  /// How many recurrence instances all series have looked at so far: a measure of laziness.
  public var instancesExamined: Int { series.reduce(0) { $0 + $1.instancesExamined } }

  /// How many series (components with alarms) were read.
  public var seriesCount: Int { series.count }

  /// An empty schedule; ``read(_:file:)`` adds calendars to it.
  public init(
    defaultZone: TimeZoneRules, includeAcknowledged: Bool = false, workLimit: Int = 1_000_000
  ) {
    self.defaultZone = defaultZone
    self.workLimit = workLimit
    self.includeAcknowledged = includeAcknowledged
  }

  /// Reads the calendars; problems become ``warnings``.
  ///
  /// The components are grouped by UID before their series are built, so a calendar's whole
  /// tree is held until then; ``read(_:file:pipelined:)`` builds from the text event by event
  /// and is the one for large files.
  public init(
    inputs: consuming [CalendarInput], defaultZone: TimeZoneRules,
    includeAcknowledged: Bool = false, workLimit: Int = 1_000_000
  ) {
    self.init(
      defaultZone: defaultZone, includeAcknowledged: includeAcknowledged, workLimit: workLimit)
    for index in inputs.indices {
      let name = inputs[index].name
      var components = inputs[index].components
      inputs[index] = CalendarInput(name: name, components: [])
      for position in components.indices where components[position].name == "VCALENDAR" {
        var calendar = components[position].taken()
        var builder = SeriesBuilder(
          file: name, fileIndex: index,
          times: CalendarTimes(calendar: calendar, defaultZone: defaultZone),
          workLimit: workLimit)
        for child in calendar.components.indices { builder.add(calendar.components[child].taken()) }
        add(builder.finish { _ in nil })
      }
    }
    fileCount = inputs.count
  }

  mutating func add(_ built: (series: [AlarmSeries], warnings: [SchedulerWarning])) {
    // Adopted whole when first: appending would retain every series, a cache miss apiece.
    if series.isEmpty { series = built.series } else { series += built.series }
    warnings += built.warnings
    ranked = false
  }

  /// Numbers the series in the order ties between firings at one instant are broken in (file,
  /// then UID), so sorting a window compares two integers where it compared two UIDs. From
  /// `twoThreadsFrom` series, each half is keyed, sorted and numbered on its own thread.
  private mutating func rankSeries(twoThreadsFrom: Int) {
    guard !ranked else { return }
    ranked = true
    guard series.count >= max(twoThreadsFrom, 2) else {
      let ranks = RankKey.ranks(RankKey.sorted(series[...]), [], count: series.count)
      for index in series.indices { series[index].rank = ranks[index] }
      return
    }
    // Reading each series' UID and writing its rank cost a cache miss apiece: with 100,000
    // series, half of them are read and written by the other thread.
    let half = series.count / 2
    let secondShare = SeriesShare(series[half...])
    let (firstKeys, secondKeys) = TwoThreads.run(
      { RankKey.sorted(series[..<half]) }, alongside: { RankKey.sorted(secondShare.series) })
    let ranks = RankKey.ranks(firstKeys, secondKeys, count: series.count)
    _ = TwoThreads.run(
      { for index in 0..<half { series[index].rank = ranks[index] } },
      alongside: {
        for index in secondShare.series.indices {
          secondShare.series[index].rank = ranks[index]
        }
      })
  }

  /// Calls `emit` with every firing in `from..<to` (to: nil for no end), in time order, stopping
  /// after `limit` firings; returns warnings found on the way (rules cut off by the work limit).
  public mutating func firings(
    from: Instant, to: Instant?, limit: Int?, emit: (Firing) -> Void
  ) -> [SchedulerWarning] {
    firingWindows(from: from, to: to, limit: limit) { window in
      window.forEach(in: 0..<window.count, emit)
    }
  }

  /// ``firings(from:to:limit:emit:)`` a window at a time: `each` is lent every window's firings,
  /// in time order, windows in time order, so that a caller can split a large window's work.
  public mutating func firingWindows(
    from: Instant, to: Instant?, limit: Int?, each: (FiringWindow) -> Void
  ) -> [SchedulerWarning] {
    firingWindows(from: from, to: to, limit: limit, twoThreadsFrom: 1_024, each: each)
  }

  /// ``firingWindows(from:to:limit:each:)``, finding a window's firings on two threads when it
  /// has `twoThreadsFrom` series or more (tests vary it: the result must not depend on it).
  mutating func firingWindows(
    from: Instant, to: Instant?, limit: Int?, twoThreadsFrom: Int,
    each: (FiringWindow) -> Void
  ) -> [SchedulerWarning] {
    // Ranking takes less per series than a window: it is split from eight times as many.
    rankSeries(twoThreadsFrom: twoThreadsFrom <= Int.max / 8 ? twoThreadsFrom * 8 : .max)
    var found: [SchedulerWarning] = []
    var emitted = 0
    var windowStart = from
    // A day first; an hour when only the next few are wanted, so the next 64 of 100,000 series
    // do not build the 75,000 firings of a whole day.
    var span: Int64 = (limit ?? .max) <= 1_000 ? 3_600 : 86_400
    let horizon = Instant(secondsSince1970: 253_402_300_799)  // 9999-12-31T23:59:59Z
    let end = min(to ?? horizon, horizon)
    var active = series
    // Kept across windows with their capacity: a window of 100,000 series holds 400,000
    // firings (60 MB), and fresh arrays each window cost a page fault every 4 KB.
    let first = WindowCollector(half: 0)
    let second = WindowCollector(half: 1)
    var merged: [FiringKey] = []
    // The active series' firing-rate bound, summed again by the collectors at each window's
    // end while each series is in cache: with 100,000 series, every pass over them costs.
    var rate = active.reduce(0) { $0 + $1.firingRateBound }
    while windowStart < end, !active.isEmpty {
      // Dense rules (a few SECONDLY events, or thousands of MINUTELY ones) bound the window
      // before it is filled: a day of them would be millions of firings held at once.
      let crowd = Double(max(50_000, 8 * active.count))
      if rate * Double(span) > crowd { span = max(60, Int64(crowd / rate)) }
      let window = windowStart..<min(windowStart.adding(seconds: span), end)
      // Many series: the second half's firings are found on another thread. Each series is
      // read and advanced by one thread per window, and the threads join before the next.
      let include = includeAcknowledged
      if active.count >= max(twoThreadsFrom, 2) {
        let half = active.count / 2
        let secondShare = SeriesShare(active[half...])
        _ = TwoThreads.run(
          { first.collect(active[..<half], in: window, includeAcknowledged: include) },
          alongside: {
            second.collect(secondShare.series, in: window, includeAcknowledged: include)
          })
      } else {
        first.collect(active[...], in: window, includeAcknowledged: include)
        second.collect([], in: window, includeAcknowledged: include)
      }
      for item in first.newlyStopped + second.newlyStopped {
        found.append(
          SchedulerWarning(
            file: item.file, line: item.line, component: item.componentName, uid: item.uid,
            message:
              "stopped after \(workLimit) recurrence candidates; later instances are not listed"))
      }
      let keyCount = first.keys.count + second.keys.count
      let shown = min(keyCount, limit.map { $0 - emitted } ?? keyCount)
      if shown > 0 {
        first.batch.withUnsafeBufferPointer { firstFirings in
          second.batch.withUnsafeBufferPointer { secondFirings in
            let firings = (firstFirings, secondFirings)
            if second.keys.isEmpty {
              first.keys.withUnsafeBufferPointer { order in
                each(FiringWindow(firings, UnsafeBufferPointer(rebasing: order[..<shown])))
              }
            } else {
              merged.removeAll(keepingCapacity: true)
              merged.merge(first.keys, second.keys) {
                Firing.precedes(
                  FiringWindow.firing($0, in: firings), FiringWindow.firing($1, in: firings))
              }
              merged.withUnsafeBufferPointer { order in
                each(FiringWindow(firings, UnsafeBufferPointer(rebasing: order[..<shown])))
              }
            }
          }
        }
      }
      emitted += shown
      if let limit, emitted >= limit { return found }
      active.removeAll(finished: first.finished + second.finished)
      rate = first.rateBound + second.rateBound
      windowStart = window.upperBound
      // Grow while windows are sparse, shrink when one was crowded. Every window costs each
      // series a call and a look at a day of instances either side, so a window should hold a
      // few firings per series: with 10,000 weekly series, one-day windows made a year's
      // firings cost twice the time of four-day ones.
      if keyCount < 1_000 {
        span = min(span * 4, 366 * 86_400)
      } else if keyCount < 4 * active.count {
        span = min(span * 2, 366 * 86_400)
      } else if keyCount > max(50_000, 16 * active.count) {
        // Crowded by dense rules, not by many series.
        span = max(span / 4, 60)
      }
    }
    return found
  }
}

/// Where a firing goes in a window's order: `order` is the trigger's offset into the window
/// (under 2^25 seconds: windows are at most 366 days) shifted above the series' rank (under 2^32
/// series), so one integer comparison orders by trigger, then rank; `index` is the firing's
/// place in its half's batch, with the top bit set for the second half.
struct FiringKey {
  let order: UInt64
  let index: UInt32

  /// The top bit of `index`: the firing is in the second half's batch.
  static let secondHalf: UInt32 = 1 << 31
}

/// The firings one thread finds in a window for its share of the series, with their sort keys,
/// sorted. Kept from window to window for the capacity of its arrays.
///
/// `@unchecked Sendable`: a collector is used by one thread at a time; it passes between threads
/// only through ``TwoThreads/run(_:alongside:)``, whose join orders the accesses.
final class WindowCollector: @unchecked Sendable {
  private(set) var batch: [Firing] = []
  private(set) var keys: [FiringKey] = []
  /// The series whose rule the work limit stopped in this window, not warned about before.
  private(set) var newlyStopped: [AlarmSeries] = []
  /// Per series collected, whether nothing can fire at or after the window's end.
  private(set) var finished: [Bool] = []
  /// The sum of the firing-rate bounds of the series not finished.
  private(set) var rateBound: Double = 0
  private let tag: UInt32

  /// A collector for the first (0) or second (1) half of the series.
  init(half: Int) {
    tag = half == 0 ? 0 : FiringKey.secondHalf
  }

  /// Finds the firings of `series` in `window`, keeps those to list, and sorts their keys.
  func collect(
    _ series: ArraySlice<AlarmSeries>, in window: Range<Instant>, includeAcknowledged: Bool
  ) {
    // Worked on as locals: a class's array properties are checked for exclusive access at
    // every touch, and a window touches them a few times per firing.
    var batch = take(&self.batch)
    var keys = take(&self.keys)
    batch.removeAll(keepingCapacity: true)
    keys.removeAll(keepingCapacity: true)
    newlyStopped.removeAll()
    finished.removeAll(keepingCapacity: true)
    rateBound = 0
    for item in series {
      let wasStopped = item.stoppedByWorkLimit
      let first = batch.count
      item.appendFirings(in: window, to: &batch)
      for index in first..<batch.count where includeAcknowledged || !batch[index].acknowledged {
        let offset = batch[index].trigger.secondsSince1970 - window.lowerBound.secondsSince1970
        keys.append(
          FiringKey(order: UInt64(offset) << 32 | UInt64(item.rank), index: tag | UInt32(index)))
      }
      if item.stoppedByWorkLimit, !wasStopped, !item.warnedAboutWork {
        item.warnedAboutWork = true
        newlyStopped.append(item)
      }
      let isFinished = item.isFinished(at: window.upperBound)
      finished.append(isFinished)
      if !isFinished { rateBound += item.firingRateBound }
    }
    keys.sort { $0.order < $1.order }
    keys.sortTies {
      Firing.precedes(
        batch[Int($0.index & ~FiringKey.secondHalf)], batch[Int($1.index & ~FiringKey.secondHalf)])
    }
    self.batch = batch
    self.keys = keys
  }
}

/// The value of `variable`, leaving it empty, so the value is uniquely referenced.
private func take<Element>(_ variable: inout [Element]) -> [Element] {
  let value = variable
  variable = []
  return value
}

/// The second half of a window's series, lent to the thread that finds their firings.
///
/// `@unchecked Sendable`: each series is read and advanced by that thread alone until it joins.
private struct SeriesShare: @unchecked Sendable {
  let series: ArraySlice<AlarmSeries>

  init(_ series: ArraySlice<AlarmSeries>) {
    self.series = series
  }
}

extension [AlarmSeries] {
  /// Removes the series flagged in `finished` (one flag per series, in order), keeping the
  /// order of the rest.
  fileprivate mutating func removeAll(finished: [Bool]) {
    var kept = 0
    for index in indices where !finished[index] {
      swapAt(kept, index)
      kept += 1
    }
    removeLast(count - kept)
  }
}

extension [FiringKey] {
  /// Sorts each run of keys with equal `order` (firings of one series at one instant: two
  /// alarms, or a moved instance landing on another) by `precedes`.
  mutating func sortTies(by precedes: (FiringKey, FiringKey) -> Bool) {
    var start = startIndex
    while start < endIndex {
      var end = start + 1
      while end < endIndex, self[end].order == self[start].order { end += 1 }
      if end - start > 1 { self[start..<end].sort(by: precedes) }
      start = end
    }
  }

  /// Appends the keys of two sorted halves in one order: by `order`, then `precedes`; on a
  /// complete tie the first half's key comes first, as in one sort of both.
  mutating func merge(
    _ first: [FiringKey], _ second: [FiringKey], by precedes: (FiringKey, FiringKey) -> Bool
  ) {
    reserveCapacity(count + first.count + second.count)
    var (i, j) = (0, 0)
    while i < first.count, j < second.count {
      let (a, b) = (first[i], second[j])
      if b.order < a.order || (b.order == a.order && precedes(b, a)) {
        append(b)
        j += 1
      } else {
        append(a)
        i += 1
      }
    }
    append(contentsOf: first[i...])
    append(contentsOf: second[j...])
  }
}

/// One window's firings in time order, lent by
/// ``FiringSchedule/firingWindows(from:to:limit:each:)`` for the length of one call.
///
/// `@unchecked Sendable`: it points into the schedule's storage, which nothing changes until the
/// call returns, so threads the caller starts may read it (and must be done before returning).
public struct FiringWindow: @unchecked Sendable {
  /// The two halves' batches.
  typealias Batches = (UnsafeBufferPointer<Firing>, UnsafeBufferPointer<Firing>)
  private let firings: Batches
  private let order: UnsafeBufferPointer<FiringKey>

  init(_ firings: Batches, _ order: UnsafeBufferPointer<FiringKey>) {
    self.firings = firings
    self.order = order
  }

  /// How many firings the window holds.
  public var count: Int { order.count }

  /// Calls `body` with the firings at `positions` of the window's order, in that order.
  public func forEach(in positions: Range<Int>, _ body: (borrowing Firing) -> Void) {
    for position in positions {
      body(Self.firing(order[position], in: firings))
    }
  }

  /// The firing a key points to.
  static func firing(_ key: FiringKey, in firings: Batches) -> Firing {
    let index = Int(key.index & ~FiringKey.secondHalf)
    return key.index & FiringKey.secondHalf == 0 ? firings.0[index] : firings.1[index]
  }
}

/// A series' file and UID, the order ties between firings at one instant are broken in, and
/// its place in the schedule.
private struct RankKey: Sendable {
  let fileIndex: Int
  let uid: String
  let index: Int

  /// The keys of `series`, sorted in place: a comparison reads no series (`sorted` on a tuple
  /// copied every key through unspecialized code).
  static func sorted(_ series: ArraySlice<AlarmSeries>) -> [RankKey] {
    var keys = series.indices.map {
      RankKey(fileIndex: series[$0].fileIndex, uid: series[$0].uid, index: $0)
    }
    keys.sort(by: precedes)
    return keys
  }

  static func precedes(_ a: RankKey, _ b: RankKey) -> Bool {
    a.fileIndex != b.fileIndex ? a.fileIndex < b.fileIndex : a.uid < b.uid
  }

  func sameSeries(as other: RankKey) -> Bool {
    fileIndex == other.fileIndex && uid == other.uid
  }

  /// Each series' rank, by its place, from two sorted key lists of `count` series in all
  /// (merged as they are read: equal file and UID, equal rank).
  static func ranks(_ first: [RankKey], _ second: [RankKey], count: Int) -> [Int] {
    var ranks = [Int](repeating: 0, count: count)
    var (left, right, rank) = (0, 0, -1)
    var last: RankKey?
    while left < first.count || right < second.count {
      let takeSecond =
        left == first.count || right < second.count && precedes(second[right], first[left])
      let key = takeSecond ? second[right] : first[left]
      if takeSecond { right += 1 } else { left += 1 }
      if last.map({ !key.sameSeries(as: $0) }) ?? true { rank += 1 }
      ranks[key.index] = rank
      last = key
    }
    return ranks
  }
}
