import ICalendar

/// What import produced: the alarms, every item it could not keep, and what the user should
/// know about what it kept.
public struct ImportResult: Equatable, Sendable {
  /// The alarms, in file order.
  public var alarms: [Alarm]
  /// The tasks (VTODOs with a deadline), in file order.
  public var tasks: [ToDo] = []
  /// One entry per item that was not kept, in file order.
  public var losses: [ImportLoss]
  /// Kept items the user should know about (never ringing again, a made-up id, an older
  /// revision passed over), in file order.
  public var warnings: [ImportWarning] = []
}

/// Why a calendar file could not be imported at all.
public struct AlarmImportError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file name as the user gave it.
  public let file: String
  /// The physical line, if known.
  public let line: Int?
  /// What is wrong.
  public let message: String

  /// `file.ics:LINE: message`.
  public var description: String {
    (line.map { "\(file):\($0)" } ?? file) + ": " + message
  }
}

/// Maps VEVENTs with VALARMs to alarms, and VTODOs to tasks (see `CalendarMapper+Tasks.swift`).
///
/// Kept exactly: weekly rules with plain BYDAY, daily rules (optionally with BYDAY), single
/// instances (instances without their series too), triggers relative to the start or end (the
/// ring time and weekdays shift with the offset), several alarms per event (one alarm each).
/// Reported with a loss line: rules a clock cannot repeat (other frequencies, INTERVAL>1,
/// COUNT, UNTIL, other BY parts, RDATE), EXDATEs and moved instances (the alarm is kept, the
/// exception is not), absolute triggers on series, non-ringing actions (EMAIL, ...),
/// REPEAT/DURATION re-rings, the completion of a task without a deadline, and lines that could
/// not be read.
public struct AlarmImporter: Sendable {
  /// The file name used in messages.
  public let fileName: String
  /// The zone for floating and all-day times when the calendar names none (`--tz`).
  public let defaultTimeZone: String
  /// The moment of the import: a series that starts after it loses its start date.
  public let now: Instant

  /// Creates an importer.
  public init(fileName: String, defaultTimeZone: String, now: Instant) {
    self.fileName = fileName
    self.defaultTimeZone = defaultTimeZone
    self.now = now
  }

  /// Reads iCalendar text with ``ICalendarReader`` and imports it. The reader keeps every line
  /// (libical's parser drops properties it does not know, such as RFC 9074's PROXIMITY) for the
  /// mapping to use or report.
  public func importAlarms(fromText text: String) throws(AlarmImportError) -> ImportResult {
    try importAlarms(fromUTF8: Array(text.utf8))
  }

  /// ``importAlarms(fromText:)`` for text already in UTF-8 bytes (checked to be UTF-8), read
  /// without a copy.
  public func importAlarms(fromUTF8 bytes: [UInt8]) throws(AlarmImportError) -> ImportResult {
    let components: [ICalComponent]
    do {
      components = try ICalendarReader.read(bytes)
    } catch {
      throw AlarmImportError(file: fileName, line: error.line, message: error.message)
    }
    return try importAlarms(from: components)
  }

  /// Imports parsed top-level components (each should be a VCALENDAR).
  public func importAlarms(from components: [ICalComponent]) throws(AlarmImportError)
    -> ImportResult
  {
    let calendars = components.filter { $0.name == "VCALENDAR" }
    guard !calendars.isEmpty else {
      throw AlarmImportError(
        file: fileName, line: components.first?.line,
        message: "no VCALENDAR component: this is not an iCalendar file")
    }
    var result = ImportResult(alarms: [], losses: [])
    for stray in components where stray.name == "VEVENT" || stray.name == "VTODO" {
      result.losses.append(
        ImportLoss(
          file: fileName, line: stray.line, kind: ComponentKind.noun(stray.name),
          uid: stray.propertyValue(uppercased: "UID").map(TextEscaping.unescape) ?? "",
          summary: stray.propertyValue(uppercased: "SUMMARY").map(TextEscaping.unescape),
          reason: "stands outside any VCALENDAR", outcome: .skipped))
    }
    let current = Self.currentMasters(of: calendars)
    var firstOrder = 0
    for (number, calendar) in calendars.enumerated() {
      var mapper = CalendarMapper(importer: self, calendar: calendar)
      mapper.firstOrder = firstOrder
      mapper.currentElsewhere = current
      mapper.calendarNumber = number
      firstOrder += calendar.components.count
      mapper.run()
      result.alarms.append(taking: &mapper.alarms)
      result.tasks.append(taking: &mapper.tasks)
      result.losses.append(taking: &mapper.losses)
      result.warnings.append(taking: &mapper.warnings)
    }
    // One report in file order; items of one line keep the order they were found in.
    result.losses = Self.inFileOrder(result.losses, line: \.line)
    result.warnings = Self.inFileOrder(result.warnings, line: \.line)
    return result
  }

  /// The current master (RFC 5546 §2.1.5) of each UID that more than one of `calendars`
  /// holds: iTIP messages and some exports put each revision in a calendar of its own.
  static func currentMasters(of calendars: [ICalComponent]) -> CurrentAcrossCalendars {
    let items = calendars.enumerated().lazy.flatMap { number, calendar in
      calendar.components.lazy.filter { $0.name == "VEVENT" || $0.name == "VTODO" }.map { item in
        CurrentAcrossCalendars.Item(
          uid: item.propertyValue(uppercased: "UID").map(TextEscaping.unescape) ?? "",
          isOverride: item.hasProperty(uppercased: "RECURRENCE-ID"), calendar: number,
          revision: ComponentRevision(of: item, order: 0), line: item.line)
      }
    }
    return CurrentAcrossCalendars(calendarCount: calendars.count, items: items)
  }

  private static func inFileOrder<Item>(_ items: [Item], line: (Item) -> Int?) -> [Item] {
    items.enumerated().sorted {
      (line($0.element) ?? 0, $0.offset) < (line($1.element) ?? 0, $1.offset)
    }
    .map(\.element)
  }
}

/// A reason for a loss line.
struct LossReason: Error {
  let text: String
  init(_ text: String) { self.text = text }
}

/// An item's RFC 9074 state, for the alarms made from it: acknowledgements (ACKNOWLEDGED, or
/// Thunderbird's X-MOZ-LASTACK) and pending snoozes (snooze alarms, or X-MOZ-SNOOZE-TIME).
struct AlarmState {
  /// X-MOZ-LASTACK.
  let lastAck: Instant?
  /// The latest X-MOZ-SNOOZE-TIME (of any instance): Thunderbird snoozes all of the item's
  /// alarms.
  let mozillaSnooze: Instant?
  /// The latest unacknowledged trigger of the snooze alarms of each alarm UID, and that snooze
  /// alarm's own UID.
  let snoozes: [String: (trigger: Instant, uid: String?)]
  /// Places ACKNOWLEDGED values: UTC as RFC 9074 §6.1 asks, or in a zone as some clients write.
  let placer: TimePlacer
  /// Whether the item has snooze alarms at all (nearly none has).
  let hasSnoozeAlarms: Bool

  init(_ item: ICalComponent, placer: TimePlacer) {
    self.placer = placer
    lastAck = AlarmComponent.mozillaLastAck(of: item).flatMap(placer.instant)
    var mozillaSnooze: Instant?
    for snooze in AlarmComponent.mozillaSnoozes(of: item) {
      guard let time = placer.instant(snooze.time) else { continue }
      mozillaSnooze = max(mozillaSnooze ?? time, time)
    }
    self.mozillaSnooze = mozillaSnooze
    var snoozes: [String: (trigger: Instant, uid: String?)] = [:]
    var hasSnoozeAlarms = false
    for valarm in item.components where valarm.name == "VALARM" {
      guard let of = AlarmComponent.snoozeOf(valarm) else { continue }
      hasSnoozeAlarms = true
      let alarm = AlarmComponent(valarm, in: item)
      guard case .success(.absolute(.utc(let local))) = alarm.trigger else { continue }
      let trigger = Instant(utc: local)
      let acknowledged = alarm.acknowledged.flatMap(placer.instant)
      if AlarmComponent.covers(acknowledged, ringAt: trigger) { continue }
      if let latest = snoozes[of], latest.trigger >= trigger { continue }
      snoozes[of] = (trigger, AlarmComponent.uid(of: valarm))
    }
    self.snoozes = snoozes
    self.hasSnoozeAlarms = hasSnoozeAlarms
  }

  /// Sets the alarm's UID, acknowledgement and pending snooze from `valarm`. Thunderbird's
  /// snooze (X-MOZ-SNOOZE-TIME) is the item's, one ring for all its alarms: it goes to the
  /// item's first alarm (`isFirst`) alone, so a list made of the item rings it once.
  func apply(to alarm: inout Alarm, from valarm: ICalComponent, isFirst: Bool) {
    let uid = AlarmComponent.uid(of: valarm)
    if let uid, uid != AlarmIdentifier.alarmUID(forAlarm: alarm.id) { alarm.alarmUID = uid }
    let acknowledged = AlarmComponent.acknowledged(of: valarm).flatMap(placer.instant)
    alarm.acknowledgedAt = AlarmComponent.acknowledgement(own: acknowledged, itemLastAck: lastAck)
    let pending = uid.flatMap { snoozes[$0] }
    var snooze = pending?.trigger
    if isFirst, let mozillaSnooze, !AlarmComponent.covers(lastAck, ringAt: mozillaSnooze) {
      snooze = max(snooze ?? mozillaSnooze, mozillaSnooze)
    }
    alarm.snoozedUntil = snooze
    // The snooze alarm's UID, kept where an export would not derive the same one.
    if let pending, pending.trigger == snooze, let snoozeUID = pending.uid,
      snoozeUID != alarm.exportedSnoozeUID
    {
      alarm.snoozeUID = snoozeUID
    }
  }

  /// The UIDs that snooze alarms of `valarms` name and no alarm of them has.
  func snoozesOfNoAlarm(_ valarms: [ICalComponent]) -> [String] {
    guard hasSnoozeAlarms else { return [] }
    let uids = Set(valarms.compactMap(AlarmComponent.uid))
    return valarms.compactMap(AlarmComponent.snoozeOf).filter { !uids.contains($0) }
  }
}
