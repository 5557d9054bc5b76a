import AlarmCal
import Foundation
import ICalendar
import LibicalReference
import Testing

@Suite struct ValidatorTests {
  /// The bytes of `Fixtures/validate/<name>`, failing with the path when missing.
  private func fixtureBytes(_ name: String) throws -> [UInt8] {
    let url = try #require(
      Bundle.module.url(
        forResource: name, withExtension: nil, subdirectory: "Fixtures/validate"),
      "missing fixture Fixtures/validate/\(name)")
    return [UInt8](try Data(contentsOf: url))
  }

  /// `line:column severity rule` for each error and warning: what the table below asserts
  /// (interoperability notes have a test of their own).
  private func summary(_ name: String) throws -> [String] {
    Validator.validate(try fixtureBytes(name), file: name).filter { $0.severity != .note }.map {
      "\($0.line):\($0.column) \($0.severity) \($0.rule)"
    }
  }

  @Test(
    "each broken fixture yields exactly its diagnostics, at the exact line and column",
    arguments: [
      ("valid.ics", []),
      (
        "placement.ics",
        [
          "7:44 warning value.unknown-escape",  // \t; the allowed escapes before it pass
          "8:1 error structure.misplaced-component",  // a VALARM in a VJOURNAL
          "17:42 error value.period",  // a PERIOD's end must be a DATE-TIME
        ]
      ),
      ("exdates.ics", ["10:1 warning semantic.no-instance-left"]),  // the second series keeps two
      (
        "rrule.ics",
        [
          "8:19 error value.rrule",  // BYDAY ordinal with WEEKLY
          "14:18 error value.rrule",  // UNTIL a DATE-TIME for a DATE start
          "14:41 error value.rrule",  // BYSETPOS alone
          "20:7 warning rrule.no-instance",  // February 30th never comes
          "25:14 warning timezone.undefined",  // UTC without VTIMEZONE
          "26:20 error value.rrule",  // UNTIL not in UTC for a zoned start
          "26:42 error value.rrule",  // BYWEEKNO with MONTHLY
        ]
      ),
      (
        "timezones.ics",
        [
          "6:1 error timezone.malformed",  // STANDARD lacks DTSTART
          "11:1 error timezone.malformed",  // VTIMEZONE without TZID
          "18:12 warning timezone.undefined",  // Europe/Berlin, no VTIMEZONE
          "19:13 warning timezone.windows-name",
          "20:12 error timezone.unknown",
        ]
      ),
      ("method.ics", []),  // METHOD present: DTSTART is not required
      ("bare-lf.ics", ["3:12 warning content.bare-lf"]),  // once, at the first bare LF
      ("long-line.ics", ["8:76 warning content.long-line"]),  // the folded line is fine
      ("orphan-continuation.ics", ["1:1 error content.orphan-continuation"]),
      ("invalid-utf8.ics", ["8:12 error content.invalid-utf8"]),
      ("control-character.ics", ["8:10 error content.control-character"]),  // first per line
      (
        "content-syntax.ics",
        [
          "8:8 error content.missing-colon", "9:1 error content.empty-name",
          "10:4 error content.invalid-name",
        ]
      ),
      (
        "bad-parameter.ics",
        [
          "7:9 error content.bad-parameter",  // ;=x
          "8:13 error content.bad-parameter",  // unclosed quote
          "9:19 error content.bad-parameter",  // quote inside a value
          "10:24 error content.bad-parameter",  // text after a closing quote
          "11:12 error content.bad-parameter",  // no =value
        ]
      ),
      (
        "folded-value.ics",
        [
          "9:2 error value.date-time",  // the second EXDATE, on the continuation line
          "10:7 error value.rrule",
        ]
      ),
      (
        "unbalanced.ics",
        ["1:1 error structure.unbalanced", "5:1 error structure.unbalanced"]
      ),
      ("mismatched-end.ics", ["8:5 error structure.mismatched-end"]),
      ("multiple-calendars.ics", ["5:1 warning structure.multiple-calendars"]),
      (
        "outside-component.ics",
        ["1:1 error structure.outside-component", "6:1 error structure.not-vcalendar"]
      ),
      (
        "calendar-properties.ics",
        ["1:1 error component.missing-property", "3:1 error component.duplicate-property"]
      ),
      (
        "event-properties.ics",
        [
          "4:1 error component.missing-property", "4:1 error component.missing-property",
          "4:1 error component.missing-property", "11:1 error component.duplicate-property",
          "13:1 error component.missing-property", "13:1 error component.missing-property",
        ]
      ),
      (
        "exclusive.ics",
        ["9:1 error component.exclusive-properties", "15:1 error component.exclusive-properties"]
      ),
      (
        "alarms.ics",
        [
          "8:1 error component.missing-property", "8:1 error component.missing-property",
          "11:1 error component.missing-property", "15:1 error component.missing-property",
          "15:1 error component.missing-property", "15:1 error component.missing-property",
          "23:1 error component.duplicate-property", "24:1 error alarm.repeat-duration",
          "30:1 error alarm.repeat-duration",
        ]
      ),
      (
        "values.ics",
        [
          "8:14 error value.utc-offset", "14:9 error value.not-utc", "15:9 error value.date-time",
          "16:7 error value.date-time", "17:1 error component.exclusive-properties",
          "17:10 error value.duration", "18:10 error value.integer", "19:10 error value.integer",
          "20:7 error value.rrule", "24:9 error value.duration", "29:25 error value.not-utc",
        ]
      ),
      (
        "end-before-start.ics",
        // The second event mixes a zoned DTSTART with a UTC DTEND: not compared.
        ["8:18 error component.end-before-start", "20:5 error component.end-before-start"]
      ),
    ] as [(String, [String])])
  func fixtures(name: String, expected: [String]) throws {
    #expect(try summary(name) == expected)
  }

  @Test("diagnostics print compiler-style with the file, position, severity, message and rule")
  func rendering() throws {
    let lines = Validator.validate(try fixtureBytes("alarms.ics"), file: "alarms.ics")
      .filter { $0.severity != .note }.map(\.description)
    #expect(
      lines.prefix(3) == [
        "alarms.ics:8:1: error: VALARM needs ACTION [component.missing-property]",
        "alarms.ics:8:1: error: VALARM needs TRIGGER [component.missing-property]",
        "alarms.ics:11:1: error: VALARM with ACTION:DISPLAY needs DESCRIPTION [component.missing-property]",
      ])
    let bare = Validator.validate(try fixtureBytes("bare-lf.ics"), file: "b.ics")
    #expect(
      bare.map(\.description) == [
        "b.ics:3:12: warning: line ends with LF instead of CRLF (7 lines in this file) [content.bare-lf]"
      ])
    #expect(bare.first?.rfc == "RFC 5545 §3.1")
  }

  @Test("messages and sections name the exact problem")
  func messages() throws {
    let found = Validator.validate(try fixtureBytes("values.ics"), file: "v.ics")
    let rrule = try #require(found.first { $0.rule == "value.rrule" })
    #expect(rrule.message == "RRULE: COUNT and UNTIL cannot both be given")
    #expect(rrule.rfc == "RFC 5545 §3.3.10")
    let stamp = try #require(found.first { $0.rule == "value.not-utc" })
    #expect(stamp.message == "DTSTAMP value \"20261202T080000\" must be a UTC time (ending in Z)")
    #expect(stamp.rfc == "RFC 5545 §3.8.7.2")
    let folded = Validator.validate(try fixtureBytes("folded-value.ics"), file: "f.ics")
    #expect(
      folded.first?.message
        == "EXDATE value \"20261303T070000Z\" is not a DATE-TIME (YYYYMMDDTHHMMSS[Z])")
  }

  @Test("control characters in quoted text are escaped in messages")
  func controlCharactersEscaped() {
    let bytes = Array("BEGIN:V\u{0}X\r\n".utf8)
    let messages = Validator.validate(bytes, file: "x.ics").map(\.message)
    #expect(messages.allSatisfy { !$0.unicodeScalars.contains { $0.value < 0x20 } })
    #expect(messages.contains("BEGIN:V\\u{0}X is never closed by END:V\\u{0}X"))
  }

  @Test("an empty file is not a calendar")
  func empty() {
    let found = Validator.validate([], file: "e.ics")
    #expect(found.map(\.rule) == ["structure.not-vcalendar"])
  }

  @Test("every .ics in Samples has no errors")
  func samples() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: samplesFolder.path)
      .filter { $0.hasSuffix(".ics") }.sorted()
    #expect(!names.isEmpty)
    for name in names {
      let data = try Data(contentsOf: samplesFolder.appendingPathComponent(name))
      let errors = Validator.validate([UInt8](data), file: name).filter { $0.severity == .error }
      #expect(errors.isEmpty, "\(errors.map(\.description))")
    }
  }

  @Test("what alarmcal convert writes validates without an error or a warning")
  func exported() throws {
    let alarms = [
      Alarm(
        id: "wake", schedule: .time(try #require(AlarmTextFormats.clockTime("06:30")), repeat: []),
        label: "Wake up; then coffee, please", sound: "Radar", timeZone: "Europe/Berlin"),
      Alarm(
        id: "gym",
        schedule: .time(
          try #require(AlarmTextFormats.clockTime("18:00")), repeat: [.monday, .thursday]),
        label: String(repeating: "A very long label ", count: 8), snooze: false,
        timeZone: "America/New_York"),
      Alarm(
        id: "nap", schedule: .time(try #require(AlarmTextFormats.clockTime("14:00")), repeat: []),
        enabled: false, timeZone: "UTC"),
      Alarm(
        id: "cake", schedule: .at(try local("20270110T090000")), label: "Pick up the cake",
        timeZone: "Europe/Berlin"),
    ]
    let text = try AlarmExporter(now: testNow, timestamp: testNow).text(alarms)
    // Only the interoperability note (alarms ignored on import): no error, no warning.
    #expect(
      Validator.validate(Array(text.utf8), file: "export.ics").map(\.rule) == [
        "interop.alarms-ignored"
      ])
  }

  @Test("a property libical drops is a warning; a floating time under X-WR-TIMEZONE is a note")
  func interopWarnings() throws {
    let diagnostics = Validator.validate(try fixtureBytes("interop.ics"), file: "i.ics")
    #expect(
      diagnostics.map { "\($0.line):\($0.column) \($0.severity) \($0.rule)" } == [
        "8:9 note interop.x-wr-timezone-floating", "9:1 note interop.alarms-ignored",
        "13:1 warning interop.unknown-property",
      ])
  }

  @Test("interoperability notes: alarms ignored on import, AUDIO attachments, once per file")
  func interopNotes() throws {
    let url = samplesFolder.appendingPathComponent("apple-calendar.ics")
    let diagnostics = Validator.validate([UInt8](try Data(contentsOf: url)), file: "a.ics")
    #expect(
      diagnostics.map { "\($0.line):\($0.column) \($0.severity) \($0.rule)" } == [
        "38:1 note interop.alarms-ignored", "42:18 note interop.audio-attachment",
      ])
  }

  @Test(
    "semantic warnings: duplicate UIDs, ACKNOWLEDGED not in UTC, a RECURRENCE-ID of no instance")
  func semantics() throws {
    #expect(
      try summary("semantics.ics") == [
        "12:5 warning semantic.duplicate-uid",
        "17:14 warning semantic.acknowledged-not-utc",
        "23:15 warning semantic.unmatched-recurrence-id",
      ])
  }

  @Test(
    "every corpus file is checked to the end, diagnostics in file order",
    .enabled(if: SharedCorpus.isPresent))
  func corpus() throws {
    var checked = 0
    var diagnosed = 0
    for path in try SharedCorpus.files() {
      let data = try Data(contentsOf: SharedCorpus.folder.appendingPathComponent(path))
      let found = Validator.validate([UInt8](data), file: path)
      checked += 1
      if !found.isEmpty { diagnosed += 1 }
      #expect(
        found.map { [$0.line, $0.column] }.elementsEqual(
          found.map { [$0.line, $0.column] }.sorted { $0.lexicographicallyPrecedes($1) }))
      #expect(found.allSatisfy { $0.line >= 1 && $0.column >= 1 })
    }
    // Many corpus files are broken on purpose: a validator that found nothing checked nothing.
    #expect(checked > 100)
    #expect(diagnosed > 50, "\(diagnosed) of \(checked) corpus files have a diagnostic")
  }
}

@Suite struct LibicalDropTests {
  /// Every component (with the physical line range from its BEGIN to the next BEGIN in the file)
  /// that carries an X-LIC-ERROR: libical dropped something there.
  private func dropped(_ components: [ICalComponent], until end: Int) -> [(
    ClosedRange<Int>, String
  )] {
    var result: [(ClosedRange<Int>, String)] = []
    for (index, component) in components.enumerated() {
      guard let begin = component.line else { continue }
      let next = components[(index + 1)...].compactMap(\.line).first ?? end
      for note in component.properties(named: "X-LIC-ERROR") {
        result.append((begin...max(begin, next), note.text))
      }
      result += dropped(component.components, until: next)
    }
    return result
  }

  @Test(
    "whatever libical drops in a corpus file, validate reports a problem in that component",
    .enabled(if: SharedCorpus.isPresent))
  func nothingEscapes() throws {
    let corpus = SharedCorpus.folder
    let files = try SharedCorpus.files()
    var escaped: [String] = []
    var drops = 0
    for name in files {
      let bytes = [UInt8](try Data(contentsOf: corpus.appendingPathComponent(name)))
      guard let text = String(validating: bytes, as: UTF8.self),
        let components = try? LibicalReader.parse(text)
      else { continue }
      let lineCount = bytes.filter { $0 == 10 }.count + 1
      let diagnostics = Validator.validate(bytes, file: name).filter { $0.severity != .note }
      for (range, note) in dropped(components, until: lineCount) {
        drops += 1
        // libical's own line attribution is lost on badly broken files: a diagnostic that names
        // the dropped text counts too.
        let dropped = note.components(separatedBy: ": ").last ?? note
        if !diagnostics.contains(where: { range.contains($0.line) || $0.message.contains(dropped) })
        {
          escaped.append("\(name):\(range): \(note)")
        }
      }
    }
    #expect(drops > 20)
    #expect(escaped == [], "\(escaped.count) of \(drops) drops escaped")
  }
}

@Suite struct AlarmsThatCannotRingTests {
  @Test(
    "with --now, alarms of a series that ended before it are reported; endless and future ones are not"
  )
  func neverRings() throws {
    let url = try #require(
      Bundle.module.url(
        forResource: "never-rings", withExtension: "ics", subdirectory: "Fixtures/validate"))
    let bytes = [UInt8](try Data(contentsOf: url))
    let now = Instant(secondsSince1970: 1_796_198_400)  // 2026-12-02T08:00:00Z
    let found = Validator.validate(bytes, file: "n.ics", now: now).filter { $0.severity != .note }
    #expect(
      found.map { "\($0.line):\($0.column) \($0.rule)" } == ["9:1 semantic.alarm-never-rings"])
    #expect(found.first?.message.contains("2026-01-07") == true)
    // Without a present moment the check does not run.
    #expect(Validator.validate(bytes, file: "n.ics").filter { $0.severity != .note }.isEmpty)
  }
}
