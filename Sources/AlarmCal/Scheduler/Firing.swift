import ICalendar

/// One moment an alarm goes off: the trigger of one VALARM for one instance, or one of its
/// REPEAT re-rings.
public struct Firing: Equatable, Sendable {
  /// When it goes off.
  public let trigger: Instant
  /// The file and UID of its series, held once for all of the series' firings.
  private let origin: FiringOrigin
  /// The component's UID.
  public var uid: String { origin.uid }
  /// What rang: `VEVENT` or `VTODO`.
  public var component: String { origin.component }
  /// The instance's original start: nil for a component that does not recur.
  public let recurrenceID: RecurrenceID?
  /// The instance's start (for all-day instances, local midnight in the zone they are read in).
  public let eventStart: Instant
  /// The instance's SUMMARY, if any.
  public let summary: String?
  /// The VALARM's ACTION (`AUDIO`, `DISPLAY`, `EMAIL`, ...).
  public let action: String
  /// 0 for the trigger itself, k for the k-th REPEAT.
  public let repeatIndex: Int
  /// The file as given on the command line.
  public var file: String { origin.file }
  /// The 0-based position of the file among the inputs, for ordering ties.
  public var fileIndex: Int { origin.fileIndex }
  /// The id hash of the series' firings after their common start (see ``FiringOrigin``).
  private var idPrefix: AlarmIdentifier.Hasher { origin.idPrefix }
  /// Which alarm of its component rang.
  let alarm: AlarmIdentity
  /// The RFC 9074 UID of the VALARM that rang, if it has one.
  public var alarmUID: String? { alarm.uid }
  /// For a firing of an RFC 9074 snooze alarm, the UID of the alarm it snoozes.
  public var snoozeOf: String? { alarm.snoozeOf }
  /// Whether the firing is a snooze: an RFC 9074 snooze alarm or Thunderbird's.
  public var isSnooze: Bool { alarm.isSnooze }
  /// The sound, Snooze and snooze length its alarm offers (a snooze's: its alarm's).
  public var settings: AlarmSettings { alarm.settings }
  /// Whether an ACKNOWLEDGED (or X-MOZ-LASTACK) time at or after the trigger covers it.
  public let acknowledged: Bool

  /// A stable identifier: the same for the same firing across runs and machines. Worked out
  /// when asked for, so firings that are never printed cost no hashing.
  public var id: FiringID { idSeed.id(recurrenceID: recurrenceID, repeatIndex: repeatIndex) }

  /// The values that are this firing's own, not its alarm's or its series'.
  public var ownValues: FiringOwnValues {
    FiringOwnValues(
      trigger: trigger, recurrenceID: recurrenceID, eventStart: eventStart,
      repeatIndex: repeatIndex, acknowledged: acknowledged)
  }

  /// What the id hashes besides the instance and the repeat: the same for every firing of one
  /// alarm of one series.
  public var idSeed: FiringIDSeed { FiringIDSeed(prefix: idPrefix, alarmKey: alarm.key) }

  init(
    trigger: Instant, origin: FiringOrigin, recurrenceID: RecurrenceID?, eventStart: Instant,
    summary: String?, action: String, repeatIndex: Int, alarm: AlarmIdentity, acknowledged: Bool
  ) {
    self.trigger = trigger
    self.origin = origin
    self.recurrenceID = recurrenceID
    self.eventStart = eventStart
    self.summary = summary
    self.action = action
    self.repeatIndex = repeatIndex
    self.alarm = alarm
    self.acknowledged = acknowledged
  }

  /// Equal when every field is: the same firing of the same alarm.
  public static func == (a: Firing, b: Firing) -> Bool {
    a.trigger == b.trigger && a.uid == b.uid && a.recurrenceID == b.recurrenceID
      && a.eventStart == b.eventStart && a.summary == b.summary && a.action == b.action
      && a.repeatIndex == b.repeatIndex && a.file == b.file && a.fileIndex == b.fileIndex
      && a.alarm == b.alarm && a.acknowledged == b.acknowledged
  }

  /// Whether `a` is listed before `b`: the one definition of the order firings are listed in.
  /// In turn:
  /// 1. the earlier trigger;
  /// 2. the earlier series: the file's place among the inputs, then the UID
  ///    (``FiringOrigin/precedes(_:_:)``);
  /// 3. within one file and UID, the earlier place in the series (``SeriesPlace``: recurrence
  ///    id, then repeat index: ``placedBefore(_:_:)``), then the id's words
  ///    (``idPrecedes(_:_:)``).
  ///
  /// Firings equal in all of these (one UID read as several series) are listed in the order
  /// their series were read in (``listedBefore(_:walk:_:walk:)``). The scheduler's fast forms
  /// are made from these levels, not written again: `FiringSchedule` ranks series by sorting
  /// them with level 2, `WalkQueue` and `FiringSlice` compare level 1 as seconds and level 2 as
  /// that rank before calling ``listedBefore(_:walk:_:walk:)``, and `SeriesWalk` orders what
  /// it finds by level 3.
  public static func precedes(_ a: Firing, _ b: Firing) -> Bool {
    if a.trigger != b.trigger { return a.trigger < b.trigger }
    if FiringOrigin.precedes(a.origin, b.origin) { return true }
    if FiringOrigin.precedes(b.origin, a.origin) { return false }
    return a.followsWithinSeries(b)
  }

  /// Whether `a`, of walk `walkA`, is listed before `b`, of walk `walkB`, when both have one
  /// trigger, file and UID (one UID read as several series): as within one series, then in
  /// the order the walks were read in.
  static func listedBefore(_ a: Firing, walk walkA: Int, _ b: Firing, walk walkB: Int) -> Bool {
    if a.followsWithinSeries(b) { return true }
    return !b.followsWithinSeries(a) && walkA < walkB
  }

  /// ``precedes(_:_:)`` for two firings of one file and UID (level 3).
  func followsWithinSeries(_ b: Firing) -> Bool {
    Self.placedBefore(self, b) ?? Self.idPrecedes(id, b.id)
  }

  /// Level 3 of ``precedes(_:_:)`` before the ids, for two firings of one file and UID:
  /// trigger, then the instance's original start (none first; an all-day instance at its
  /// date's start), then the repeat index; nil when all are equal (``idPrecedes(_:_:)``
  /// decides then).
  static func placedBefore<Place: SeriesPlace>(_ a: Place, _ b: Place) -> Bool? {
    if a.trigger != b.trigger { return a.trigger < b.trigger }
    let ra = a.recurrenceID?.sortKey ?? Int64.min
    let rb = b.recurrenceID?.sortKey ?? Int64.min
    if ra != rb { return ra < rb }
    if a.repeatIndex != b.repeatIndex { return a.repeatIndex < b.repeatIndex }
    return nil
  }

  /// The end of level 3 of ``precedes(_:_:)``: the ids' text is their two words in hex, fixed
  /// width, so it sorts as the words do.
  static func idPrecedes(_ x: FiringID, _ y: FiringID) -> Bool {
    (x.high, x.low) < (y.high, y.low)
  }
}

/// What places a firing among the firings of its file and UID before its id is read
/// (``Firing/placedBefore(_:_:)``): a firing, or one a walk has found and not
/// made yet.
protocol SeriesPlace {
  /// When it goes off.
  var trigger: Instant { get }
  /// Its instance's original start: nil for a component that does not recur.
  var recurrenceID: RecurrenceID? { get }
  /// 0 for the trigger itself, k for the k-th REPEAT.
  var repeatIndex: Int { get }
}

extension Firing: SeriesPlace {}

/// What a firing's id hashes besides its instance and repeat index: its series and its alarm.
public struct FiringIDSeed: Sendable {
  /// The hash after the series' identity (its UID) and a NUL.
  fileprivate let prefix: AlarmIdentifier.Hasher
  /// Which alarm of the component it is (``AlarmIdentity/key``).
  fileprivate let alarmKey: String

  init(prefix: AlarmIdentifier.Hasher, alarmKey: String) {
    self.prefix = prefix
    self.alarmKey = alarmKey
  }

  /// The id of the firing of this series and alarm for the instance `recurrenceID` (nil: one
  /// that does not recur) and the repeat `repeatIndex`.
  public func id(recurrenceID: RecurrenceID?, repeatIndex: Int) -> FiringID {
    // The hash of the UTF-8 of uid NUL recurrence-id NUL alarm-key NUL repeat-index: ids are
    // promised stable, so these bytes must never change.
    var hasher = prefix
    switch recurrenceID {
    case .instant(let instant): hasher.add(instant)
    case .date(let date): hasher.add(date.description)
    case nil: break
    }
    hasher.add(0)
    hasher.add(alarmKey)
    hasher.add(0)
    hasher.addDecimal(repeatIndex)
    return FiringID(hasher)
  }

  /// The identifier of `plan`'s repeating request for this series and alarm, repeat
  /// `repeatIndex`, on `weekday` at `time`: the series' identity (its UID, or its content
  /// when it has none), so two series never share one.
  func weeklyID(repeatIndex: Int, weekday: Weekday, time: LocalTime) -> FiringID {
    var hasher = prefix
    hasher.add(alarmKey)
    hasher.add(0)
    hasher.addDecimal(repeatIndex)
    hasher.add(0)
    hasher.add("weekly")
    hasher.add(0)
    hasher.addDecimal(weekday.rawValue)
    hasher.add(0)
    hasher.add(time.description)
    return FiringID(hasher)
  }
}

/// A firing's stable identifier: 128 bits of a hash, written as a version 8 UUID
/// (`8-4-4-4-12` upper-case hex digits).
public struct FiringID: Hashable, Sendable, CustomStringConvertible {
  /// The first 64 bits, the version bits set.
  public let high: UInt64
  /// The last 64 bits, the variant bits set.
  public let low: UInt64

  init(_ hasher: AlarmIdentifier.Hasher) {
    (high, low) = hasher.uuidWords
  }

  /// `8-4-4-4-12` upper-case hex digits.
  public var description: String { AlarmIdentifier.uuidText(high, low) }
}

/// The file and UID of one series, held once for all of its firings.
final class FiringOrigin: Sendable {
  let file: String
  let fileIndex: Int
  let uid: String
  /// Whether the series is a VTODO's (else a VEVENT's).
  private let isTask: Bool
  /// `VEVENT` or `VTODO`.
  var component: String { isTask ? "VTODO" : "VEVENT" }
  /// The id hash of the series' firings after their common start, the UID and a NUL.
  let idPrefix: AlarmIdentifier.Hasher

  /// Level 2 of ``Firing/precedes(_:_:)``: whether `a`'s firings are listed before `b`'s at
  /// one trigger, by the file's place among the inputs, then the UID; neither is for one file
  /// and UID.
  static func precedes(_ a: FiringOrigin, _ b: FiringOrigin) -> Bool {
    (a.fileIndex, a.uid) < (b.fileIndex, b.uid)
  }

  /// `identity` is what firing ids hash in place of the UID: the UID itself, or for a
  /// component without one, an identity derived from its content.
  init(file: String, fileIndex: Int, uid: String, component: String, identity: String? = nil) {
    self.file = file
    self.fileIndex = fileIndex
    self.uid = uid
    isTask = component == "VTODO"
    var hasher = AlarmIdentifier.Hasher()
    hasher.add(identity ?? uid)
    hasher.add(0)
    idPrefix = hasher
  }
}

/// The original start of a recurrence instance: a UTC instant, or a date for all-day instances.
public enum RecurrenceID: Hashable, Sendable {
  /// A DATE-TIME instance.
  case instant(Instant)
  /// An all-day instance.
  case date(LocalDate)

  /// Orders recurrence ids in time (an all-day instance at its date's start).
  var sortKey: Int64 {
    switch self {
    case .instant(let instant): instant.secondsSince1970
    case .date(let date): Int64(date.daysSince1970) * 86_400
    }
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` or `YYYY-MM-DD`.
  public var text: String {
    switch self {
    case .instant(let instant): instant.description
    case .date(let date): date.description
    }
  }
}
