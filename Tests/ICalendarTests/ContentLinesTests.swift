import Testing

@testable import ICalendar

/// One content line as the lexer read it, with the layout ``SourceMap`` gives it.
private struct ScannedLine {
  let name: String
  let value: String
  let parameters:
    [(name: String, values: [String], namePosition: SourcePosition, valuePosition: SourcePosition)]
  let layout: ContentLineLayout

  var valuePosition: SourcePosition { layout.value }
  var namePosition: SourcePosition { layout.name }
  func position(ofValueOffset offset: Int) -> SourcePosition {
    layout.position(ofValueOffset: offset)
  }
}

@Suite struct ContentLinesTests {
  /// Every content line the lexer reads from `bytes`, and every problem it finds (as
  /// `validate` reads a file: with the lint checks), in file order.
  private func scan(_ bytes: [UInt8]) -> (lines: [ScannedLine], findings: [LineFinding]) {
    let document = ICalendarReader.document(bytes)
    var lexer = ContentLineLexer(bytes, lint: false)
    var lines: [ScannedLine] = []
    let map = SourceMap(bytes)
    while let line = lexer.next() {
      guard case .success(let parts) = ContentLineParts.parse(line.bytes),
        let layout = map.layout(ofLineAt: line.start)
      else { continue }
      let text = { (range: Range<Int>) in
        String(
          decoding: line.bytes[
            (line.bytes.startIndex + range.lowerBound)..<(line.bytes.startIndex + range.upperBound)],
          as: UTF8.self)
      }
      lines.append(
        ScannedLine(
          name: text(0..<parts.nameEnd), value: text(parts.valueStart..<line.bytes.count),
          parameters: parts.parameters.map {
            (
              text($0.name), $0.values.map(text), lexer.position(in: line, $0.name.lowerBound),
              lexer.position(in: line, $0.valueStart)
            )
          }, layout: layout))
    }
    return (lines, document.findings)
  }

  private func scan(_ text: String) -> (lines: [ScannedLine], findings: [LineFinding]) {
    scan(Array(text.utf8))
  }

  @Test("folded lines are unfolded and offsets map back to the original line and column")
  func unfolding() throws {
    let (lines, findings) = scan("DESCRIPTION;LANGUAGE=en:Hello\r\n  world\r\n\tagain\r\nX:y\r\n")
    #expect(findings.isEmpty)
    #expect(lines.map(\.name) == ["DESCRIPTION", "X"])
    let line = try #require(lines.first)
    #expect(line.value == "Hello worldagain")
    #expect(line.valuePosition == SourcePosition(line: 1, column: 25))
    #expect(line.position(ofValueOffset: 4) == SourcePosition(line: 1, column: 29))
    #expect(line.position(ofValueOffset: 5) == SourcePosition(line: 2, column: 2))
    #expect(line.position(ofValueOffset: 11) == SourcePosition(line: 3, column: 2))
    #expect(lines[1].namePosition == SourcePosition(line: 4, column: 1))
  }

  @Test("parameters keep their positions; quoted values may hold ':', ';' and ','")
  func parameters() throws {
    let (lines, findings) = scan(
      "ATTENDEE;CN=\"Doe, Jane: CEO\";MEMBER=\"a\",\"b\";ROLE=CHAIR:mailto:j@x.org\r\n")
    #expect(findings.isEmpty)
    let line = try #require(lines.first)
    #expect(line.parameters.map(\.name) == ["CN", "MEMBER", "ROLE"])
    #expect(line.parameters.map(\.values) == [["Doe, Jane: CEO"], ["a", "b"], ["CHAIR"]])
    #expect(line.layout.parameterValue("member") == SourcePosition(line: 1, column: 37))
    #expect(line.parameters[1].namePosition == SourcePosition(line: 1, column: 30))
    #expect(line.parameters[1].valuePosition == SourcePosition(line: 1, column: 37))
    #expect(line.value == "mailto:j@x.org")
    #expect(line.valuePosition == SourcePosition(line: 1, column: 56))
  }

  @Test("a UTF-8 character split by a fold is restored, not reported")
  func splitCharacter() throws {
    let bytes: [UInt8] = Array("SUMMARY:caf".utf8) + [0xC3, 0x0D, 0x0A, 0x20, 0xA9, 0x0D, 0x0A]
    let (lines, findings) = scan(bytes)
    #expect(findings.isEmpty)
    #expect(lines.first?.value == "café")
  }

  @Test("a byte-order mark is skipped and an empty input has nothing")
  func edges() {
    let (lines, findings) = scan([0xEF, 0xBB, 0xBF] + Array("A:b\r\n".utf8))
    #expect(findings.isEmpty)
    #expect(lines.first?.namePosition == SourcePosition(line: 1, column: 1))
    #expect(scan([]).lines.isEmpty)
    #expect(scan([]).findings.isEmpty)
    #expect(
      scan("\r\n x\r\nA:b\r\n").findings == [
        LineFinding(.orphanContinuation, at: .init(line: 2, column: 1))
      ])
  }

  @Test("bare LF is reported once, at the first such line, with a count")
  func bareLineFeeds() {
    let (lines, findings) = scan("A:b\r\nC:d\nE:f\nG:h")
    #expect(lines.map(\.value) == ["b", "d", "f", "h"])
    #expect(findings == [LineFinding(.bareLineFeed(count: 2), at: .init(line: 2, column: 4))])
    #expect(findings.first?.isError == false)
  }

  @Test(
    "each problem is reported at its place and scanning goes on",
    arguments: [
      ("X:" + String(repeating: "a", count: 73) + "\r\n", nil),  // exactly 75 octets: fine
      (
        "X:" + String(repeating: "a", count: 74) + "\r\n",
        LineFinding(.longLine(octets: 76), at: .init(line: 1, column: 76))
      ),
      ("X:a\u{1}\r\n", LineFinding(.controlCharacter(1), at: .init(line: 1, column: 4))),
      // A CR not followed by LF is a control character.
      ("X:a\rb\r\n", LineFinding(.controlCharacter(0x0D), at: .init(line: 1, column: 4))),
      ("SUMMARY\r\n", LineFinding(.missingColon, at: .init(line: 1, column: 8))),
      (":x\r\n", LineFinding(.emptyName, at: .init(line: 1, column: 1))),
      (";A=b:x\r\n", LineFinding(.emptyName, at: .init(line: 1, column: 1))),
      ("X Y:z\r\n", LineFinding(.invalidName(0x20), at: .init(line: 1, column: 2))),
      (
        "X;A:z\r\n",
        LineFinding(
          .badParameter("parameter A has no '=' and value"), at: .init(line: 1, column: 4))
      ),
      (
        "X;A=\"b:z\r\n",
        LineFinding(
          .badParameter("quoted value of parameter A has no closing '\"'"),
          at: .init(line: 1, column: 5))
      ),
      ("X;A=b\r\n", LineFinding(.missingColon, at: .init(line: 1, column: 6))),
    ] as [(String, LineFinding?)])
  func findings(text: String, expected: LineFinding?) {
    let (_, findings) = scan("BEGIN:X\r\n" + text + "END:X\r\n")
    let shifted = expected.map {
      LineFinding($0.kind, at: .init(line: $0.position.line + 1, column: $0.position.column))
    }
    #expect(findings == (shifted.map { [$0] } ?? []))
  }

  @Test("invalid UTF-8 is reported at its byte, once per content line")
  func invalidUTF8() {
    let bytes =
      Array("X:ab".utf8) + [0xFF, 0xFE] + Array("\r\nY:".utf8) + [0xE2, 0x82] + [0x0D, 0x0A]
    let (lines, findings) = scan(bytes)
    #expect(lines.count == 2)
    #expect(
      findings == [
        LineFinding(.invalidUTF8, at: .init(line: 1, column: 5)),
        LineFinding(.invalidUTF8, at: .init(line: 2, column: 3)),
      ])
    #expect(findings.allSatisfy { $0.isError })
  }

  @Test("a bad parameter keeps the line when its value can still be found")
  func recovery() throws {
    let (lines, findings) = scan("BEGIN;=x:VEVENT\r\n")
    #expect(findings.count == 1)
    #expect(lines.first?.name == "BEGIN")
    #expect(lines.first?.value == "VEVENT")
    #expect(lines.first?.valuePosition == SourcePosition(line: 1, column: 10))
  }
}
