import Foundation
import ICalendar

extension FiringSchedule {
  /// Reads one calendar file's text (UTF-8) and adds its series. Each event's series is built
  /// as soon as the event is read, so a large file's tree never sits in memory whole; nothing of
  /// the file is added when it cannot be read.
  ///
  /// With `pipelined` (the default for files of a megabyte or more) one thread reads the text
  /// into components while the calling thread builds their series, and the reading thread
  /// builds some series itself whenever the builder falls behind. Series and warnings come out
  /// as reading and building in turn would give them.
  public mutating func read(
    _ bytes: [UInt8], file name: String, pipelined: Bool? = nil
  ) throws(ICalendarSyntaxError) {
    try read(bytes, file: name, pipelined: pipelined, prebuilding: .whenBehind)
  }

  /// ``read(_:file:pipelined:)``, choosing when the reading thread builds series itself.
  mutating func read(
    _ bytes: [UInt8], file name: String, pipelined: Bool?, prebuilding: Prebuilding
  ) throws(ICalendarSyntaxError) {
    var calendars = CalendarStreams(
      file: name, fileIndex: fileCount, defaultZone: defaultZone, workLimit: workLimit)
    let roots: [ICalComponent]
    if pipelined ?? (bytes.count >= 1 << 20) {
      let handOver = ChildHandOver()
      let (fileIndex, defaultZone, workLimit) = (fileCount, defaultZone, workLimit)
      let reader = Thread {
        var prebuilder = Prebuilder(
          file: name, fileIndex: fileIndex, defaultZone: defaultZone, workLimit: workLimit,
          choice: prebuilding)
        var filter = EventFilter()
        let result = Result { () throws(ICalendarSyntaxError) in
          try ICalendarReader.read(bytes) { child, source, calendar in
            filter.take(child, source, calendar) { event in
              let behind = handOver.send(prebuilder.offer(event))
              if let behind { prebuilder.consumerIsBehind = behind }
            }
          }
        }
        handOver.finish(result)
      }
      reader.stackSize = 1 << 22
      reader.start()
      while var batch = handOver.receive() {
        // Events are moved out, not copied: a copy retained and released what the reading
        // thread allocated, from this thread.
        var spent: [ICalComponent] = []
        spent.reserveCapacity(batch.count)
        batch.reverse()
        while let event = batch.popLast() {
          if let child = calendars.add(event) { spent.append(child) }
        }
        handOver.giveBack(spent)
      }
      roots = try handOver.result().get()
    } else {
      var filter = EventFilter()
      roots = try ICalendarReader.read(bytes) { child, source, calendar in
        filter.take(child, source, calendar) { _ = calendars.add($0) }
      }
    }
    guard roots.contains(where: { $0.name == "VCALENDAR" }) else {
      throw ICalendarSyntaxError(
        line: roots.first?.line ?? 1,
        message: "no VCALENDAR component: this is not an iCalendar file")
    }
    for built in calendars.finish(bytes, roots: roots) { add(built) }
    fileCount += 1
  }
}

/// One VEVENT or VTODO as read (or its series, built by the reading thread), with where it came
/// from; the first of each calendar also carries the calendar as read so far (its zones).
private struct EventRead: Sendable {
  var child: ICalComponent?
  var prebuilt: SeriesBuilder.Prebuilt?
  let source: ChildSource
  let calendar: ICalComponent?
}

/// How the reading thread shares the building of series (tests pin each way).
enum Prebuilding: Sendable {
  /// When the building thread has fallen behind, so both threads stay busy.
  case whenBehind
  case always
  case never
}

/// Builds series on the reading thread, with a builder per calendar made from the same
/// calendar-so-far as the building thread's, so a series is the same whichever thread built it.
private struct Prebuilder {
  let file: String
  let fileIndex: Int
  let defaultZone: TimeZoneRules
  let workLimit: Int
  let choice: Prebuilding
  var consumerIsBehind = false
  /// A builder per calendar, changed in place; `positions` maps a calendar's position among the
  /// file's top-level components to its builder.
  var builders: [SeriesBuilder] = []
  var positions: [Int: Int] = [:]

  /// The event as it is, or with its series built in place of its component.
  mutating func offer(_ event: consuming EventRead) -> EventRead {
    let root = event.source.rootIndex
    if let calendar = event.calendar {
      positions[root] = builders.count
      builders.append(
        SeriesBuilder(
          file: file, fileIndex: fileIndex,
          times: CalendarTimes(calendar: calendar, defaultZone: defaultZone),
          workLimit: workLimit))
    }
    let wanted =
      switch choice {
      case .always: true
      case .never: false
      case .whenBehind: consumerIsBehind
      }
    guard wanted, event.child != nil, let builder = positions[root] else { return event }
    var result = event
    guard let child = result.child.take() else { return result }
    if let built = builders[builder].prebuild(child) {
      result.prebuilt = built
    } else {
      result.child = child
    }
    return result
  }
}

/// Turns the reader's children into events for ``CalendarStreams``: keeps VTIMEZONEs in their
/// calendar, passes VEVENTs and VTODOs on, drops the rest.
private struct EventFilter {
  private var lastCalendar = -1

  mutating func take(
    _ child: consuming ICalComponent, _ source: ChildSource, _ calendar: ICalComponent,
    _ pass: (EventRead) -> Void
  ) -> ICalComponent? {
    guard calendar.name == "VCALENDAR" else { return nil }
    if child.name == "VTIMEZONE" { return child }
    guard child.name == "VEVENT" || child.name == "VTODO" else { return nil }
    let first = source.rootIndex != lastCalendar
    lastCalendar = source.rootIndex
    pass(EventRead(child: child, source: source, calendar: first ? calendar : nil))
    return nil
  }
}

/// The VCALENDARs of one file, each with its own series builder.
private struct CalendarStreams {
  let file: String
  let fileIndex: Int
  let defaultZone: TimeZoneRules
  let workLimit: Int
  /// Each calendar's stream, in the order of their first events; `positions` maps a calendar's
  /// position among the file's top-level components to its stream. An array element is
  /// changed in place, where a dictionary's optional-chained value was copied out (a stream
  /// copy per event).
  var streams: [CalendarStream] = []
  var positions: [Int: Int] = [:]

  /// Adds an event; returns its component when its series no longer needs it.
  mutating func add(_ event: consuming EventRead) -> ICalComponent? {
    let source = event.source
    let stream: Int
    if let known = positions[source.rootIndex] {
      stream = known
    } else {
      // A calendar's first event comes with the calendar as read so far.
      stream = streams.count
      positions[source.rootIndex] = stream
      streams.append(
        CalendarStream(
          calendar: event.calendar ?? ICalComponent("VCALENDAR"), source: source, file: file,
          fileIndex: fileIndex, defaultZone: defaultZone, workLimit: workLimit))
    }
    if let prebuilt = event.prebuilt {
      streams[stream].add(prebuilt, source: source)
    } else if let child = event.child.take() {
      return streams[stream].add(child, source: source)
    }
    return nil
  }

  /// Each calendar's series and warnings, in file order, once the whole file has been read.
  mutating func finish(_ bytes: [UInt8], roots: [ICalComponent]) -> [(
    series: [AlarmSeries], warnings: [SchedulerWarning]
  )] {
    // Each stream is finished in place: a `consuming` finish copied its builder's slots whole,
    // one per UID (seen at 100,000 events).
    var finished: [(series: [AlarmSeries], warnings: [SchedulerWarning])] = []
    for (position, stream) in positions.sorted(by: { $0.key < $1.key }) {
      finished.append(
        streams[stream].finish(bytes, calendar: roots[position], defaultZone: defaultZone))
    }
    streams = []
    return finished
  }
}

/// Hands events from the reading thread to the building one in batches, holding at most a few
/// batches, so reading ahead never builds up a tree.
///
/// Components whose series are built come back to the reading thread, which lets them go:
/// memory is then freed by the thread that allocated it. When the building thread freed them,
/// each free took the reading thread's malloc arena lock while that thread was allocating from
/// it, and both threads lost time waiting on and waking each other.
///
/// `@unchecked Sendable`: `filling` belongs to the reading thread alone; every other field is
/// reached only while holding `condition` (an `NSCondition`, a pthread mutex and condition
/// variable that ThreadSanitizer understands).
private final class ChildHandOver: @unchecked Sendable {
  private let condition = NSCondition()
  private var batches: [[EventRead]] = []
  private var filling: [EventRead] = []
  private var outcome: Result<[ICalComponent], ICalendarSyntaxError>?
  /// Components the building thread is done with, for the reading thread to let go.
  private var spent: [[ICalComponent]] = []
  /// How many events waiting in `batches` still need their series built: the building
  /// thread's backlog.
  private var rawWaiting = 0
  private static let batchSize = 256
  private static let maximumBatches = 8

  /// Queues an event (reading thread); waits while the building thread is far behind. When a
  /// batch was handed over, returns whether the building thread is behind (two batches of
  /// events wait for their series).
  func send(_ event: consuming EventRead) -> Bool? {
    filling.append(event)
    guard filling.count >= Self.batchSize else { return nil }
    var released: [[ICalComponent]] = []
    condition.lock()
    while batches.count >= Self.maximumBatches { condition.wait() }
    rawWaiting += filling.count { $0.child != nil }
    batches.append(filling)
    filling = []
    swap(&released, &spent)
    condition.signal()
    let behind = rawWaiting >= 2 * Self.batchSize
    condition.unlock()
    released.removeAll()  // outside the lock, on this thread
    return behind
  }

  /// Returns components whose series are built (building thread).
  func giveBack(_ components: consuming [ICalComponent]) {
    condition.lock()
    spent.append(components)
    condition.unlock()
  }

  /// Ends the reading (reading thread).
  func finish(_ result: Result<[ICalComponent], ICalendarSyntaxError>) {
    condition.lock()
    if !filling.isEmpty { batches.append(filling) }
    filling = []
    outcome = result
    condition.signal()
    condition.unlock()
  }

  /// The next batch, or nil once reading has ended and every batch was taken (building thread).
  func receive() -> [EventRead]? {
    condition.lock()
    defer { condition.unlock() }
    while batches.isEmpty && outcome == nil { condition.wait() }
    guard !batches.isEmpty else { return nil }
    condition.signal()
    let batch = batches.removeFirst()
    rawWaiting -= batch.count { $0.child != nil }
    return batch
  }

  /// What the reading returned (building thread, after ``receive()`` returned nil).
  func result() -> Result<[ICalComponent], ICalendarSyntaxError> {
    condition.lock()
    defer { condition.unlock() }
    return outcome ?? .success([])
  }
}

/// One VCALENDAR being read event by event: its series are built with the time zones known
/// when its first event arrived, and built again from the text if the calendar defines more
/// zones (or names its own zone) after that.
private struct CalendarStream {
  var builder: SeriesBuilder
  /// The VTIMEZONEs and X-WR-TIMEZONE the builder's times were made from.
  let zoneCount: Int
  let calendarZone: String?
  let rootName: String
  let rootIndex: Int
  /// Where every event lies in the text, for reading it again.
  var sources: [(range: Range<Int>, line: Int)] = []

  init(
    calendar: ICalComponent, source: ChildSource, file: String, fileIndex: Int,
    defaultZone: TimeZoneRules, workLimit: Int
  ) {
    builder = SeriesBuilder(
      file: file, fileIndex: fileIndex,
      times: CalendarTimes(calendar: calendar, defaultZone: defaultZone), workLimit: workLimit)
    zoneCount = calendar.components(named: "VTIMEZONE").count
    calendarZone = calendar.calendarTimeZone
    rootName = source.rootName
    rootIndex = source.rootIndex
  }

  /// Adds a component; returns it when its series no longer needs it.
  mutating func add(_ child: consuming ICalComponent, source: ChildSource) -> ICalComponent? {
    sources.append((source.range, source.line))
    return builder.add(child, source: sources.count - 1)
  }

  mutating func add(_ prebuilt: SeriesBuilder.Prebuilt, source: ChildSource) {
    sources.append((source.range, source.line))
    builder.add(prebuilt, source: sources.count - 1)
  }

  /// The series and warnings, once `calendar` (with its VTIMEZONEs) has been read whole.
  mutating func finish(_ bytes: [UInt8], calendar: ICalComponent, defaultZone: TimeZoneRules)
    -> (series: [AlarmSeries], warnings: [SchedulerWarning])
  {
    let (sources, rootName, rootIndex) = (sources, rootName, rootIndex)
    let read = { (number: Int) in
      ICalendarReader.readChild(
        bytes,
        from: ChildSource(
          range: sources[number].range, line: sources[number].line, rootName: rootName,
          rootIndex: rootIndex))
    }
    guard calendar.components(named: "VTIMEZONE").count == zoneCount,
      calendar.calendarTimeZone == calendarZone
    else {
      var again = SeriesBuilder(
        file: builder.file, fileIndex: builder.fileIndex,
        times: CalendarTimes(calendar: calendar, defaultZone: defaultZone),
        workLimit: builder.workLimit)
      for number in sources.indices {
        if let child = read(number) { again.add(child) }
      }
      return again.finish { _ in nil }
    }
    return builder.finish(reading: read)
  }
}
