import ICalendar

/// Checks iCalendar bytes against RFC 5545 and reports every problem found, with exact lines and
/// columns, in one pass.
///
/// Built on ``ContentLineScanner`` rather than libical, so positions are those of the original
/// (folded) file and a broken line never hides the ones after it.
public enum Validator {
  /// Every problem in `bytes`, in file order; `file` names the file in each diagnostic.
  /// With `now`, alarms of finite series that ended before it are reported as never ringing.
  public static func validate(_ bytes: [UInt8], file: String, now: Instant? = nil) -> [Diagnostic] {
    var run = ValidationRun(file: file, now: now)
    let (lines, findings) = ContentLineScanner.scan(bytes)
    for finding in findings { run.report(finding) }
    let calendars = run.assemble(lines)
    let calendarCount = calendars.filter { $0.name == "VCALENDAR" }.count
    let tooDeep = run.diagnostics.contains { $0.rule == ValidationRule.tooDeep.id }
    if lines.isEmpty || calendarCount == 0, !tooDeep, findings.allSatisfy({ !$0.isError }) {
      let position = lines.first?.namePosition ?? SourcePosition(line: 1, column: 1)
      run.report(.notCalendar, at: position, "the file has no VCALENDAR component")
    }
    var seenCalendar = false
    for component in calendars {
      guard component.name == "VCALENDAR" else {
        run.report(
          .notCalendar, at: component.begin.namePosition,
          "\(component.name) at the top level; only VCALENDAR components may be there")
        // Its content is still checked, so one misplaced BEGIN does not hide the rest.
        run.checkValues(component)
        run.check(component, hasMethod: true)
        continue
      }
      if seenCalendar {
        run.report(
          .multipleCalendars, at: component.begin.namePosition,
          "another VCALENDAR in the same file; many readers take only the first")
      }
      seenCalendar = true
      run.checkCalendar(component)
    }
    return run.diagnostics.enumerated().sorted {
      ($0.element.line, $0.element.column, $0.offset) < (
        $1.element.line, $1.element.column, $1.offset
      )
    }.map(\.element)
  }
}

/// A component between its BEGIN and END lines.
struct ParsedComponent {
  /// The name in upper case.
  let name: String
  /// The BEGIN line.
  let begin: ContentLine
  /// Its own properties, in order.
  var properties: [ContentLine] = []
  /// Nested components, in order.
  var children: [ParsedComponent] = []

  /// The properties with this (upper-case) name.
  func properties(_ name: String) -> [ContentLine] {
    properties.filter { $0.upperName == name }
  }

  /// The first property with this (upper-case) name.
  func property(_ name: String) -> ContentLine? {
    properties.first { $0.upperName == name }
  }
}

/// The state of one validation: the file name and what was found so far.
struct ValidationRun {
  let file: String
  /// The present moment, for checks that depend on it (none without it).
  var now: Instant?
  var diagnostics: [Diagnostic] = []

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

  /// Builds the component tree from BEGIN/END lines, reporting unbalanced and mismatched ones.
  mutating func assemble(_ lines: [ContentLine]) -> [ParsedComponent] {
    var roots: [ParsedComponent] = []
    var stack: [ParsedComponent] = []
    func close(_ component: ParsedComponent) {
      if stack.isEmpty {
        roots.append(component)
      } else {
        stack[stack.count - 1].children.append(component)
      }
    }
    reading: for line in lines {
      switch line.upperName {
      case "BEGIN":
        guard stack.count < ComponentNesting.maximumDepth else {
          report(
            .tooDeep, at: line.namePosition,
            "components nested deeper than \(ComponentNesting.maximumDepth) levels; the rest of the file is not checked"
          )
          // Nothing nested this deep is a calendar: checking its parts would only add noise.
          stack.removeAll()
          roots.removeAll()
          break reading
        }
        stack.append(ParsedComponent(name: line.value.uppercased(), begin: line))
      case "END":
        let name = line.value.uppercased()
        guard let top = stack.last else {
          report(.unbalanced, at: line.namePosition, "END:\(line.value) has no matching BEGIN")
          continue
        }
        if top.name != name {
          if stack.contains(where: { $0.name == name }) {
            // The END closes an outer component: what is open inside it was never closed.
            while let inner = stack.last, inner.name != name {
              report(
                .unbalanced, at: inner.begin.namePosition,
                "BEGIN:\(inner.begin.value) is never closed (END:\(line.value) on line \(line.line) closes an outer component)"
              )
              stack.removeLast()
              close(inner)
            }
          } else {
            report(
              .mismatchedEnd, at: line.valuePosition,
              "END:\(line.value) does not match BEGIN:\(top.begin.value) on line \(top.begin.line)")
          }
        }
        if let finished = stack.popLast() { close(finished) }
      default:
        if stack.isEmpty {
          report(
            .outsideComponent, at: line.namePosition,
            "property \(line.name) is outside any component")
        } else {
          stack[stack.count - 1].properties.append(line)
        }
      }
    }
    for open in stack.reversed() {
      report(
        .unbalanced, at: open.begin.namePosition,
        "BEGIN:\(open.begin.value) is never closed by END:\(open.begin.value)")
    }
    while let open = stack.popLast() { close(open) }
    return roots
  }
}
