import Foundation
import ICalendar

/// The readers of single fields: each checks its value's type and form and reports what is
/// wrong with it.
extension AlarmRecordDecoder {
  private mutating func string(_ field: AlarmRecordField) -> String? {
    guard let value = fields[field] else { return nil }
    guard let text = value.stringValue else {
      fail("\(fields.name(field)) must be a string, not \(value.typeName)")
      return nil
    }
    return text
  }

  mutating func labelText(_ field: AlarmRecordField) -> String? {
    guard let text = string(field) else { return nil }
    let label = AlarmTextFormats.normalizedLabel(text)
    if label.utf8.contains(where: {
      ($0 < 0x20 && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\t")) || $0 == 0x7F
    }) {
      fail("\(fields.name(field)) \(quoted(text)) contains control characters")
      return nil
    }
    return label
  }

  mutating func identifier(_ field: AlarmRecordField) -> String? {
    guard let text = string(field) else { return nil }
    if text.isEmpty
      || (!AlarmTextFormats.hasVisibleASCIIEnds(text)
        && text != text.trimmingCharacters(in: .whitespacesAndNewlines))
      || AlarmTextFormats.hasControlCharacters(text)
    {
      fail(
        "\(fields.name(field)) \(quoted(text)) must be non-empty, without surrounding spaces or control characters"
      )
      return nil
    }
    return text
  }

  /// An instant written with `Z` or an offset (RFC 9074 times are UTC); null is none.
  mutating func instant(_ field: AlarmRecordField) -> Instant? {
    if fields[field] == nil || fields[field] == .null { return nil }
    guard let text = string(field) else { return nil }
    guard let instant = AlarmTextFormats.instant(text) else {
      fail(
        "\(fields.name(field)) \(quoted(text)) must be a date-time with Z or an offset, such as 2026-12-02T06:39:00Z"
      )
      return nil
    }
    return instant
  }

  mutating func soundName(_ field: AlarmRecordField) -> String? {
    if fields[field] == .null { return nil }
    guard let text = string(field) else { return nil }
    let trimmed =
      AlarmTextFormats.hasVisibleASCIIEnds(text) ? text : text.trimmingCharacters(in: .whitespaces)
    if trimmed.isEmpty { return nil }
    if AlarmTextFormats.hasControlCharacters(trimmed) {
      fail("\(fields.name(field)) \(quoted(text)) contains control characters")
      return nil
    }
    return trimmed
  }

  mutating func bool(_ field: AlarmRecordField) -> Bool? {
    guard let value = fields[field] else { return nil }
    guard let flag = value.boolValue else {
      fail("\(fields.name(field)) must be true or false, not \(value.typeName)")
      return nil
    }
    return flag
  }

  mutating func snoozeInterval(_ field: AlarmRecordField) -> Int {
    guard let value = fields[field] else { return Alarm.defaultSnoozeMinutes }
    var whole = value.intValue
    if whole == nil, case .number(let literal) = value, let number = Double(literal),
      number == number.rounded(), abs(number) < 1e9
    {
      whole = Int(number)
    }
    guard let minutes = whole, Alarm.snoozeMinutesRange.contains(minutes) else {
      let shown: String
      if case .number(let literal) = value { shown = literal } else { shown = value.typeName }
      fail(
        "\(fields.name(field)) must be a whole number of minutes from \(Alarm.snoozeMinutesRange.lowerBound) to \(Alarm.snoozeMinutesRange.upperBound), not \(shown)"
      )
      return Alarm.defaultSnoozeMinutes
    }
    return minutes
  }

  mutating func zoneName(_ field: AlarmRecordField) -> String {
    guard let value = fields[field] else { return zone }
    guard let name = value.stringValue, isKnownZone(name) else {
      fail(reader.zoneMessage(fields.name(field), value))
      return zone
    }
    return name
  }

  private mutating func isKnownZone(_ name: String) -> Bool {
    // Comparing with the few names already found beats hashing the name; a list naming more
    // zones than that looks the others up each time.
    let length = name.utf8.count
    if knownZones.contains(where: { $0.utf8.count == length && $0 == name }) { return true }
    guard TimeZoneRules(identifier: name) != nil else { return false }
    if knownZones.count < 32 { knownZones.append(name) }
    return true
  }
}
