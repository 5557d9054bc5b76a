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

  /// Writes `response` to the firing whose id is `id` into `bytes`, the text of `file`.
  ///
  /// The firing must have rung (its trigger at or before `now`): RFC 9074 acknowledges an
  /// alarm up to a time, so acknowledging one that is still to ring would also silence every
  /// firing of that alarm before it.
  public static func respond(
    _ response: AlarmResponse, toFiring id: String, in bytes: [UInt8], file: String,
    now: Instant, zone: TimeZoneRules
  ) throws(ResponseError) -> WrittenResponse {
    // One pass over the year before and the year after `now`: it stops at the firing, so a
    // firing that has rung costs no look ahead.
    let wanted = id.asciiUppercased
    guard
      let firing = try find(
        in: bytes, file: file, from: now.adding(seconds: -lookbackSeconds),
        to: now.adding(seconds: lookbackSeconds + 1), zone: zone,
        where: { $0.id.description == wanted })
    else {
      throw ResponseError(
        message: "\(file): no firing with id \(id) in the year before or after \(now)")
    }
    guard firing.trigger <= now else {
      throw ResponseError(
        message:
          "\(file): firing \(id) rings at \(firing.trigger), after the time given (\(now)); only a firing that has rung can be snoozed or dismissed"
      )
    }
    if case .snooze(let until) = response, until <= now {
      throw ResponseError(message: "\(file): the snooze must end after \(now), not at \(until)")
    }
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
      let after = try? find(
        in: edited, file: file, from: until, to: until.adding(seconds: 1), zone: zone
      ) { $0.isSnooze && $0.uid == firing.uid }
      snooze = after
    }
    return WrittenResponse(bytes: edited, firing: firing, snooze: snooze)
  }

  /// The first firing in `from..<to` that `matches`, acknowledged ones included.
  private static func find(
    in bytes: [UInt8], file: String, from: Instant, to: Instant, zone: TimeZoneRules,
    where matches: (Firing) -> Bool
  ) throws(ResponseError) -> Firing? {
    var schedule = FiringSchedule(defaultZone: zone, includeAcknowledged: true)
    do {
      try schedule.read(bytes, file: file)
    } catch {
      throw ResponseError(message: "\(file):\(error.line): \(error.message)", isUnreadable: true)
    }
    schedule.startFirings(from: from, to: to, limit: nil)
    var batch = FiringBatch()
    repeat {
      batch.removeAll()
      schedule.nextFirings(max: 256, into: &batch)
      for index in 0..<batch.count where matches(batch[index]) { return batch[index] }
    } while !batch.isEmpty
    return nil
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
