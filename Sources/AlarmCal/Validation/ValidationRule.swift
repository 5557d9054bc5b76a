/// A rule the validator checks: a stable id, how bad breaking it is, and where the standard says so.
public struct ValidationRule: Equatable, Sendable {
  /// The stable id printed in brackets, such as `content.bare-lf`.
  public let id: String
  /// How bad breaking it is.
  public let severity: Diagnostic.Severity
  /// The section of the standard, such as `RFC 5545 §3.1`.
  public let rfc: String

  /// LF alone ends lines (reported once per file, with a count).
  public static let bareLineFeed = rule("content.bare-lf", .warning, "§3.1")
  /// A line is longer than 75 octets.
  public static let longLine = rule("content.long-line", .warning, "§3.1")
  /// A continuation line has nothing to continue.
  public static let orphanContinuation = rule("content.orphan-continuation", .error, "§3.1")
  /// Bytes that are not UTF-8.
  public static let invalidUTF8 = rule("content.invalid-utf8", .error, "§3.1.4")
  /// A control character other than HTAB.
  public static let controlCharacter = rule("content.control-character", .error, "§3.1")
  /// No colon between name and value.
  public static let missingColon = rule("content.missing-colon", .error, "§3.1")
  /// A content line without a name.
  public static let emptyName = rule("content.empty-name", .error, "§3.1")
  /// A name with a character other than letters, digits and `-`.
  public static let invalidName = rule("content.invalid-name", .error, "§3.1")
  /// Malformed parameter syntax or quoting.
  public static let badParameter = rule("content.bad-parameter", .error, "§3.2")

  /// A BEGIN without END, or an END without BEGIN.
  public static let unbalanced = rule("structure.unbalanced", .error, "§3.4")
  /// Components nested deeper than ``ComponentNesting/maximumDepth``.
  public static let tooDeep = rule("structure.too-deep", .error, "§3.4")
  /// An END whose name is not that of the open BEGIN.
  public static let mismatchedEnd = rule("structure.mismatched-end", .error, "§3.4")
  /// More than one VCALENDAR in one file.
  public static let multipleCalendars = rule("structure.multiple-calendars", .warning, "§3.4")
  /// A property outside any component.
  public static let outsideComponent = rule("structure.outside-component", .error, "§3.4")
  /// No VCALENDAR, or another component at the top level.
  public static let notCalendar = rule("structure.not-vcalendar", .error, "§3.4")

  /// A required property is missing.
  public static let missingProperty = rule("component.missing-property", .error, "§3.6")
  /// A property allowed once appears more often.
  public static let duplicateProperty = rule("component.duplicate-property", .error, "§3.6")
  /// Two properties that exclude each other (DTEND and DURATION, DUE and DURATION).
  public static let exclusiveProperties = rule("component.exclusive-properties", .error, "§3.6")
  /// DTEND or DUE before DTSTART.
  public static let endBeforeStart = rule("component.end-before-start", .error, "§3.8.2.2")
  /// A VALARM with only one of DURATION and REPEAT.
  public static let repeatDuration = rule("alarm.repeat-duration", .error, "§3.6.6")
  /// A relative TRIGGER whose start or end the component does not have (a start-related
  /// trigger without DTSTART; an end-related one without DTEND, DUE or DTSTART and DURATION).
  public static let triggerAnchor = rule("alarm.trigger-anchor", .error, "§3.8.6.3")

  /// A malformed DATE or DATE-TIME value.
  public static let dateTimeValue = rule("value.date-time", .error, "§3.3.5")
  /// A DATE-TIME that must be UTC is not.
  public static let notUTC = rule("value.not-utc", .error, "§3.8.7.2")
  /// A malformed DURATION value.
  public static let durationValue = rule("value.duration", .error, "§3.3.6")
  /// A malformed UTC-OFFSET value.
  public static let utcOffsetValue = rule("value.utc-offset", .error, "§3.3.14")
  /// A malformed or out-of-range INTEGER value.
  public static let integerValue = rule("value.integer", .error, "§3.3.8")
  /// An RRULE that breaks the RECUR grammar.
  public static let recurrenceRule = rule("value.rrule", .error, "§3.3.10")

  /// A malformed PERIOD value.
  public static let periodValue = rule("value.period", .error, "§3.3.9")
  /// A TEXT escape other than \\, \;, \, and \n.
  public static let unknownEscape = rule("value.unknown-escape", .warning, "§3.3.11")
  /// A `,` or `;` not escaped in a TEXT value where it separates nothing (a `,` between
  /// CATEGORIES is a separator); readers cut the value at it.
  public static let unescapedText = rule("value.unescaped-text", .warning, "§3.3.11")
  /// A component inside a parent that may not hold it (a VALARM in a VJOURNAL, ...).
  public static let misplacedComponent = rule("structure.misplaced-component", .error, "§3.6")
  /// An RRULE that can never produce an instance after DTSTART.
  public static let ruleNeverMatches = rule("rrule.no-instance", .warning, "§3.3.10")

  /// Two components (not overrides) with the same UID.
  public static let duplicateUID = rule("semantic.duplicate-uid", .warning, "§3.8.4.7")
  /// An ACKNOWLEDGED time not written in UTC.
  public static let acknowledgedNotUTC = rule(
    "semantic.acknowledged-not-utc", .warning, "RFC 9074 §6", standard: false)
  /// A RECURRENCE-ID that is not an instance of its series.
  public static let orphanOverride = rule("semantic.unmatched-recurrence-id", .warning, "§3.8.4.4")
  /// A finite series whose every instance an EXDATE removes.
  public static let emptySeries = rule("semantic.no-instance-left", .warning, "§3.8.5.1")
  /// A VALARM whose every ring lies before `--now`: its series has ended.
  public static let alarmNeverRings = rule("semantic.alarm-never-rings", .warning, "§3.6.6")
  /// A property name libical 3 does not know: readers built on it drop the property.
  public static let unknownToLibical = rule("interop.unknown-property", .warning, "§3.8.8.2")
  /// What Google Calendar and Outlook do with alarms when they import a file.
  public static let importIgnoresAlarms = rule("interop.alarms-ignored", .note, "§3.6.6")
  /// An AUDIO alarm's sound attachment, which most clients replace with their own.
  public static let audioAttachment = rule("interop.audio-attachment", .note, "§3.8.1.1")
  /// Floating times in a calendar that names a zone with X-WR-TIMEZONE.
  public static let floatingWithCalendarZone = rule(
    "interop.x-wr-timezone-floating", .note, "§3.3.5")

  /// A TZID without a VTIMEZONE that names an IANA zone readers may know.
  public static let zoneNotDefined = rule("timezone.undefined", .warning, "§3.2.19")
  /// A TZID without a VTIMEZONE that is a Windows zone name (Outlook); the IANA zone is named.
  public static let windowsZone = rule("timezone.windows-name", .warning, "§3.2.19")
  /// A TZID that neither a VTIMEZONE nor any zone database defines.
  public static let unknownZone = rule("timezone.unknown", .error, "§3.2.19")
  /// A series that goes on past the last onset of the cut VTIMEZONE its start names, with no
  /// IANA zone of that name agreeing with it: readers keep its last offset.
  public static let zoneEndsBeforeSeries = rule("timezone.ends-before-series", .warning, "§3.6.5")
  /// The same, where the IANA zone its TZID names agrees with it and continues it (khal writes
  /// one year's onsets).
  public static let zoneContinuedByIANA = rule("timezone.continued-by-iana", .note, "§3.6.5")
  /// A VTIMEZONE without TZID or observances, or an observance lacking a required property.
  public static let malformedZone = rule("timezone.malformed", .error, "§3.6.5")

  /// Every rule, in the order above.
  public static let all: [ValidationRule] = [
    bareLineFeed, longLine, orphanContinuation, invalidUTF8, controlCharacter, missingColon,
    emptyName, invalidName, badParameter, unbalanced, tooDeep, mismatchedEnd, multipleCalendars,
    outsideComponent, notCalendar, missingProperty, duplicateProperty, exclusiveProperties,
    endBeforeStart, repeatDuration, triggerAnchor, dateTimeValue, notUTC, durationValue,
    utcOffsetValue,
    integerValue, recurrenceRule, periodValue, unknownEscape, unescapedText, misplacedComponent,
    ruleNeverMatches,
    duplicateUID, acknowledgedNotUTC,
    orphanOverride, emptySeries, alarmNeverRings, unknownToLibical, importIgnoresAlarms,
    audioAttachment,
    floatingWithCalendarZone,
    zoneNotDefined,
    windowsZone, unknownZone,
    zoneEndsBeforeSeries, zoneContinuedByIANA,
    malformedZone,
  ]

  private static func rule(
    _ id: String, _ severity: Diagnostic.Severity, _ section: String, standard: Bool = true
  ) -> ValidationRule {
    ValidationRule(id: id, severity: severity, rfc: standard ? "RFC 5545 " + section : section)
  }
}
