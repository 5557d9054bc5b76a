import ICalendar

/// Computes alarm firings from calendars, lazily, in time order.
///
/// Each calendar's events become series as they are read (``read(_:file:)``); firings are then
/// merged from the series with a heap keyed by each series' next firing, and each series finds
/// instances only as far as its next firing needs. So the next 64 firings of 100,000 series
/// look at about one instance of each, and memory follows the series, not the window.
public struct FiringSchedule {
  /// The zone for floating and all-day times (`--tz`).
  public let defaultZone: TimeZoneRules
  /// The most instances (candidates) one component may cost per query.
  public let workLimit: Int
  /// Whether firings covered by an acknowledgement are listed anyway.
  public let includeAcknowledged: Bool
  /// A walk through each series read.
  private var walks: [SeriesWalk] = []
  /// How many files were read.
  private var fileCount = 0
  /// Problems found while reading the calendars.
  public private(set) var warnings: [SchedulerWarning] = []

  /// How many recurrence instances all series have looked at so far: a measure of laziness.
  public var instancesExamined: Int { walks.reduce(0) { $0 + $1.instancesExamined } }

  /// How many series (components with alarms that can ring) were read.
  public var seriesCount: Int { walks.count }

  /// An empty schedule; ``read(_:file:)`` adds calendars to it.
  public init(
    defaultZone: TimeZoneRules, includeAcknowledged: Bool = false, workLimit: Int = 1_000_000
  ) {
    self.defaultZone = defaultZone
    self.workLimit = workLimit
    self.includeAcknowledged = includeAcknowledged
  }

  /// Reads one calendar file's text (UTF-8) and adds its series; nothing of the file is added
  /// when it cannot be read.
  ///
  /// The text is read twice: first each calendar's own properties and VTIMEZONEs (the times
  /// its events are read in, wherever in the file they stand), then its events one at a time,
  /// each becoming part of its series as it comes, so a large file's tree never sits in memory.
  public mutating func read(_ bytes: [UInt8], file name: String) throws(ICalendarSyntaxError) {
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
    var builders: [SeriesBuilder] = []
    var builderOfRoot = [Int](repeating: -1, count: calendars.count)
    for (index, calendar) in calendars.enumerated() where calendar.name == "VCALENDAR" {
      builderOfRoot[index] = builders.count
      builders.append(
        SeriesBuilder(
          file: name, fileIndex: fileCount,
          times: CalendarTimes(calendar: calendar, defaultZone: defaultZone),
          workLimit: workLimit, components: outline.childCounts[index]))
    }
    _ = try ICalendarReader.read(bytes) { child, root, _ in
      if builderOfRoot[root] >= 0 { builders[builderOfRoot[root]].add(child) }
      return nil
    }
    for index in builders.indices {
      let built = builders[index].finish()
      walks += built.walks
      warnings += built.warnings
    }
    fileCount += 1
  }

  /// Calls `emit` with every firing in `from..<to` (to: nil for no end), in time order, stopping
  /// after `limit` firings; returns warnings found on the way (rules cut off by the work limit).
  /// Asked once per schedule: the series' walks do not go back.
  public mutating func firings(
    from: Instant, to: Instant?, limit: Int?, emit: (Firing) -> Void
  ) -> [SchedulerWarning] {
    let ranks = rankSeries()
    for index in walks.indices {
      walks[index].rank = ranks[index]
      walks[index].start(at: from)
    }
    var found: [SchedulerWarning] = []
    // A walk may use its whole work limit finding its first firing.
    for index in walks.indices {
      Self.noteWorkLimit(&walks[index], workLimit: workLimit, into: &found)
    }
    let horizon = Instant(secondsSince1970: 253_402_300_799)  // 9999-12-31T23:59:59Z
    let end = min(to ?? horizon, horizon)
    var emitted = 0
    var windowStart = from
    var windows = WindowSpan(limit: limit)
    var active = walks.indices.filter { walks[$0].headTrigger != nil }
    var batch: [Firing] = []
    while windowStart < end, !active.isEmpty {
      windows.bound(byRate: active.reduce(0) { $0 + walks[$1].firingRate }, series: active.count)
      let windowEnd = min(windowStart.adding(seconds: windows.span), end)
      batch.removeAll(keepingCapacity: true)
      var order: [(trigger: Int64, rank: Int, index: Int)] = []
      for index in active {
        let rank = walks[index].rank
        while let trigger = walks[index].headTrigger, trigger < windowEnd,
          let firing = walks[index].head
        {
          if includeAcknowledged || !firing.acknowledged {
            order.append((trigger.secondsSince1970, rank, batch.count))
            batch.append(firing)
          }
          walks[index].advance()
        }
        Self.noteWorkLimit(&walks[index], workLimit: workLimit, into: &found)
      }
      order.sort { a, b in
        if a.trigger != b.trigger { return a.trigger < b.trigger }
        if a.rank != b.rank { return a.rank < b.rank }
        return batch[a.index].followsWithinSeries(batch[b.index])
      }
      for entry in order {
        emit(batch[entry.index])
        emitted += 1
        if let limit, emitted >= limit { return found }
      }
      active.removeAll { walks[$0].headTrigger == nil }
      windowStart = windowEnd
      windows.adjust(found: order.count, series: active.count)
    }
    return found
  }

  /// A warning, once per walk, when its rule stopped on the work limit.
  private static func noteWorkLimit(
    _ walk: inout SeriesWalk, workLimit: Int, into found: inout [SchedulerWarning]
  ) {
    guard walk.stoppedByWorkLimit, !walk.warnedAboutWork else { return }
    walk.warnedAboutWork = true
    let item = walk.series
    found.append(
      SchedulerWarning(
        file: item.origin.file, line: item.line, component: item.componentName, uid: item.uid,
        message: "stopped after \(workLimit) recurrence candidates; later instances are not listed"
      ))
  }

  /// Each series' place in the order ties between firings at one instant are broken in (file,
  /// then UID; equal for equal file and UID), so sorting compares integers, not UIDs.
  private func rankSeries() -> [Int] {
    let series = walks.map(\.series)
    let order = series.indices.sorted {
      (series[$0].fileIndex, series[$0].uid) < (series[$1].fileIndex, series[$1].uid)
    }
    var ranks = [Int](repeating: 0, count: series.count)
    var rank = -1
    var last: (Int, String)?
    for index in order {
      let key = (series[index].fileIndex, series[index].uid)
      if last.map({ $0 != key }) ?? true { rank += 1 }
      ranks[index] = rank
      last = key
    }
    return ranks
  }
}

/// How long the windows firings are gathered in are: a day first (an hour when only the next
/// few are wanted, so the next 64 of 100,000 series do not gather a whole day); growing while
/// windows are sparse, since every window costs each series a look; shrinking when dense rules
/// crowd one, so a window never holds millions of firings at once.
private struct WindowSpan {
  private(set) var span: Int64

  init(limit: Int?) {
    span = (limit ?? .max) <= 1_000 ? 3_600 : 86_400
  }

  /// Shortens the coming window when `rate` firings a second (an upper bound) would crowd it.
  mutating func bound(byRate rate: Double, series: Int) {
    let crowd = Double(max(50_000, 8 * series))
    if rate * Double(span) > crowd { span = max(60, Int64(crowd / rate)) }
  }

  /// Sets the next window's span from what the last one held: about four firings a series is
  /// the aim (with 10,000 weekly series, one-day windows cost twice the time of four-day ones).
  mutating func adjust(found: Int, series: Int) {
    if found < 1_000 {
      span = min(span * 4, 366 * 86_400)
    } else if found < 4 * series {
      span = min(span * 2, 366 * 86_400)
    } else if found > max(50_000, 16 * series) {
      span = max(span / 4, 60)
    }
  }
}
