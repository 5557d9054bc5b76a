import ICalendar

/// What one VALARM says (RFC 5545 §3.6.6 and §3.8.6, RFC 9074), read in this one place for the
/// scheduler, the importer and the validator. They differ only in what they do with it: the
/// scheduler rings it, the importer maps it to a clock alarm, the validator judges it.
struct AlarmComponent {
  /// When the alarm rings (RFC 5545 §3.8.6.3).
  enum Trigger {
    /// A duration from the start of each instance, or from its end.
    case relative(ICalDuration, fromEnd: Bool)
    /// One date-time (RFC 5545 requires UTC): rings once, not per instance.
    case absolute(DateTimeValue)
  }

  /// Why a VALARM has no usable trigger.
  enum TriggerProblem: Error {
    case missing
    /// A `VALUE=DATE-TIME` trigger whose value is no date-time.
    case notDateTime(String)
    /// A trigger whose value is no duration.
    case notDuration(String)
  }

  /// The property a relative trigger is anchored to and its component lacks (RFC 5545
  /// §3.8.6.3): DTSTART for the start; DTEND or DUE, or DTSTART and DURATION, for the end.
  enum MissingAnchor {
    case start
    case end
  }

  /// Why a REPEAT does not repeat.
  enum RepeatProblem {
    case notInteger(String)
    /// REPEAT needs a positive DURATION between the rings (RFC 5545 §3.6.6).
    case noPositiveDuration
  }

  /// The most repetitions rung or counted; a REPEAT of 10^15 would never end.
  static let maximumRepeats = 1000

  /// The VALARM itself, for what is not read here (ATTACH, alarmcal's X- properties).
  let component: ICalComponent
  /// ACTION, uppercased; empty when there is none.
  let action: String
  let trigger: Result<Trigger, TriggerProblem>
  /// Set only for a relative trigger whose anchor is missing.
  let missingAnchor: MissingAnchor?
  /// The repetitions after the first ring, at most ``maximumRepeats``.
  let repeatCount: Int
  let repeatInterval: ICalDuration
  let repeatProblem: RepeatProblem?
  /// RFC 9074 ACKNOWLEDGED: when the alarm was last dismissed or snoozed.
  var acknowledged: DateTimeValue? { Self.acknowledged(of: component) }

  /// RFC 9074 ACKNOWLEDGED of a VALARM: when it was last dismissed or snoozed.
  static func acknowledged(of valarm: ICalComponent) -> DateTimeValue? {
    valarm.property(uppercased: "ACKNOWLEDGED").flatMap { DateTimeValue(property: $0) }
  }

  /// Thunderbird's X-MOZ-LASTACK on an item: when its alarms were last dismissed. It covers
  /// each of the item's alarms as the alarm's own ACKNOWLEDGED does.
  static func mozillaLastAck(of item: ICalComponent) -> DateTimeValue? {
    item.property(uppercased: "X-MOZ-LASTACK").flatMap { DateTimeValue(property: $0) }
  }

  /// What covers an alarm's rings: the later of its own ACKNOWLEDGED and its item's
  /// X-MOZ-LASTACK, each placed on the clock.
  static func acknowledgement(own: Instant?, itemLastAck: Instant?) -> Instant? {
    guard let own else { return itemLastAck }
    guard let itemLastAck else { return own }
    return max(own, itemLastAck)
  }

  /// Whether an acknowledgement covers a ring at `trigger`: one at or after it has dealt with
  /// it (RFC 9074 §6), so the ring is not pending.
  static func covers(_ acknowledged: Instant?, ringAt trigger: Instant) -> Bool {
    acknowledged.map { trigger <= $0 } ?? false
  }

  /// The name Thunderbird gives a pending snooze on the item, followed by `-<microseconds>` of
  /// the instance for one instance of a series.
  static let mozillaSnoozeTime = "X-MOZ-SNOOZE-TIME"

  /// The name of Thunderbird's snooze of the instance of a series that starts `seconds` after
  /// 1970: ``mozillaSnoozeTime``, then `-` and the start in microseconds.
  static func mozillaSnoozeTime(ofInstanceAt seconds: Int64) -> String {
    "\(mozillaSnoozeTime)-\(seconds * 1_000_000)"
  }

  /// A pending snooze Thunderbird wrote on an item (``mozillaSnoozeTime``).
  struct MozillaSnooze {
    /// The X-MOZ-SNOOZE-TIME property itself.
    let property: ICalProperty
    /// When it rings.
    let time: DateTimeValue
    /// The instance of a series it snoozes, from the name's suffix; nil when the name has none.
    let instance: Instant?
  }

  /// Every X-MOZ-SNOOZE-TIME of `item` whose value is a date-time, in order.
  static func mozillaSnoozes(of item: ICalComponent) -> [MozillaSnooze] {
    var snoozes: [MozillaSnooze] = []
    for property in item.properties where isMozillaSnooze(property) {
      guard let time = DateTimeValue(property: property) else { continue }
      let suffix = property.name.dropFirst(mozillaSnoozeTime.count)
      var instance: Instant?
      if suffix.hasPrefix("-"), let micros = Int64(suffix.dropFirst()) {
        instance = Instant(secondsSince1970: micros / 1_000_000)
      }
      snoozes.append(MozillaSnooze(property: property, time: time, instance: instance))
    }
    return snoozes
  }

  /// Whether `property` is an X-MOZ-SNOOZE-TIME, of the item or of one instance. Most names
  /// are told apart by their first byte, before the prefix is compared.
  private static func isMozillaSnooze(_ property: ICalProperty) -> Bool {
    property.name.utf8.first == UInt8(ascii: "X") && property.name.hasPrefix(mozillaSnoozeTime)
  }

  /// ACTION of a VALARM, uppercased; empty when there is none.
  static func action(of valarm: ICalComponent) -> String {
    valarm.propertyValue(uppercased: "ACTION")?.asciiUppercased ?? ""
  }

  /// A VALARM's RFC 9074 UID, or Apple's copy of it (`X-WR-ALARMUID`).
  static func uid(of valarm: ICalComponent) -> String? {
    (valarm.property(uppercased: "UID") ?? valarm.property(uppercased: "X-WR-ALARMUID"))?.text
  }

  /// The UID that `valarm`'s `RELATED-TO;RELTYPE=SNOOZE` names, if it is a snooze alarm.
  static func snoozeOf(_ valarm: ICalComponent) -> String? {
    valarm.properties.first {
      $0.name == "RELATED-TO" && $0.parameter(uppercased: "RELTYPE")?.asciiUppercased == "SNOOZE"
    }?.text
  }

  /// ACTION:NONE never rings: alarmcal's switched-off alarms and Apple's "no alert" placeholders.
  var isSwitchedOff: Bool { action == AlarmVocabulary.disabledAction }

  /// Whether the trigger is (or is meant to be) one date-time rather than a duration.
  var isAbsolute: Bool {
    switch trigger {
    case .success(.absolute), .failure(.notDateTime): true
    default: false
    }
  }

  /// Reads `valarm`, a subcomponent of `item` (a VEVENT or VTODO).
  init(_ valarm: ICalComponent, in item: ICalComponent) {
    component = valarm
    action = Self.action(of: valarm)
    trigger = Self.trigger(of: valarm)
    if case .success(.relative(_, let fromEnd)) = trigger {
      missingAnchor = Self.missingAnchor(fromEnd: fromEnd, in: item)
    } else {
      missingAnchor = nil
    }
    (repeatCount, repeatInterval, repeatProblem) = Self.repetition(of: valarm)
  }

  /// Every VALARM of `item`, in order.
  static func all(in item: ICalComponent) -> [AlarmComponent] {
    item.components.compactMap { $0.name == "VALARM" ? AlarmComponent($0, in: item) : nil }
  }

  /// Whether `item` holds anything that may ring: a VALARM, or Thunderbird's snooze.
  static func mayRing(_ item: ICalComponent) -> Bool {
    item.components.contains { $0.name == "VALARM" }
      || item.properties.contains(where: isMozillaSnooze)
  }

  private static func trigger(of valarm: ICalComponent) -> Result<Trigger, TriggerProblem> {
    guard let property = valarm.property(uppercased: "TRIGGER") else { return .failure(.missing) }
    if property.parameter(uppercased: "VALUE")?.asciiUppercased == "DATE-TIME" {
      guard let value = DateTimeValue(text: property.value) else {
        return .failure(.notDateTime(property.value))
      }
      return .success(.absolute(value))
    }
    guard let duration = ICalDuration(property.value) else {
      return .failure(.notDuration(property.value))
    }
    let fromEnd = property.parameter(uppercased: "RELATED")?.asciiUppercased == "END"
    return .success(.relative(duration, fromEnd: fromEnd))
  }

  private static func missingAnchor(fromEnd: Bool, in item: ICalComponent) -> MissingAnchor? {
    let hasStart = item.hasProperty(uppercased: "DTSTART")
    guard fromEnd else { return hasStart ? nil : .start }
    let endName = item.name == "VTODO" ? "DUE" : "DTEND"
    let hasEnd =
      item.hasProperty(uppercased: endName) || hasStart && item.hasProperty(uppercased: "DURATION")
    return hasEnd ? nil : .end
  }

  private static func repetition(of valarm: ICalComponent) -> (Int, ICalDuration, RepeatProblem?) {
    guard let text = valarm.propertyValue(uppercased: "REPEAT") else { return (0, .zero, nil) }
    guard let count = Int(text) else { return (0, .zero, .notInteger(text)) }
    guard count > 0 else { return (0, .zero, nil) }
    guard let intervalText = valarm.propertyValue(uppercased: "DURATION"),
      let interval = ICalDuration(intervalText),
      !interval.isNegative, interval.days > 0 || interval.seconds > 0
    else { return (0, .zero, .noPositiveDuration) }
    return (min(count, maximumRepeats), interval, nil)
  }
}
