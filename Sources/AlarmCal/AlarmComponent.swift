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

  /// The name Thunderbird gives a pending snooze on the item, followed by `-<microseconds>` of
  /// the instance for one instance of a series.
  static let mozillaSnoozeTime = "X-MOZ-SNOOZE-TIME"

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
    action = valarm.propertyValue(uppercased: "ACTION")?.asciiUppercased ?? ""
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
      || item.properties.contains { $0.name.hasPrefix("X-MOZ-SNOOZE-TIME") }
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
