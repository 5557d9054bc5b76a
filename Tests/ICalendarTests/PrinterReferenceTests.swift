import Foundation
import ICalendar
import LibicalReference
import Testing

/// The Swift printer against libical's (``LibicalReferencePrinter``): the same bytes for every
/// tree alarmcal's exporter builds.
@Suite struct PrinterReferenceTests {
  private static let samples = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Samples")

  /// Records where the two printers' bytes first differ (String's `==` would equate canonically
  /// equivalent text, so bytes are compared).
  private func expectSameBytes(
    _ tree: ICalComponent, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let reference = try LibicalReferencePrinter.print(tree)
    let printed = ICalendarPrinter.print(tree)
    let expected = Self.withoutSplitLineBreaks(Array(reference.utf8))
    let actual = Array(printed.utf8)
    guard actual != expected else { return }
    let at =
      zip(actual, expected).enumerated().first { $1.0 != $1.1 }?.offset
      ?? min(actual.count, expected.count)
    let context = { (bytes: [UInt8]) in
      String(decoding: bytes[max(0, at - 80)..<min(bytes.count, at + 80)], as: UTF8.self)
        .debugDescription
    }
    Issue.record(
      "\(what): first difference at byte \(at) of \(expected.count)\nlibical: \(context(expected))\nswift:   \(context(actual))",
      sourceLocation: sourceLocation)
  }

  /// libical's bytes with its one fold defect mended: it folds a line with its CRLF counted,
  /// so a line of just the wrong length ends in `CR CRLF SP LF` (a stray CR in the value) or
  /// `CRLF SP CRLF` (an empty continuation); alarmcal ends such a line with one CRLF.
  static func withoutSplitLineBreaks(_ bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index...].starts(with: [0x0D, 0x0D, 0x0A, 0x20, 0x0A]) {
        result += [0x0D, 0x0A]
        index += 5
      } else if bytes[index...].starts(with: [0x0D, 0x0A, 0x20, 0x0D, 0x0A]) {
        result += [0x0D, 0x0A]
        index += 5
      } else {
        result.append(bytes[index])
        index += 1
      }
    }
    return result
  }

  @Test("a line whose last piece would hold the line break ends with one CRLF, not a split one")
  func lineBreaksAreNotSplit() throws {
    for length in 140...152 {
      let label = String(repeating: "a", count: length)
      let tree = ExportShape.calendar([Self.event(label: label)])
      let printed = Array(ICalendarPrinter.print(tree).utf8)
      #expect(
        !printed.contains(0x0D)
          || printed.indices.dropLast().allSatisfy {
            printed[$0] != 0x0D || printed[$0 + 1] == 0x0A
          }, "a CR without LF at length \(length)")
      let text = ICalendarPrinter.print(tree)
      #expect(!text.contains("\r\n \r\n"), "an empty continuation at length \(length)")
      #expect(!text.contains("\r\r\n"), "a split line break at length \(length)")
    }
    // libical itself split some of them: the mending above is needed and not idle.
    let broken = (140...152).filter { length in
      let tree = ExportShape.calendar([Self.event(label: String(repeating: "a", count: length))])
      let reference = (try? LibicalReferencePrinter.print(tree)) ?? ""
      return reference.contains("\r\r\n") || reference.contains("\r\n \r\n")
    }
    #expect(!broken.isEmpty)
  }

  private static func event(
    id: String = "id", label: String = "Alarm", sound: String? = "Radar", days: Set<Weekday>? = []
  ) -> ExportShape.Event {
    ExportShape.Event(
      id: id, label: label, sound: sound, days: days,
      start: LocalDateTime(LocalDate(daysSince1970: 20_790), LocalTime(secondsSinceMidnight: 0)),
      zone: "Europe/Berlin")
  }

  @Test(
    "every sample alarm list, in the exporter's shape, prints as libical printed it",
    arguments: ["alarms.json", "ios-alarms.json"])
  func sampleAlarmLists(name: String) throws {
    let data = try Data(contentsOf: Self.samples.appendingPathComponent(name))
    let events = try ExportShape.events(fromAlarmFile: data)
    #expect(events.count >= 4)
    try expectSameBytes(ExportShape.calendar(events), name)
  }

  /// The parameters of `RoundTripTests.generatedAlarms` (AlarmCalTests): every weekday subset,
  /// times in DST gaps and overlaps, zones with odd offsets, labels with escapes and length.
  @Test("the round-trip tests' 3,072 generated alarms print as libical printed them")
  func generatedAlarms() throws {
    let zones = [
      "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata",
      "Pacific/Chatham", "America/Sao_Paulo", "UTC", "Africa/Casablanca", "America/St_Johns",
      "Asia/Tokyo",
    ]
    let labels = [
      "Wake up", "Café ☕ Frühstück", "a,b;c\\d", "two\nlines", "日本語のラベル 🕰️", "",
      String(repeating: "long label with many words ", count: 12) + "end", "emoji 👩‍👩‍👧‍👦 family",
      "quote \" and colon: here", "Tab\tinside",
    ]
    let times = [(2, 30), (1, 30), (0, 0), (23, 59), (7, 5), (12, 0), (3, 0), (2, 0)]
    let sounds: [String?] = [nil, "Radar", "Slow Rise", "sound-with:colon"]
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    var events: [ExportShape.Event] = []
    for mask in 0..<128 {
      for variant in 0..<24 {
        let days = Set(Weekday.allCases.filter { mask & (1 << ($0.rawValue - 1)) != 0 })
        let (hour, minute) = times[next(times.count)]
        let time = LocalTime(secondsSinceMidnight: hour * 3600 + minute * 60)
        let date = LocalDate(daysSince1970: 20_000 + next(1000))
        events.append(
          ExportShape.Event(
            id: "gen-\(mask)-\(variant)", label: labels[next(labels.count)],
            sound: sounds[next(sounds.count)], days: variant == 23 ? nil : days,
            start: LocalDateTime(date, time), zone: zones[next(zones.count)],
            enabled: next(4) != 0, snooze: next(2) == 0, snoozeMinutes: 1 + next(60)))
      }
    }
    #expect(events.count == 3072)
    try expectSameBytes(ExportShape.calendar(events), "generated alarms")
  }

  /// Labels, ids and sounds the alarm file allows that stress escaping and folding.
  static let hostileTexts: [String] = {
    var texts = [
      "\\", ",", ";", ":", "\"", "a\\b,c;d:e\"f", "\\n is not a newline", "line\nbreak",
      "\n\nblank lines\n\n", "tab\there", "emoji 😀👩‍👩‍👧‍👦🏳️‍🌈", "e\u{301}\u{301} combining",
      "\"quoted\"", "ends with a backslash \\", "a;b,c:d", "BEGIN:VEVENT", "END:VCALENDAR",
      "x\u{85}y\u{2028}z", "日本語のラベル", "\u{FEFF}bom", "^caret^n", "=equals=",
      String(repeating: "Ab", count: 5_000),
      String(repeating: "Frühstück ☕ ", count: 800).trimmingCharacters(in: .whitespaces),
      String(repeating: "😀", count: 2_500),
    ]
    // Content lines ("SUMMARY:" is 8 octets) of 74, 75, 76 and 150 octets and around them
    // (libical folds those after "SUMMARY:"), and values of those lengths, which it folds inside
    // runs of 2-, 3- and 4-octet characters and combining marks.
    for character in ["é", "€", "😀", "e\u{301}", "a"] {
      for length in Array(64...78) + Array(140...152) {
        for pad in 0..<4 {
          var text = String(repeating: "x", count: pad)
          while text.utf8.count + character.utf8.count <= length { text += character }
          texts.append(text)
          texts.append(text + " tail")
        }
      }
    }
    return texts
  }()

  @Test("hostile labels print as libical printed them")
  func hostileLabels() throws {
    let events = Self.hostileTexts.enumerated().map { Self.event(id: "l\($0)", label: $1) }
    try expectSameBytes(ExportShape.calendar(events), "labels")
  }

  @Test("hostile ids print as libical printed them")
  func hostileIDs() throws {
    let events = Self.hostileTexts.filter { !$0.contains("\n") && !$0.contains("\t") }
      .map { Self.event(id: $0) }
    try expectSameBytes(ExportShape.calendar(events), "ids")
  }

  @Test("hostile sound names print as libical printed them")
  func hostileSounds() throws {
    let events = Self.hostileTexts.filter { !$0.contains("\n") && !$0.contains("\t") }
      .map { Self.event(sound: $0) }
    try expectSameBytes(ExportShape.calendar(events), "sounds")
  }

  @Test("every length of line folds as libical folded it, whatever the characters at the fold")
  func foldingAtEveryLength() throws {
    let alphabet = ["a", "b", " ", ";", ",", ":", "\\", "\n", "é", "€", "😀", "\u{301}"]
    var seed: UInt64 = 42
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    var event = ICalComponent("VEVENT")
    for length in 1...400 {
      // One alphabet per line: all of it, or only characters of one width, so that some lines
      // have no place to fold but inside a run of multi-octet characters.
      let pool = length % 3 == 0 ? alphabet : [alphabet[8 + length % 4]]
      var text = ""
      for _ in 0..<length { text += pool[next(pool.count)] }
      let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
      if trimmed.isEmpty { continue }
      event.add(.text(length % 2 == 0 ? "SUMMARY" : "DESCRIPTION", trimmed))
    }
    #expect(event.properties.count > 300)
    try expectSameBytes(event, "folding")
  }

  @Test("the VTIMEZONE of every zone libical knows prints as libical printed it")
  func everyZone() throws {
    var printed = 0
    for start in ["19700101T000000", "20261201T000000"] {
      let from = try #require(DateTimeValue(text: start)).local
      for identifier in TimeZone.knownTimeZoneIdentifiers {
        guard let zone = VTimezoneLibrary.vtimezone(for: identifier, from: from) else { continue }
        try expectSameBytes(zone, "\(identifier) from \(start)")
        printed += 1
      }
    }
    #expect(printed > 2 * 400)
  }

  @Test(
    "a VALUE parameter naming the property's default type is left out, any other comes first",
    arguments: [
      "ATTACH;VALUE=URI:Radar", "ATTACH;FMTTYPE=audio/aiff;VALUE=URI:x",
      "ATTACH;ENCODING=BASE64;VALUE=BINARY:AAAA", "ATTENDEE;VALUE=CAL-ADDRESS:mailto:a@b",
      "CALSCALE;VALUE=TEXT:GREGORIAN", "CATEGORIES;VALUE=TEXT:x", "COMMENT;VALUE=TEXT:x",
      "COMPLETED;VALUE=DATE-TIME:20260101T000000Z", "CONTACT;VALUE=TEXT:x",
      "CREATED;VALUE=DATE-TIME:20260101T000000Z", "DESCRIPTION;VALUE=TEXT:x",
      "DTEND;VALUE=DATE-TIME:20260101T000000", "DTSTAMP;VALUE=DATE-TIME:20260101T000000Z",
      "DTSTART;TZID=Europe/Berlin;VALUE=DATE-TIME:20260101T000000",
      "DTSTART;TZID=Europe/Berlin;VALUE=DATE:20260101", "DTSTART;VALUE=date:20260101",
      "DUE;VALUE=DATE-TIME:20260101T000000", "DURATION;VALUE=DURATION:PT1H",
      "EXDATE;VALUE=DATE-TIME:20260101T000000", "LAST-MODIFIED;VALUE=DATE-TIME:20260101T000000Z",
      "LOCATION;VALUE=TEXT:x", "ORGANIZER;VALUE=CAL-ADDRESS:mailto:a@b", "PRIORITY;VALUE=INTEGER:1",
      "PRODID;VALUE=TEXT:x", "RDATE;VALUE=DATE-TIME:20260101T000000",
      "RDATE;VALUE=PERIOD:20260101T000000Z/PT1H", "RECURRENCE-ID;VALUE=DATE-TIME:20260101T000000",
      "RELATED-TO;VALUE=TEXT:x", "REPEAT;VALUE=INTEGER:1", "RESOURCES;VALUE=TEXT:x",
      "RRULE;VALUE=RECUR:FREQ=DAILY", "SEQUENCE;VALUE=INTEGER:1", "SUMMARY;VALUE=TEXT:x",
      "TRIGGER;VALUE=DURATION:-PT5M", "TRIGGER;VALUE=DATE-TIME:20260101T000000Z",
      "TZID;VALUE=TEXT:x", "TZNAME;VALUE=TEXT:x", "TZOFFSETFROM;VALUE=UTC-OFFSET:+0100",
      "TZOFFSETTO;VALUE=UTC-OFFSET:+0100", "TZURL;VALUE=URI:http://x", "UID;VALUE=TEXT:x",
      "URL;VALUE=URI:http://x", "VERSION;VALUE=TEXT:2.0", "X-A;VALUE=URI:x",
      "X-A;VALUE=DURATION:PT1H",
    ])
  func valueParameter(line: String) throws {
    try expectSameBytes(ICalComponent("VEVENT", properties: [try Self.property(line)]), line)
  }

  @Test(
    "parameter values are quoted when empty or holding ; : or , and only then",
    arguments: [
      "plain", "a b", "a,b", "a;b", "a:b", "", "a=b", "a'b", "a^b", "Ünïcödé", "a\tb", "a\\b",
      "Etc/GMT+5", "America/Argentina/Buenos_Aires",
    ])
  func parameterQuoting(value: String) throws {
    let property = ICalProperty(
      "DTSTART", "20260101T000000",
      parameters: [ICalParameter("TZID", value), ICalParameter("X-P", value)])
    try expectSameBytes(ICalComponent("VEVENT", properties: [property]), value)
  }

  @Test("libical's X-LIC-ERROR notes are left out")
  func licErrorsLeftOut() throws {
    let event = ICalComponent(
      "VEVENT",
      properties: [
        ICalProperty("UID", "a"),
        ICalProperty(
          "X-LIC-ERROR", "No value for DTEND property. Removing entire property:",
          parameters: [ICalParameter("X-LIC-ERRORTYPE", "VALUE-PARSE-ERROR")]),
        ICalProperty("SUMMARY", "b"),
      ])
    try expectSameBytes(event, "X-LIC-ERROR")
    #expect(ICalendarPrinter.print(event) == "BEGIN:VEVENT\r\nUID:a\r\nSUMMARY:b\r\nEND:VEVENT\r\n")
  }

  @Test("where libical's printer was wrong or refused, the Swift printer writes the tree as held")
  func knownDifferences() throws {
    // libical 3.0.16 ends a component it has no kind for with END:X.
    let location = ICalComponent("VLOCATION", properties: [ICalProperty("UID", "l")])
    #expect(try LibicalReferencePrinter.print(location).hasSuffix("END:X\r\n"))
    #expect(ICalendarPrinter.print(location) == "BEGIN:VLOCATION\r\nUID:l\r\nEND:VLOCATION\r\n")
    // libical refuses an empty value; RFC 5545 TEXT may be empty.
    let empty = ICalComponent("VEVENT", properties: [ICalProperty("SUMMARY", "")])
    #expect(throws: LibicalRefusal(contentLine: "SUMMARY:")) {
      try LibicalReferencePrinter.print(empty)
    }
    #expect(ICalendarPrinter.print(empty) == "BEGIN:VEVENT\r\nSUMMARY:\r\nEND:VEVENT\r\n")
  }

  /// A property from its content line, as alarmcal's reader reads it.
  private static func property(_ line: String) throws -> ICalProperty {
    let text = "BEGIN:VEVENT\r\n\(line)\r\nEND:VEVENT\r\n"
    let event = try #require(try ICalendarReader.read(Array(text.utf8)).first)
    return try #require(event.properties.first)
  }
}
