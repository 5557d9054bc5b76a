import ICalendar

/// The state of one validation: the file name and what was found so far.
struct ValidationRun {
  let file: String
  /// The present moment, for checks that depend on it (none without it).
  var now: Instant?
  /// Where the file's bytes lie, to place the parts of each property.
  let source: SourceMap
  var diagnostics: [Diagnostic] = []
  /// Each RRULE text read so far, as its place in `compiledRules`: calendars repeat a few rules
  /// many times.
  var rules: [String: Result<Int, RecurrenceRuleError>] = [:]
  /// The rules read, with the plans their iterators compiled.
  var compiledRules: [RecurrencePlans] = []
  /// What the value rules ask of each property name seen so far.
  var propertyTraits: [String: PropertyTraits] = [:]
  /// For each component name checked, the names and traits of the properties of the last such
  /// component, by place: a calendar's events tend to list the same properties in the same order.
  var traitsByPlace: [(component: String, properties: [(name: String, traits: PropertyTraits)])] =
    []

  /// The RRULE `text` parsed, once per distinct text.
  mutating func rule(_ text: String) -> Result<RecurrenceRule, RecurrenceRuleError> {
    ruleIndex(text).map { compiledRules[$0].rule }
  }

  /// An iterator of the RRULE `text` (which must parse) from `start`, its plan compiled once
  /// per distinct rule.
  mutating func iterator(
    _ text: String, start: LocalDateTime, isDate: Bool, workLimit: Int
  ) -> RecurrenceIterator? {
    guard case .success(let index) = ruleIndex(text) else { return nil }
    return RecurrenceIterator(
      plans: &compiledRules[index], start: start, isDate: isDate, workLimit: workLimit)
  }

  private mutating func ruleIndex(_ text: String) -> Result<Int, RecurrenceRuleError> {
    if let known = rules[text] { return known }
    let parsed = Result { () throws(RecurrenceRuleError) in
      compiledRules.append(RecurrencePlans(rule: try RecurrenceRule(parsing: text)))
      return compiledRules.count - 1
    }
    rules[text] = parsed
    return parsed
  }

  /// Keeps what `other`, a copy of this run, cached that this one has not.
  mutating func adoptCaches(of other: ValidationRun) {
    for (text, result) in other.rules where rules[text] == nil {
      rules[text] = result.map { index in
        compiledRules.append(other.compiledRules[index])
        return compiledRules.count - 1
      }
    }
    propertyTraits.merge(other.propertyTraits) { mine, _ in mine }
  }

  /// ``traits(of:)`` for the property at `index` in a component named `component`, asked first
  /// of the property at that place in the last component of that name.
  mutating func traits(of name: String, at index: Int, in component: String) -> PropertyTraits {
    guard let slot = traitsByPlace.firstIndex(where: { $0.component == component }) else {
      traitsByPlace.append((component, []))
      return traits(of: name, at: index, in: component)
    }
    let places = traitsByPlace[slot].properties
    if index < places.count, places[index].name == name { return places[index].traits }
    let traits = traits(of: name)
    if index < places.count {
      traitsByPlace[slot].properties[index] = (name, traits)
    } else if index == places.count {
      traitsByPlace[slot].properties.append((name, traits))
    }
    return traits
  }

  /// What the value rules ask of a property name, worked out once per distinct name.
  mutating func traits(of name: String) -> PropertyTraits {
    if let known = propertyTraits[name] { return known }
    let traits = PropertyTraits(name)
    propertyTraits[name] = traits
    return traits
  }

  mutating func report(
    _ rule: ValidationRule, at position: SourcePosition, _ message: String, rfc: String? = nil
  ) {
    diagnostics.append(
      Diagnostic(
        file: file, line: position.line, column: position.column, severity: rule.severity,
        rule: rule.id, message: Self.printable(message), rfc: rfc ?? rule.rfc))
  }

  /// The text with control characters written as `\u{…}` escapes, so a message quoting a
  /// broken line stays on one line of a terminal.
  static func printable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
      return text
    }
    var result = ""
    for scalar in text.unicodeScalars {
      if scalar.value < 0x20 || scalar.value == 0x7F {
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  mutating func report(_ finding: LineFinding) {
    let rule: ValidationRule
    switch finding.kind {
    case .bareLineFeed: rule = .bareLineFeed
    case .longLine: rule = .longLine
    case .orphanContinuation: rule = .orphanContinuation
    case .invalidUTF8: rule = .invalidUTF8
    case .controlCharacter: rule = .controlCharacter
    case .missingColon: rule = .missingColon
    case .emptyName: rule = .emptyName
    case .invalidName: rule = .invalidName
    case .badParameter: rule = .badParameter
    }
    report(rule, at: finding.position, finding.description)
  }

  /// Reports a problem with how components nest (RFC 5545 §3.4).
  mutating func report(_ problem: StructureProblem) {
    let at = problem.position
    switch problem.kind {
    case .endWithoutBegin(let name):
      report(.unbalanced, at: at, "END:\(name) has no matching BEGIN")
    case .mismatchedEnd(let name, let open, let openLine):
      report(.mismatchedEnd, at: at, "END:\(name) does not match BEGIN:\(open) on line \(openLine)")
    case .neverClosed(let name, let closedBy?):
      report(
        .unbalanced, at: at,
        "BEGIN:\(name) is never closed (END:\(closedBy.name) on line \(closedBy.line) closes an outer component)"
      )
    case .neverClosed(let name, nil):
      report(.unbalanced, at: at, "BEGIN:\(name) is never closed by END:\(name)")
    case .tooDeep:
      report(
        .tooDeep, at: at,
        "components nested deeper than \(ComponentNesting.maximumDepth) levels; the rest of the file is not checked"
      )
    case .outsideComponent(let name):
      report(.outsideComponent, at: at, "property \(name) is outside any component")
    }
  }

  // MARK: where things are

  /// Where a component's BEGIN line starts.
  func begin(_ component: ICalComponent) -> SourcePosition {
    SourcePosition(line: component.line ?? 1, column: 1)
  }

  /// Where a property's name starts.
  func name(_ property: ICalProperty) -> SourcePosition {
    property.sourceOffset.map { source.position(ofOffset: $0) }
      ?? SourcePosition(line: 1, column: 1)
  }

  /// The physical line a property starts on.
  func line(_ property: ICalProperty) -> Int { name(property).line }

  /// The layout of a property's content line.
  private func layout(_ property: ICalProperty) -> ContentLineLayout? {
    property.sourceOffset.flatMap { source.layout(ofLineAt: $0) }
  }

  /// Where a property's value starts.
  func value(_ property: ICalProperty) -> SourcePosition {
    layout(property)?.value ?? name(property)
  }

  /// Where the byte `offset` bytes into a property's value lies.
  func position(_ property: ICalProperty, valueOffset offset: Int) -> SourcePosition {
    layout(property)?.position(ofValueOffset: offset) ?? name(property)
  }

  /// Where the value of a property's parameter `parameter` starts.
  func position(_ property: ICalProperty, parameter: String) -> SourcePosition {
    layout(property)?.parameterValue(parameter) ?? value(property)
  }
}
