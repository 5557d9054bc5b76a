import AlarmCal
import Foundation
import Testing

@Suite struct ValidatorTextEscapeTests {
  /// `line:column rule` of each diagnostic for a calendar of one event holding `lines`, which
  /// start on line 7.
  private func findings(_ lines: [String]) -> [String] {
    let text =
      ([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VEVENT",
        "DTSTAMP:20260101T000000Z",
        "DTSTART:20270105T070000Z",
      ] + lines + ["END:VEVENT", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    return Validator.validate(Array(text.utf8), file: "t.ics").filter { $0.severity != .note }.map {
      "\($0.line):\($0.column) \($0.rule)"
    }
  }

  @Test("the report's repro: an unescaped comma in SUMMARY is a warning at its column")
  func repro() throws {
    let url = try #require(
      Bundle.module.url(
        forResource: "unescaped-text", withExtension: "ics", subdirectory: "Fixtures/validate"),
      "missing fixture Fixtures/validate/unescaped-text.ics")
    let diagnostics = Validator.validate(
      [UInt8](try Data(contentsOf: url)), file: "unescaped-text.ics")
    #expect(
      diagnostics.filter { $0.severity != .note }.map {
        "\($0.line):\($0.column) \($0.severity) \($0.rule) \($0.rfc)"
      }
        == ["8:17 warning value.unescaped-text RFC 5545 §3.3.11"])
    #expect(
      diagnostics.first { $0.rule == "value.unescaped-text" }?.message
        == #"SUMMARY has an unescaped ","; TEXT writes it "\," (readers may end the value there)"#)
  }

  @Test(
    "the first unescaped , or ; of a TEXT value, where it separates nothing",
    arguments: [
      (["UID:1", "SUMMARY:a\\, b\\; c\\\\ d"], []),  // all escaped
      (["UID:1", "SUMMARY:bring chalk; shoes, rope"], ["8:20 value.unescaped-text"]),  // first only
      (["UID:1", "LOCATION:a\\\\,b"], ["8:13 value.unescaped-text"]),  // an escaped backslash
      (["UID:1", "CATEGORIES:a,b,c"], []),  // commas separate CATEGORIES
      (["UID:1", "CATEGORIES:a,b;c"], ["8:15 value.unescaped-text"]),
      (["UID:1", "RESOURCES:EASEL,PROJECTOR"], []),
      (["UID:1", "REQUEST-STATUS:2.0;Success"], []),  // statcode;statdesc
      (["UID:1", "REQUEST-STATUS:2.0;Success, at last"], ["8:27 value.unescaped-text"]),
      (["UID:1", "GEO:37.386013;-122.082932"], []),  // FLOAT;FLOAT
      (["UID:1", "X-ANYTHING:a,b;c"], []),  // X- properties are not known to be TEXT
      (["UID:1", "DESCRIPTION;VALUE=X-OTHER:a,b"], []),  // not TEXT
      (["UID:a,b"], ["7:6 value.unescaped-text"]),  // UID is TEXT (§3.8.4.7)
      (["UID:1", "SUMMARY:abcdefghij", " klm,n"], ["9:5 value.unescaped-text"]),  // folded
    ] as [([String], [String])])
  func unescaped(lines: [String], expected: [String]) {
    #expect(findings(lines) == expected)
  }

  @Test(
    "escapes are checked in every TEXT property, including those the validator's list lacked",
    arguments: [
      ("UID:a\\qb", "7:6"), ("RELATED-TO:a\\qb", "8:13"), ("CONTACT:a\\qb", "8:10"),
      ("STATUS:CONFIRMED\\q", "8:17"), ("CLASS:PUBLIC\\q", "8:13"),
    ])
  func unknownEscape(line: String, at position: String) {
    let lines = line.hasPrefix("UID") ? [line] : ["UID:1", line]
    #expect(findings(lines) == ["\(position) value.unknown-escape"])
  }

  @Test("the rule is listed, a warning of RFC 5545 §3.3.11")
  func listed() {
    #expect(ValidationRule.all.contains(.unescapedText))
    #expect(ValidationRule.unescapedText.id == "value.unescaped-text")
    #expect(ValidationRule.unescapedText.severity == .warning)
    #expect(ValidationRule.unescapedText.rfc == "RFC 5545 §3.3.11")
  }
}
