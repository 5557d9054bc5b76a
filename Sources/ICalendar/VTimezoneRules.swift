/// The offsets a VTIMEZONE component defines, RFC 5545 §3.6.5: each STANDARD or DAYLIGHT
/// observance starts at its DTSTART (a wall-clock reading in TZOFFSETFROM) and at every RRULE
/// and RDATE recurrence of it, and from then on TZOFFSETTO is in force.
public struct VTimezoneRules: ZoneOffsets {
  /// The TZID.
  public let tzid: String
  /// Offset changes in time order: from each instant on, the offset in force.
  public let transitions: [(instant: Instant, offset: Int)]
  /// The offset before the first transition (the earliest observance's TZOFFSETFROM).
  public let initialOffset: Int
  /// The last onset the definition gives when no observance recurs without end and the offset
  /// changes (khal's cut-down definitions): past it the file says nothing new. Nil when one
  /// recurs without end, or when the definition has one offset throughout (a zone without
  /// daylight saving time, as alarmcal writes Asia/Tokyo): that offset holds from its onset on.
  public let definedUntil: Instant?

  /// The years observances are expanded through; later readings use the last offset known.
  public static let lastExpandedYear = 2200

  /// Reads a VTIMEZONE; nil when it has no TZID or no observance with usable offsets.
  public init?(_ component: ICalComponent) {
    guard component.name == "VTIMEZONE", let tzid = component.property("TZID")?.value else {
      return nil
    }
    var changes: [(instant: Instant, offset: Int, from: Int)] = []
    guard
      let end = LocalDate(year: Self.lastExpandedYear, month: 12, day: 31).map({
        LocalDateTime($0, .midnight)
      })
    else { return nil }
    var endless = false
    for observance in component.components
    where observance.name == "STANDARD" || observance.name == "DAYLIGHT" {
      guard let fromText = observance.property("TZOFFSETFROM")?.value,
        let toText = observance.property("TZOFFSETTO")?.value,
        let from = UTCOffsetText.parse(fromText), let to = UTCOffsetText.parse(toText),
        let startProperty = observance.property("DTSTART"),
        let start = DateTimeValue(property: startProperty)?.local
      else { continue }
      var onsets = [start]
      if let text = observance.property("RRULE")?.value,
        let rule = try? RecurrenceRule(parsing: text)
      {
        // alarmcal's own iterator: bounded work, even for a hostile observance rule.
        if rule.count == nil && rule.until == nil { endless = true }
        var iterator = RecurrenceIterator(rule: rule, start: start, workLimit: 100_000)
        onsets = []
        while onsets.count < 20_000, let onset = iterator.next(), onset <= end {
          onsets.append(onset)
        }
      }
      for rdate in observance.properties(named: "RDATE") {
        for text in rdate.value.split(separator: ",") {
          if let value = DateTimeValue(text: String(text)) { onsets.append(value.local) }
        }
      }
      for onset in onsets {
        changes.append((Instant(secondsSince1970: onset.secondsSince1970 - Int64(from)), to, from))
      }
    }
    guard !changes.isEmpty else { return nil }
    changes.sort { $0.instant < $1.instant }
    self.tzid = tzid
    let initial = changes[0].from
    initialOffset = initial
    transitions = changes.map { ($0.instant, $0.offset) }
    let oneOffset = changes.allSatisfy { $0.offset == initial && $0.from == initial }
    definedUntil = endless || oneOffset ? nil : changes.last?.instant
  }

  /// The offset in force at an instant.
  public func offset(at instant: Instant) -> Int {
    offset(after: transitionCount(atOrBefore: instant))
  }

  /// ``instantFromOffsets(for:)`` with one search where it makes four: when no transition lies
  /// within a day either side of the reading (nearly always), the offset a day before is the
  /// offset.
  public func instant(for local: LocalDateTime) -> Instant {
    let asUTC = local.secondsSince1970
    let count = transitionCount(atOrBefore: Instant(secondsSince1970: asUTC - 86_400))
    guard count == transitions.count || transitions[count].instant.secondsSince1970 > asUTC + 86_400
    else { return instantFromOffsets(for: local) }
    return Instant(secondsSince1970: asUTC - Int64(offset(after: count)))
  }

  /// How many transitions are at or before `instant` (binary search).
  private func transitionCount(atOrBefore instant: Instant) -> Int {
    var low = 0
    var high = transitions.count
    while low < high {
      let middle = (low + high) / 2
      if transitions[middle].instant <= instant { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The offset in force after the first `count` transitions.
  private func offset(after count: Int) -> Int {
    count == 0 ? initialOffset : transitions[count - 1].offset
  }
}
