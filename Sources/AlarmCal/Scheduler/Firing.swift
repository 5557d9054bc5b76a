import ICalendar

/// One moment an alarm goes off: the trigger of one VALARM for one instance, or one of its
/// REPEAT re-rings.
public struct Firing: Equatable, Sendable {
  /// When it goes off.
  public let trigger: Instant
  /// The component's UID.
  @inlinable public var uid: String { origin.uid }
  /// Where the component comes from, shared by its series' firings: one reference to count
  /// when a firing is copied, and no count shared by every series of a file.
  @usableFromInline let origin: FiringOrigin
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
  @inlinable public var file: String { origin.file }
  /// The 0-based position of the file among the inputs, for ordering ties.
  public var fileIndex: Int { origin.fileIndex }
  /// Identifies the VALARM inside its component (its RFC 9074 UID, else its position).
  let alarmKey: String
  /// A stable identifier: the same for the same firing across runs and machines. Derived when
  /// asked for, so firings that are never printed cost no hashing.
  public var id: String {
    String(asciiCount: Self.idLength, writeID)
  }

  /// The length of ``id`` in bytes.
  public static let idLength = AlarmIdentifier.Hasher.identifierLength

  /// Stores ``id``'s 36 ASCII bytes at `start`, for output written straight into memory.
  public func writeID(to start: UnsafeMutablePointer<UInt8>) {
    var clock = ReadingWriter()
    writeID(to: start, clock: &clock)
  }

  /// ``writeID(to:)`` with a writer that remembers the last day it wrote (a printer writing
  /// firings in time order passes the same one each time).
  public func writeID(to start: UnsafeMutablePointer<UInt8>, clock: inout ReadingWriter) {
    // The hash of the UTF-8 of uid NUL recurrence-id NUL alarm-key NUL repeat-index, fed piece
    // by piece: ids are promised stable, so these bytes must never change.
    var hasher = origin.idPrefix
    switch recurrenceID {
    case .instant(let instant):
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Instant.descriptionLength) {
        guard let start = $0.baseAddress else { return }
        clock.write(secondsSince1970: instant.secondsSince1970, to: start)
        start[LocalDateTime.descriptionLength] = UInt8(ascii: "Z")
        hasher.add(UnsafeBufferPointer($0))
      }
    case .date(let date): hasher.add(date.description)
    case nil: break
    }
    hasher.add(0)
    hasher.add(alarmKey)
    hasher.add(0)
    if repeatIndex >= 0, repeatIndex < 10 {
      hasher.add(UInt8(ascii: "0") + UInt8(repeatIndex))
    } else {
      hasher.add(String(repeatIndex))
    }
    hasher.writeIdentifier(to: start)
  }

  /// Whether an ACKNOWLEDGED (or X-MOZ-LASTACK) time at or after the trigger covers it.
  public let acknowledged: Bool

  /// Equal when every field is: the same firing of the same alarm.
  public static func == (a: Firing, b: Firing) -> Bool {
    a.trigger == b.trigger && a.uid == b.uid && a.recurrenceID == b.recurrenceID
      && a.eventStart == b.eventStart && a.summary == b.summary && a.action == b.action
      && a.repeatIndex == b.repeatIndex && a.file == b.file && a.fileIndex == b.fileIndex
      && a.alarmKey == b.alarmKey && a.acknowledged == b.acknowledged
  }

  /// The tie-breaking order: time, then file, UID, recurrence id and repeat index.
  public static func precedes(_ a: Firing, _ b: Firing) -> Bool {
    if a.trigger != b.trigger { return a.trigger < b.trigger }
    if a.fileIndex != b.fileIndex { return a.fileIndex < b.fileIndex }
    if a.uid != b.uid { return a.uid < b.uid }
    let ra = a.recurrenceID?.sortKey ?? Int64.min
    let rb = b.recurrenceID?.sortKey ?? Int64.min
    if ra != rb { return ra < rb }
    if a.repeatIndex != b.repeatIndex { return a.repeatIndex < b.repeatIndex }
    return a.id < b.id
  }
}

/// The file and UID of one series, held once for all of its firings.
@usableFromInline final class FiringOrigin: Sendable {
  @usableFromInline let file: String
  let fileIndex: Int
  @usableFromInline let uid: String
  /// The id hash of the series' firings after their common start, the UID and a NUL.
  let idPrefix: AlarmIdentifier.Hasher

  /// `identity` is what firing ids hash in place of the UID: the UID itself, or for a
  /// component without one, an identity derived from its content.
  init(file: String, fileIndex: Int, uid: String, identity: String? = nil) {
    self.file = file
    self.fileIndex = fileIndex
    self.uid = uid
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
