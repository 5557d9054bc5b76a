import Foundation
import ICalendar
import LibicalReference
import Testing

/// The Swift reader: content lines per RFC 5545 §3.1, nesting, and what it cannot read.
@Suite struct ReaderTests {
  private func read(_ text: String) throws -> [ICalComponent] {
    try ICalendarReader.read(Array(text.utf8))
  }

  @Test("folded lines unfold (CRLF or LF, then one space or tab); BEGIN lines keep their line")
  func folding() throws {
    let text =
      "\u{FEFF}BEGIN:VCALENDAR\r\nVERSION:2.0\r\n\r\nBEGIN:VEVENT\r\nSUMMARY:A long\r\n  sum\r\n\tmary\r\n"
      + "DESCRIPTION:bare\n line feeds\nBEGIN:VALARM\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\n"
      + "END:VEVENT\r\nEND:VCALENDAR\r\n"
    let calendar = try #require(try read(text).first)
    #expect(calendar.line == 1)
    let event = try #require(calendar.components.first)
    #expect(event.line == 4)
    #expect(event.property("SUMMARY")?.value == "A long summary")
    #expect(event.property("DESCRIPTION")?.value == "bareline feeds")
    #expect(event.components.first?.line == 10)
    #expect(event.components.first?.property("TRIGGER")?.value == "-PT5M")
  }

  @Test("names are case-insensitive; parameters keep quoted ';' and ':'; values stay as written")
  func nameParametersValue() throws {
    let text =
      "BEGIN:vcalendar\r\nbegin:VEVENT\r\nx-Thing;Param=\"a;b:c\";tzid=Europe/Berlin:v:w;x\\,y\r\n"
      + "end:vevent\r\nEND:VCALENDAR\r\n"
    let property = try #require(try read(text).first?.components.first?.properties.first)
    #expect(property.name == "X-THING")
    #expect(
      property.parameters == [
        ICalParameter("PARAM", "a;b:c"), ICalParameter("TZID", "Europe/Berlin"),
      ])
    #expect(property.value == "v:w;x\\,y")
    #expect(property.text == "v:w;x,y")
  }

  @Test(
    "a line that is no content line becomes a note; an END naming nothing open closes the innermost, as libical nests it"
  )
  func losses() throws {
    let text =
      "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY no colon\r\n;X=1:y\r\nEND:VTODO\r\nUID:1\r\n"
      + "END:VEVENT\r\nEND:VCALENDAR\r\n"
    let calendar = try #require(try read(text).first)
    let event = try #require(calendar.components.first)
    #expect(
      event.unreadable == [
        "unreadable content line 3: SUMMARY no colon", "unreadable content line 4: ;X=1:y",
      ])
    // END:VTODO closed the VEVENT, so UID:1 belongs to the VCALENDAR, which END:VEVENT closed.
    #expect(event.property("UID") == nil)
    #expect(calendar.property("UID")?.value == "1")
    // validate reads the same tree, and says what is wrong with it.
    let problems = ICalendarReader.document(Array(text.utf8)).structure.map(\.kind)
    #expect(
      problems == [
        .mismatchedEnd(name: "VTODO", open: "VEVENT", openLine: 2),
        .mismatchedEnd(name: "VEVENT", open: "VCALENDAR", openLine: 1),
        .endWithoutBegin(name: "VCALENDAR"),
      ])
  }

  @Test("an END closes what is open inside it; what is open at the end closes there")
  func nesting() throws {
    let text =
      "BEGIN:VCALENDAR\nBEGIN:VEVENT\nBEGIN:VALARM\nEND:VCALENDAR\nBEGIN:VCALENDAR\nBEGIN:VTODO\n"
    let roots = try read(text)
    #expect(roots.map(\.name) == ["VCALENDAR", "VCALENDAR"])
    #expect(roots.map(\.line) == [1, 5])
    #expect(roots[0].components.first?.components.first?.name == "VALARM")
    #expect(roots[1].components.map(\.name) == ["VTODO"])
  }

  @Test(
    "each child of a top-level component knows the bytes it was read from",
    arguments: [
      "BEGIN:VCALENDAR\r\nBEGIN:VTIMEZONE\r\nTZID:x\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:a\r\n"
        + "SUMMARY:fol\r\n ded\r\nBEGIN:VALARM\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\nEND:VEVENT\r\n"
        + "BEGIN:VTODO\r\nno property\r\nEND:VJOURNAL\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
      // An END naming the parent closes the child too; what is open at the end closes there.
      "BEGIN:VCALENDAR\nBEGIN:VEVENT\nBEGIN:VALARM\nEND:VCALENDAR\nBEGIN:VCALENDAR\nBEGIN:VTODO\nUID:t\n",
      // Children of a root that is not a VCALENDAR, and a property before any BEGIN.
      "X:1\nBEGIN:X-ROOT\nBEGIN:X-CHILD\nEND:X-CHILD\nEND:X-ROOT\n",
    ])
  func childSources(text: String) throws {
    let bytes = Array(text.utf8)
    let whole = try ICalendarReader.read(bytes)
    let children = whole.flatMap(\.components)
    #expect(!children.isEmpty)
    for child in children {
      // Its bytes run from its BEGIN line to the line that closed it.
      let range = try #require(child.sourceRange)
      let source = String(decoding: bytes[range], as: UTF8.self)
      #expect(source.hasPrefix("BEGIN:\(child.name)"))
      #expect(child.line == bytes[..<range.lowerBound].filter { $0 == 0x0A }.count + 1)
    }
  }

  @Test("data without BEGIN, or with a NUL byte, is refused with its line")
  func refused() throws {
    #expect(
      throws: ICalendarSyntaxError(line: 1, message: "no BEGIN line: this is not iCalendar data")
    ) {
      try read("")
    }
    #expect(
      throws: ICalendarSyntaxError(line: 1, message: "no BEGIN line: this is not iCalendar data")
    ) {
      try read("hello\r\nworld")
    }
    #expect(
      throws: ICalendarSyntaxError(
        line: 2, message: "contains a NUL byte: this is not iCalendar text")
    ) {
      try read("BEGIN:VCALENDAR\r\nX:\u{0}\r\n")
    }
  }

  @Test("both readers refuse a BEGIN nested deeper than 32 levels, even 100,000 deep")
  func nestingBound() throws {
    let depth = ComponentNesting.maximumDepth
    let fits =
      String(repeating: "BEGIN:X\r\n", count: depth) + String(repeating: "END:X\r\n", count: depth)
    #expect(try read(fits).count == 1)
    #expect(try LibicalReader.parse(fits).count == 1)
    for count in [depth + 1, 100_000] {
      let deep =
        String(repeating: "BEGIN:X\r\n", count: count)
        + String(repeating: "END:X\r\n", count: count)
      let error = ComponentNesting.tooDeep(line: depth + 1)
      #expect(throws: error) { try read(deep) }
      #expect(throws: error) { try LibicalReader.parse(deep) }
    }
    // END lines close levels: siblings at the deepest level are fine.
    let siblings =
      String(repeating: "BEGIN:X\r\n", count: depth - 1)
      + String(repeating: "BEGIN:Y\r\nEND:Y\r\n", count: 1_000)
      + String(repeating: "END:X\r\n", count: depth - 1)
    #expect(try read(siblings).count == 1)
    #expect(try LibicalReader.parse(siblings).count == 1)
  }

  @Test(
    "children read in pieces, each from its own BEGIN line, are the children a full read gives",
    arguments: [
      "lines.ics", "custom-eastern.ics",
      "BEGIN:VCALENDAR\nBEGIN:VEVENT\nBEGIN:VALARM\nEND:VCALENDAR\nBEGIN:VCALENDAR\nBEGIN:VTODO\n",
      "BEGIN:VCALENDAR\nX:1\nBEGIN:VEVENT\nUID:a\n  folded\nEND:VTODO\nEND:VEVENT\nbroken\n"
        + "BEGIN:VTODO\nEND:VTODO\nX:2\nBEGIN:VEVENT\nEND:VCALENDAR\nBEGIN:X\nBEGIN:Y\nEND:Y\n",
      "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nBEGIN:VALARM\r\nEND:VALARM\r\nEND:VEVENT\r\n"
        + "BEGIN:VEVENT\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
    ])
  func piecesAgree(_ source: String) throws {
    let bytes: [UInt8]
    if source.hasSuffix(".ics") {
      let url = try #require(
        Bundle.module.url(forResource: source, withExtension: nil, subdirectory: "Fixtures"))
      bytes = Array(try Data(contentsOf: url))
    } else {
      bytes = Array(source.utf8)
    }
    let whole = try ICalendarReader.read(bytes)
    let outline = try #require(ICalendarReader.calendarsAndZones(bytes))
    #expect(outline.childCounts == whole.map(\.components.count))
    // Pieces of one child each, then of as many as there are.
    for minimum in [1, Int.max] {
      var read = whole.map { _ in [ICalComponent]() }
      for (root, children) in outline.pieces(minimum: minimum) {
        ICalendarReader.children(children, of: root, in: outline, bytes: bytes) {
          read[root].append($0)
        }
      }
      #expect(read == whole.map(\.components))
    }
  }

  @Test("libical reads a 16 MB content line whole (its own string reader was quadratic)")
  func longLineThroughLibical() throws {
    let value = String(repeating: "a", count: 16 << 20)
    let text = "BEGIN:VCALENDAR\r\nX-BIG:\(value)\r\nX-AFTER:1\r\nEND:VCALENDAR\r\n"
    let calendar = try #require(try LibicalReader.parse(text).first)
    #expect(calendar.property("X-BIG")?.value.utf8.count == 16 << 20)
    #expect(calendar.property("X-AFTER")?.value == "1")
  }
}
