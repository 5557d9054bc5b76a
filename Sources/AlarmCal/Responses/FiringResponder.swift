import ICalendar

/// What the person did with a ringing alarm: a clock app's notification actions.
public enum AlarmResponse: Sendable, Equatable {
  /// "Snooze": ring again at this instant.
  case snooze(until: Instant)
  /// "Stop": the alarm is done with.
  case dismiss
}

/// Why a response could not be written.
public struct ResponseError: Error, Sendable, CustomStringConvertible {
  /// One line naming the file and the problem.
  public let message: String
  /// Whether the file itself could not be read as iCalendar (rather than holding no such
  /// firing).
  public var isUnreadable = false

  /// The message.
  public var description: String { message }
}

/// A response written into a file's text.
public struct WrittenResponse: Sendable {
  /// The file's new text.
  public let bytes: [UInt8]
  /// The firing responded to.
  public let firing: Firing
  /// The snooze's own firing, for a snooze: the one to schedule a notification for.
  public let snooze: Firing?
}

/// Writes snoozes and dismissals into iCalendar text (RFC 9074 §6.1 and §7; Thunderbird's
/// `X-MOZ-LASTACK` and `X-MOZ-SNOOZE-TIME` in files Thunderbird wrote), changing only the
/// component that holds the alarm: every other byte of the file stays as it was.
public enum FiringResponder {
  /// How far before `now` a firing is looked for: a year of a clock app's alarms.
  public static let lookbackSeconds: Int64 = 366 * 86_400

  /// The most firings one search for an id looks at: many years of a clock app's alarms, few
  /// enough that an id found in none of them is reported in seconds, whatever the file.
  public static let searchLimit = 1 << 16

  /// How far back from `now` each step of the search reaches (a minute, an hour, a day, 31
  /// days, ``lookbackSeconds``): the nearest firings first, so a firing that just rang is
  /// found however many firings the year before it holds.
  static let searchSteps: [Int64] = [60, 3_600, 86_400, 31 * 86_400, lookbackSeconds]

  /// Writes `response` to the firing whose id is `id` into `bytes`, the text of `file`.
  ///
  /// The firing must have rung (its trigger at or before `now`): RFC 9074 acknowledges an
  /// alarm up to a time, so acknowledging one that is still to ring would also silence every
  /// firing of that alarm before it. It is looked for back from `now` in ``searchSteps``, then
  /// in the year after (to say it has not rung), among at most ``searchLimit`` firings.
  public static func respond(
    _ response: AlarmResponse, toFiring id: String, in bytes: [UInt8], file: String,
    now: Instant, zone: TimeZoneRules
  ) throws(ResponseError) -> WrittenResponse {
    let firing = try search(id: id, in: bytes, file: file, now: now, zone: zone)
    return try respond(response, to: firing, in: bytes, file: file, now: now, zone: zone)
  }

  /// Throws unless `response` can be written at `now`: only a firing that has rung can be
  /// snoozed or dismissed, and a snooze ends after `now`. The rule for files and alarm lists.
  static func checkTimes(
    of response: AlarmResponse, to firing: Firing, file: String, now: Instant
  ) throws(ResponseError) {
    guard firing.trigger <= now else {
      throw ResponseError(
        message:
          "\(file): firing \(firing.id) rings at \(firing.trigger), after the time given (\(now)); only a firing that has rung can be snoozed or dismissed"
      )
    }
    if case .snooze(let until) = response, until <= now {
      throw ResponseError(message: "\(file): the snooze must end after \(now), not at \(until)")
    }
  }

  /// Writes `response` to `firing`, found in `bytes` (the text of `file`), as
  /// ``respond(_:toFiring:in:file:now:zone:)`` does.
  public static func respond(
    _ response: AlarmResponse, to firing: Firing, in bytes: [UInt8], file: String,
    now: Instant, zone: TimeZoneRules
  ) throws(ResponseError) -> WrittenResponse {
    let id = firing.id
    try checkTimes(of: response, to: firing, file: file, now: now)
    let calendars: [ICalComponent]
    do {
      calendars = try ICalendarReader.read(bytes)
    } catch {
      throw ResponseError(message: "\(file):\(error.line): \(error.message)", isUnreadable: true)
    }
    guard let offset = firing.alarm.sourceOffset,
      let place = AlarmPlace(offset: offset, in: calendars)
    else {
      throw ResponseError(message: "\(file): the alarm of firing \(id) cannot be found in the text")
    }
    var writer = ResponseWriter(bytes: bytes, now: now, firing: firing, place: place)
    if place.isThunderbird {
      writer.writeThunderbird(response)
    } else {
      writer.writeRFC9074(response)
    }
    let edited = writer.edits.applied()
    var snooze: Firing?
    if case .snooze(let until) = response {
      snooze = snoozeFiring(in: edited, file: file, at: until, of: firing, zone: zone)
    }
    return WrittenResponse(bytes: edited, firing: firing, snooze: snooze)
  }

  /// The firing whose id is `id`, looked for back from `now` in ``searchSteps``, then in the
  /// year after it, among at most ``searchLimit`` firings.
  static func search(
    id: String, in bytes: [UInt8], file: String, now: Instant, zone: TimeZoneRules
  ) throws(ResponseError) -> Firing {
    let wanted = id.asciiUppercased
    let schedule = try schedule(of: bytes, file: file, zone: zone)
    // An id names one firing: the first match in a span is the one.
    let result = search(
      in: schedule, backFrom: now, steps: searchSteps, takingLatest: false,
      matches: { $0.id.description == wanted })
    switch result {
    case .found(let firing), .later(let firing):
      // A firing still to ring is returned for the caller to say so.
      return firing
    case .stopped(let searchedFrom):
      throw ResponseError(
        message:
          "\(file): no firing with id \(id) from \(searchedFrom) to \(now), and a search stops after \(searchLimit) firings; answer at a moment just after the firing rang"
      )
    case .none:
      throw ResponseError(
        message: "\(file): no firing with id \(id) in the year before or after \(now)")
    }
  }

  /// How a search back from a moment ended.
  enum SearchResult {
    /// A firing that matches, at or before the moment.
    case found(Firing)
    /// None at or before the moment; this one matches in the year after it.
    case later(Firing)
    /// The limit was reached with none found from `searchedFrom` to the moment.
    case stopped(searchedFrom: Instant)
    /// None in the year before or after the moment.
    case none
  }

  /// Looks for a firing that `matches` back from `moment` in `steps` (seconds before it,
  /// growing), among at most ``searchLimit`` firings: in the nearest span that holds one, the
  /// first, or the latest when `takingLatest`. Having found none at or before `moment`, it
  /// looks in the year after it.
  static func search(
    in schedule: FiringSchedule, backFrom moment: Instant, steps: [Int64], takingLatest: Bool,
    matches: (Firing) -> Bool
  ) -> SearchResult {
    var left = searchLimit
    var end = moment.adding(seconds: 1)
    for step in steps {
      let from = moment.adding(seconds: -step)
      if let found = match(
        in: schedule, from: from, to: end, left: &left, takingLatest: takingLatest,
        matches: matches)
      {
        return .found(found)
      }
      guard left > 0 else { return .stopped(searchedFrom: min(end, moment)) }
      end = from
    }
    let after = moment.adding(seconds: lookbackSeconds + 1)
    if let found = match(
      in: schedule, from: moment.adding(seconds: 1), to: after, left: &left, takingLatest: false,
      matches: matches)
    {
      return .later(found)
    }
    return .none
  }

  /// The firings of `bytes`, read, none handed out yet: each step of a search starts a copy.
  static func schedule(of bytes: [UInt8], file: String, zone: TimeZoneRules)
    throws(ResponseError) -> FiringSchedule
  {
    var schedule = FiringSchedule(defaultZone: zone, includeAcknowledged: true)
    do {
      try schedule.read(bytes, file: file)
    } catch {
      throw ResponseError(message: "\(file):\(error.line): \(error.message)", isUnreadable: true)
    }
    return schedule
  }

  /// The first (or, when `takingLatest`, the last) firing in `from..<to` that `matches`,
  /// looking at no more than `left` firings and counting those it looks at off it.
  private static func match(
    in schedule: FiringSchedule, from: Instant, to: Instant, left: inout Int,
    takingLatest: Bool, matches: (Firing) -> Bool
  ) -> Firing? {
    guard left > 0, from < to else { return nil }
    var found: Firing?
    for firing in schedule.firings(from: from, to: to, limit: left) {
      left -= 1
      if matches(firing) {
        guard takingLatest else { return firing }
        found = firing
      }
    }
    return found
  }

  /// The snooze alarm's firing at `until` in the edited text, if it is there.
  static func snoozeFiring(
    in bytes: [UInt8], file: String, at until: Instant, of firing: Firing, zone: TimeZoneRules
  ) -> Firing? {
    guard let schedule = try? schedule(of: bytes, file: file, zone: zone) else { return nil }
    let window = schedule.firings(from: until, to: until.adding(seconds: 1), limit: searchLimit)
    return window.first { $0.isSnooze && $0.uid == firing.uid }
  }
}

/// Where a firing's alarm is in the component trees: the VEVENT or VTODO that holds it, and
/// the VALARM (or Thunderbird's snooze property).
struct AlarmPlace {
  /// The VCALENDAR.
  let calendar: ICalComponent
  /// The VEVENT or VTODO holding the alarm: a master or a RECURRENCE-ID override.
  let item: ICalComponent
  /// The VALARM that rang; nil for a Thunderbird snooze property.
  let valarm: ICalComponent?

  /// Finds the component read from the bytes at `offset`.
  init?(offset: Int, in calendars: [ICalComponent]) {
    for calendar in calendars {
      for item in calendar.components where item.sourceRange?.contains(offset) == true {
        self.calendar = calendar
        self.item = item
        valarm = item.components.first { $0.sourceRange?.lowerBound == offset }
        if valarm == nil && !item.properties.contains(where: { $0.sourceOffset == offset }) {
          return nil
        }
        return
      }
    }
    return nil
  }

  /// Whether Thunderbird wrote the item: it has `X-MOZ-` properties (python icalendar's test
  /// too), so Thunderbird's own snooze and acknowledgement are written.
  var isThunderbird: Bool { item.properties.contains { $0.name.hasPrefix("X-MOZ-") } }
}
