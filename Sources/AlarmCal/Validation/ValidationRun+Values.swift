import ICalendar

/// What the value rules ask of one property name.
struct PropertyTraits {
  /// Whether libical 3 keeps the property (readers built on it drop the others).
  let knownToLibical: Bool
  /// The standard's value type of the property; nil for X- and other unknown names.
  let valueType: PropertyValueType?
  /// The allowed range of an INTEGER property.
  let integerRange: ClosedRange<Int>?

  init(_ name: String) {
    knownToLibical = name.isEmpty || LibicalVocabulary.knowsProperty(name)
    valueType = PropertyValueType.byName[name]
    integerRange = ValidationRun.integerProperties[name]
  }

  /// Whether its value is TEXT.
  var isText: Bool { valueType?.type == .text }
  /// Whether its value is a DATE-TIME.
  var isDateTime: Bool { valueType?.type == .dateTime }
}

/// Value rules: DATE, DATE-TIME, DURATION, UTC-OFFSET, INTEGER and RECUR syntax, RFC 5545 §3.3.
extension ValidationRun {
  /// DATE-TIME properties that must be written in UTC.
  static let utcProperties: Set<String> = ["DTSTAMP", "CREATED", "LAST-MODIFIED", "COMPLETED"]
  /// INTEGER properties and their allowed range.
  static let integerProperties: [String: ClosedRange<Int>] = [
    "REPEAT": 0...Int.max, "SEQUENCE": 0...Int.max, "PRIORITY": 0...9,
    "PERCENT-COMPLETE": 0...100,
  ]

  /// Checks the value syntax of a component's own properties.
  mutating func checkValues(_ component: ICalComponent) {
    for (index, line) in component.properties.enumerated() {
      let name = line.name
      let traits = traits(of: name, at: index, in: component.name)
      if !name.isEmpty, !traits.knownToLibical {
        report(
          .unknownToLibical, at: self.name(line),
          "\(name) is not a property libical 3 knows; readers built on it drop it")
      }
      if let type = traits.valueType, traits.isText { checkEscapes(line, type) }
      if traits.isDateTime {
        checkDateTimes(line)
      } else if let range = traits.integerRange {
        checkInteger(line, range: range)
      }
      switch name {
      case "DURATION":
        if ICalDuration(line.value) == nil { badDuration(line) }
      case "TRIGGER":
        if line.parameter(uppercased: "VALUE")?.uppercased() == "DATE-TIME" {
          checkDateTimes(line, utcOnly: true)
        } else if ICalDuration(line.value) == nil {
          badDuration(line)
        }
      case "TZOFFSETFROM", "TZOFFSETTO":
        if UTCOffsetText.parse(line.value) == nil {
          report(
            .utcOffsetValue, at: value(line),
            "\(name) value \"\(line.value)\" is not a UTC offset (+HHMM or +HHMMSS)")
        }
      case "RRULE":
        switch rule(line.value) {
        case .success(let rule):
          checkRule(
            rule, line, start: component.property(uppercased: "DTSTART"),
            inObservance: component.name == "STANDARD" || component.name == "DAYLIGHT")
        case .failure(let error):
          report(.recurrenceRule, at: value(line), "RRULE: \(error.message)")
        }
      default:
        break
      }
    }
  }

  private mutating func badDuration(_ line: ICalProperty) {
    report(
      .durationValue, at: value(line),
      "\(line.name) value \"\(line.value)\" is not a duration (such as PT15M, -P1D, P1W)")
  }

  private mutating func checkInteger(_ line: ICalProperty, range: ClosedRange<Int>) {
    let name = line.name
    guard let number = Int(line.value) else {
      report(
        .integerValue, at: value(line),
        "\(name) value \"\(line.value)\" is not an integer")
      return
    }
    guard range.contains(number) else {
      let allowed =
        range.upperBound == Int.max
        ? "at least \(range.lowerBound)" : "\(range.lowerBound)...\(range.upperBound)"
      report(
        .integerValue, at: value(line),
        "\(name) value \(number) is out of range (\(allowed))", rfc: "RFC 5545 §3.8")
      return
    }
  }

  /// Checks each DATE or DATE-TIME of a property, at its own column.
  private mutating func checkDateTimes(_ line: ICalProperty, utcOnly: Bool = false) {
    let name = line.name
    let kind = line.parameter(uppercased: "VALUE")?.uppercased()
    if kind == "PERIOD" {
      checkPeriods(line)
      return
    }
    if let kind, kind != "DATE", kind != "DATE-TIME", !kind.hasPrefix("X-") {
      report(
        .dateTimeValue, at: position(line, parameter: "VALUE"),
        "VALUE=\(kind) is not allowed for \(name) (DATE-TIME or DATE)")
      return
    }
    let isDate = kind == "DATE"
    let mustBeUTC = utcOnly || Self.utcProperties.contains(name)
    var offset = 0
    let items =
      PropertyValueType.byName[name]?.isList == true
      ? line.value.split(separator: ",", omittingEmptySubsequences: false) : [line.value[...]]
    for item in items {
      defer { offset += item.utf8.count + 1 }
      let text = String(item)
      guard let value = DateTimeValue(text: text, isDate: isDate) else {
        let expected = isDate ? "a DATE (YYYYMMDD)" : "a DATE-TIME (YYYYMMDDTHHMMSS[Z])"
        report(
          .dateTimeValue, at: position(line, valueOffset: offset),
          "\(name) value \"\(text)\" is not \(expected)",
          rfc: isDate ? "RFC 5545 §3.3.4" : "RFC 5545 §3.3.5")
        continue
      }
      if value.isDate && !isDate {
        report(
          .dateTimeValue, at: position(line, valueOffset: offset),
          "\(name) value \"\(text)\" is a DATE; a DATE needs the VALUE=DATE parameter",
          rfc: "RFC 5545 §3.3.4")
      } else if mustBeUTC, case .utc = value {
      } else if mustBeUTC {
        report(
          .notUTC, at: position(line, valueOffset: offset),
          "\(name) value \"\(text)\" must be a UTC time (ending in Z)",
          rfc: PropertyValueType.byName[name]?.section)
      }
    }
  }

  /// PERIOD values, RFC 5545 §3.3.9: `start/end` or `start/duration`, the start a DATE-TIME.
  private mutating func checkPeriods(_ line: ICalProperty) {
    var offset = 0
    for item in line.value.split(separator: ",", omittingEmptySubsequences: false) {
      defer { offset += item.utf8.count + 1 }
      let parts = item.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
      let valid =
        parts.count == 2 && DateTimeValue(text: parts[0]).map { !$0.isDate } == true
        && (ICalDuration(parts[1]).map { !$0.isNegative } == true
          || DateTimeValue(text: parts[1]).map { !$0.isDate } == true)
      if !valid {
        report(
          .periodValue, at: position(line, valueOffset: offset),
          "\(line.name) value \"\(item)\" is not a PERIOD (start/end or start/duration)")
      }
    }
  }

  /// TEXT escapes, RFC 5545 §3.3.11: only `\\`, `\;`, `\,`, `\n` and `\N`; and `,` and `;`
  /// escaped where they do not separate the values of a list or the parts of a structured
  /// value (the first unescaped one is reported: readers cut the value there).
  mutating func checkEscapes(_ line: ICalProperty, _ type: PropertyValueType) {
    if let kind = line.parameter(uppercased: "VALUE"), kind.asciiUppercased != "TEXT" { return }
    var previousWasBackslash = false
    var reportedUnescaped = false
    var offset = 0
    for byte in line.value.utf8 {
      defer { offset += 1 }
      if previousWasBackslash {
        previousWasBackslash = false
        if ![
          UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "n"),
          UInt8(ascii: "N"),
        ]
        .contains(byte) {
          report(
            .unknownEscape, at: position(line, valueOffset: offset - 1),
            "\(line.name) has the unknown escape \"\\\(Character(Unicode.Scalar(byte)))\"; "
              + "TEXT allows only \\\\, \\;, \\, and \\n")
        }
      } else if byte == UInt8(ascii: "\\") {
        previousWasBackslash = true
      } else if !reportedUnescaped,
        (byte == UInt8(ascii: ",") && !type.isList)
          || (byte == UInt8(ascii: ";") && !type.isStructured)
      {
        reportedUnescaped = true
        let character = Character(Unicode.Scalar(byte))
        report(
          .unescapedText, at: position(line, valueOffset: offset),
          "\(line.name) has an unescaped \"\(character)\"; TEXT writes it \"\\\(character)\" "
            + "(readers may end the value there)")
      }
    }
  }
}
