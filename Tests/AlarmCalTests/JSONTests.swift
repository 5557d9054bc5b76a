import AlarmCal
import Testing

private let utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF]

/// A nested value exercising every case, used by the writer and round-trip tests.
private let alarm: JSONValue = .object([
  JSONMember("name", .string("Wake up")),
  JSONMember("time", .string("07:30")),
  JSONMember("enabled", .bool(true)),
  JSONMember("days", .array([.string("mon"), .string("fri")])),
  JSONMember(
    "snooze", .object([JSONMember("minutes", .number("9")), JSONMember("limit", .null)])),
  JSONMember("tags", .array([])),
  JSONMember("extra", .object([])),
  JSONMember("volume", .number("0.75")),
])

@Suite struct JSONTests {
  // MARK: Parsing valid documents

  @Test(
    "scalars parse to the matching case",
    arguments: [
      ("null", JSONValue.null),
      ("true", .bool(true)),
      ("false", .bool(false)),
      ("0", .number("0")),
      ("\"\"", .string("")),
      ("\"alarm\"", .string("alarm")),
      ("[]", .array([])),
      ("{}", .object([])),
      (" \t\r\n [ \n ] \r\n", .array([])),  // all four whitespace bytes, before and after
    ])
  func parsesScalars(text: String, expected: JSONValue) throws {
    #expect(try JSONParser().parse(text) == expected)
  }

  @Test(
    "numbers keep their literal text exactly",
    arguments: [
      "0", "-0", "10", "-12.50", "1e10", "1E-7", "6.02e+23", "0.0",
      "123456789012345678901234567890.000000000000000000001",  // far beyond Double precision
      "1e400",  // beyond Double range
    ])
  func keepsNumberText(text: String) throws {
    #expect(try JSONParser().parse(text) == .number(text))
    #expect(try JSONParser().parse("[\(text)]") == .array([.number(text)]))
  }

  @Test("a nested document keeps member order and duplicate keys")
  func parsesNestedDocument() throws {
    let text = #"""
      {"z": 1, "a": [true, null, {"k": "v"}], "z": {"inner": [[], {}]}, "": -2.5}
      """#
    let expected: JSONValue = .object([
      JSONMember("z", .number("1")),
      JSONMember("a", .array([.bool(true), .null, .object([JSONMember("k", .string("v"))])])),
      JSONMember("z", .object([JSONMember("inner", .array([.array([]), .object([])]))])),
      JSONMember("", .number("-2.5")),
    ])
    #expect(try JSONParser().parse(text) == expected)
  }

  @Test(
    "escapes decode to the characters they stand for",
    arguments: [
      (#""\"\\\/""#, "\"\\/"),
      (#""\b\f\n\r\t""#, "\u{08}\u{0C}\n\r\t"),
      (#""\u0041\u00e9\u4E2D""#, "Aé中"),
      (#""\u0000""#, "\u{00}"),
      (#""\ud83d\ude00 and \uD83D\uDE00""#, "😀 and 😀"),  // surrogate pairs in either case
      (#""é\n中""#, "é\n中"),  // raw non-ASCII on both sides of an escape
      (#""\u2028\u2029""#, "\u{2028}\u{2029}"),
    ])
  func decodesEscapes(text: String, expected: String) throws {
    #expect(try JSONParser().parse(text) == .string(expected))
  }

  @Test("emoji and CJK text survive parsing and writing unchanged")
  func preservesUnicode() throws {
    let text = #"{"名前":"目覚まし ⏰","family":"👩‍👩‍👧","🔔":["日本語","한국어","Ελληνικά"]}"#
    let value = try JSONParser().parse(text)
    #expect(value["名前"] == .string("目覚まし ⏰"))
    #expect(value["family"]?.stringValue?.unicodeScalars.count == 5)
    #expect(value["🔔"]?.arrayValue?.count == 3)
    #expect(JSONWriter(style: .compact).string(from: value) == text)
  }

  @Test("a UTF-8 byte order mark at the start is skipped")
  func skipsByteOrderMark() throws {
    let value = try JSONParser().parse(utf8BOM + Array(#"{"snooze": true}"#.utf8))
    #expect(value == .object([JSONMember("snooze", .bool(true))]))
    #expect(try JSONParser().parse(utf8BOM + Array(" 7 ".utf8)) == .number("7"))
  }

  @Test("text and byte input give the same result")
  func textAndBytesAgree() throws {
    let text = #"{"a": [1, "é"]}"#
    #expect(try JSONParser().parse(text) == JSONParser().parse(Array(text.utf8)))
    #expect(throws: JSONSyntaxError(line: 1, column: 8, message: "unterminated string")) {
      try JSONParser().parse(#"{"a": ["é]}"#)
    }
  }

  // MARK: Rejecting broken documents

  @Test(
    "broken documents report the exact line, column and message",
    arguments: [
      BrokenJSON("[1, 2,]", 1, 6, "trailing comma in an array"),
      BrokenJSON(#"{"a": 1,}"#, 1, 8, "trailing comma in an object"),
      BrokenJSON(
        "{\n  \"time\": \"07:30\",\n  \"repeat\": 3 \"snooze\": true\n}", 3, 15,
        "expected ',' or '}' after an object member"),
      BrokenJSON("[1 2]", 1, 4, "expected ',' or ']' after an array element"),
      BrokenJSON(
        "[1, 2", 1, 6, "unexpected end of input; expected ',' or ']' after an array element"),
      BrokenJSON(
        #"{"a":1"#, 1, 7, "unexpected end of input; expected ',' or '}' after an object member"),
      BrokenJSON("[01]", 1, 2, "leading zeros are not allowed in numbers"),
      BrokenJSON("-007", 1, 1, "leading zeros are not allowed in numbers"),
      BrokenJSON("[-]", 1, 3, "expected a digit after '-'"),
      BrokenJSON("1.", 1, 3, "unexpected end of input; expected a digit after the decimal point"),
      BrokenJSON("[1.e5]", 1, 4, "expected a digit after the decimal point"),
      BrokenJSON("1e+", 1, 4, "unexpected end of input; expected a digit in the exponent"),
      BrokenJSON(".5", 1, 1, "unexpected character '.'; expected a value"),
      BrokenJSON("+1", 1, 1, "unexpected character '+'; expected a value"),
      BrokenJSON("NaN", 1, 1, "invalid literal 'NaN'"),
      BrokenJSON("[1, Infinity]", 1, 5, "invalid literal 'Infinity'"),
      BrokenJSON("tru", 1, 1, "invalid literal 'tru'"),
      BrokenJSON("[nulls]", 1, 2, "invalid literal 'nulls'"),
      BrokenJSON(#""a\x""#, 1, 3, #"invalid escape sequence '\x'"#),
      BrokenJSON("\"\\\t\"", 1, 2, #"invalid escape sequence: '\' followed by U+0009"#),
      BrokenJSON(#""\u12G4""#, 1, 2, #"invalid \u escape; expected four hex digits"#),
      BrokenJSON(#""\u12""#, 1, 2, #"invalid \u escape; expected four hex digits"#),
      BrokenJSON(#""\uD800""#, 1, 2, #"lone surrogate '\uD800' in a string"#),
      // a high surrogate followed by an escape that is not a low surrogate
      BrokenJSON(#""\ud83d\u0041""#, 1, 2, #"lone surrogate '\uD83D' in a string"#),
      BrokenJSON(#""x\uDE00""#, 1, 3, #"lone surrogate '\uDE00' in a string"#),
      BrokenJSON("\"a\tb\"", 1, 3, "unescaped control character U+0009 in a string"),
      BrokenJSON("[\"a\nb\"]", 1, 4, "unescaped control character U+000A in a string"),
      BrokenJSON(
        bytes: [0x22, 0x61, 0xFF, 0x62, 0x22], 1, 3, "invalid UTF-8 byte 0xFF",
        name: "0xFF in a string"),
      BrokenJSON(
        bytes: [0x22, 0xC3, 0x28, 0x22], 1, 2, "invalid UTF-8 sequence starting with byte 0xC3",
        name: "a lead byte without its continuation"),
      BrokenJSON(
        bytes: [0x22, 0xC0, 0x80, 0x22], 1, 2, "invalid UTF-8 byte 0xC0",
        name: "an overlong encoding of U+0000"),
      BrokenJSON(
        bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], 1, 2,
        "invalid UTF-8 sequence starting with byte 0xED", name: "a surrogate encoded in UTF-8"),
      BrokenJSON(
        bytes: [0x22, 0xF0, 0x9F, 0x98], 1, 2, "invalid UTF-8 sequence starting with byte 0xF0",
        name: "an emoji cut short by the end of input"),
      BrokenJSON(
        bytes: [0x5B, 0x31, 0x2C, 0xFF, 0x5D], 1, 4, "invalid UTF-8 byte 0xFF",
        name: "0xFF outside a string"),
      BrokenJSON("[\u{A0}1]", 1, 2, "unexpected character U+00A0; expected a value"),
      BrokenJSON("[\"abc", 1, 2, "unterminated string"),
      BrokenJSON(#""abc\"#, 1, 1, "unterminated string"),
      BrokenJSON("", 1, 1, "unexpected end of input; expected a value"),
      BrokenJSON(" \n ", 2, 2, "unexpected end of input; expected a value"),
      BrokenJSON("{} x", 1, 4, "unexpected character 'x' after the JSON value"),
      BrokenJSON("1 2", 1, 3, "unexpected character '2' after the JSON value"),
      BrokenJSON("// alarms\n[]", 1, 1, "unexpected character '/'; expected a value"),
      BrokenJSON("['a']", 1, 2, #"unexpected character "'"; expected a value"#),
      BrokenJSON("{a: 1}", 1, 2, "expected a string key or '}'"),
      BrokenJSON(#"{"a" 1}"#, 1, 6, "expected ':' after an object key"),
      BrokenJSON(#"{"a":1,2}"#, 1, 8, "expected a string key after ','"),
      BrokenJSON("[\r\n1,\r\n]", 2, 2, "trailing comma in an array"),  // CRLF is one line break
      BrokenJSON("[\r1,\r]", 2, 2, "trailing comma in an array"),  // so is a lone CR
      BrokenJSON(
        bytes: utf8BOM + Array("[1,]".utf8), 1, 3, "trailing comma in an array",
        name: "columns on line 1 do not count the BOM"),
      BrokenJSON(
        bytes: [0x20] + utf8BOM + [0x31], 1, 2, "unexpected character U+FEFF; expected a value",
        name: "a BOM after the start"),
      BrokenJSON(
        String(repeating: "[", count: 100_000), 1, 257,
        "nesting exceeds the maximum depth of 256"),
      BrokenJSON(
        String(repeating: #"{"a":"#, count: 300), 1, 256 * 5 + 1,
        "nesting exceeds the maximum depth of 256"),
    ])
  func rejectsBrokenDocument(row: BrokenJSON) {
    #expect(throws: row.error) { try JSONParser().parse(row.bytes) }
  }

  @Test("an error describes itself as line, column and message")
  func describesError() {
    let error = JSONSyntaxError(
      line: 3, column: 14, message: "expected ',' or '}' after an object member")
    #expect(error.description == "line 3, column 14: expected ',' or '}' after an object member")
  }

  @Test(
    "the depth limit allows exactly maximumDepth nested containers",
    arguments: [0, 1, 3, 256])
  func depthLimitIsExact(maximumDepth: Int) throws {
    let parser = JSONParser(maximumDepth: maximumDepth)
    let atLimit =
      String(repeating: "[", count: maximumDepth) + "1"
      + String(repeating: "]", count: maximumDepth)
    var expected = JSONValue.number("1")
    for _ in 0..<maximumDepth {
      expected = .array([expected])
    }
    #expect(try parser.parse(atLimit) == expected)
    let overLimit = "[" + atLimit + "]"
    let error = JSONSyntaxError(
      line: 1, column: maximumDepth + 1,
      message: "nesting exceeds the maximum depth of \(maximumDepth)")
    #expect(throws: error) { try parser.parse(overLimit) }
  }

  @Test("ten million open brackets fail at the depth limit, not with a stack overflow")
  func tenMillionBrackets() {
    let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 10_000_000)
    let error = JSONSyntaxError(
      line: 1, column: 257, message: "nesting exceeds the maximum depth of 256")
    #expect(throws: error) { try JSONParser().parse(bytes) }
  }

  @Test("maximumElements bounds each array and object, and stops reading at the first extra")
  func elementLimit() throws {
    let parser = JSONParser(maximumElements: 3)
    #expect(try parser.parse("[1,2,3]") == .array([.number("1"), .number("2"), .number("3")]))
    #expect(try parser.parse(#"[{"a":1,"b":2,"c":3}]"#).arrayValue?.count == 1)
    #expect(
      throws: JSONSyntaxError(
        line: 1, column: 9, message: "an array has more than 3 elements, the limit")
    ) { try parser.parse("[1,2,3,4]") }
    #expect(
      throws: JSONSyntaxError(
        line: 1, column: 25, message: "an object has more than 3 members, the limit")
    ) { try parser.parse(#"{"a":1,"b":2,"c":3,"d":4}"#) }
  }

  @Test("with no depth limit, a million open brackets still do not exhaust the stack")
  func millionBracketsWithoutLimit() {
    let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
    let error = JSONSyntaxError(
      line: 1, column: 1_000_001, message: "unexpected end of input; expected a value")
    #expect(throws: error) { try JSONParser(maximumDepth: .max).parse(bytes) }
  }

  // MARK: Writing

  @Test("pretty output indents by two spaces, one member or element per line")
  func writesPretty() {
    let expected = """
      {
        "name": "Wake up",
        "time": "07:30",
        "enabled": true,
        "days": [
          "mon",
          "fri"
        ],
        "snooze": {
          "minutes": 9,
          "limit": null
        },
        "tags": [],
        "extra": {},
        "volume": 0.75
      }
      """
    #expect(JSONWriter().string(from: alarm) == expected)
    #expect(
      JSONWriter(style: .pretty).string(from: .array([.array([.number("1")]), .array([])]))
        == "[\n  [\n    1\n  ],\n  []\n]")
  }

  @Test("compact output has no whitespace at all")
  func writesCompact() {
    let expected =
      #"{"name":"Wake up","time":"07:30","enabled":true,"days":["mon","fri"],"#
      + #""snooze":{"minutes":9,"limit":null},"tags":[],"extra":{},"volume":0.75}"#
    #expect(JSONWriter(style: .compact).string(from: alarm) == expected)
  }

  @Test(
    "top-level scalars are written alone, with no trailing newline",
    arguments: [
      (JSONValue.null, "null"),
      (.bool(true), "true"),
      (.bool(false), "false"),
      (.number("-1.50e+3"), "-1.50e+3"),  // the literal text, not a reformatted double
      (.string("hi"), #""hi""#),
      (.array([]), "[]"),
      (.object([]), "{}"),
    ])
  func writesScalars(value: JSONValue, expected: String) {
    #expect(JSONWriter(style: .pretty).string(from: value) == expected)
    #expect(JSONWriter(style: .compact).string(from: value) == expected)
  }

  @Test(
    "strings escape only what RFC 8259 requires, plus U+2028 and U+2029",
    arguments: [
      ("plain", #""plain""#),
      ("say \"hi\"", #""say \"hi\"""#),
      ("back\\slash", #""back\\slash""#),
      ("a/b", #""a/b""#),  // solidus is not escaped
      ("\n\r\t", #""\n\r\t""#),
      ("\u{08}\u{0C}", #""\b\f""#),
      ("\u{00}\u{01}\u{1B}\u{1F}", #""\u0000\u0001\u001b\u001f""#),  // lowercase hex
      ("\u{7F}", "\"\u{7F}\""),  // DEL is not a control character in JSON
      ("\u{2028}x\u{2029}", #""\u2028x\u2029""#),
      ("\u{2027}\u{202A}", "\"\u{2027}\u{202A}\""),  // their neighbours are written as is
      ("é中😀", #""é中😀""#),
    ])
  func escapesStrings(string: String, expected: String) {
    #expect(JSONWriter(style: .compact).string(from: .string(string)) == expected)
    let member = JSONWriter(style: .compact).string(from: .object([JSONMember(string, .null)]))
    #expect(member == "{\(expected):null}")
  }

  @Test(
    "an escape is found at every position of strings short and long (the writer scans words)",
    arguments: [
      ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{01}", #"\u0001"#),
      ("\u{1F}", #"\u001f"#), ("\u{2028}", #"\u2028"#), (" ", " "), ("\u{7F}", "\u{7F}"),
      ("é", "é"), ("\u{2027}", "\u{2027}"), ("!", "!"), ("~", "~"),
    ])
  func escapesAtEveryPosition(special: String, escaped: String) {
    for length in [0, 1, 6, 7, 8, 9, 15, 16, 24] {
      let plain = Array("abcdefghijklmnopqrstuvwx".prefix(length))
      for position in 0...plain.count {
        let before = String(plain[..<position])
        let after = String(plain[position...])
        let written = JSONWriter(style: .compact).string(from: .string(before + special + after))
        #expect(written == "\"" + before + escaped + after + "\"", "\(length) at \(position)")
      }
    }
  }

  // MARK: Round trips

  @Test(
    "parse, write and parse again gives an equal value and a fixed point",
    arguments: [
      "null", "-0.0e-0", #""\u0000\u001f\"\\/\b\f\n\r\t\u2028""#,
      #"[1, [2, [3, [4, []]]], {}]"#,
      #"{"a": {"a": {"a": "é中😀"}}, "a": [true, false, null], "": ""}"#,
      #"[{"id": 1, "days": ["mon", "tue"]}, {"id": 2, "days": []}]"#,
    ])
  func roundTrips(text: String) throws {
    let parser = JSONParser()
    let value = try parser.parse(text)
    for style in [JSONWriter.Style.pretty, .compact] {
      let writer = JSONWriter(style: style)
      let written = writer.string(from: value)
      let reparsed = try parser.parse(written)
      #expect(reparsed == value)
      #expect(writer.string(from: reparsed) == written)
    }
  }

  @Test("the writer's own output parses back to the value it was given")
  func writtenValueRoundTrips() throws {
    for style in [JSONWriter.Style.pretty, .compact] {
      #expect(try JSONParser().parse(JSONWriter(style: style).string(from: alarm)) == alarm)
    }
  }

  // MARK: Accessors

  @Test("subscript finds the first member with a key, and only in objects")
  func subscriptFindsFirstMember() throws {
    let value = try JSONParser().parse(#"{"snooze": true, "snooze": false}"#)
    #expect(value["snooze"] == .bool(true))
    #expect(value["missing"] == nil)
    #expect(JSONValue.array([.string("snooze")])["snooze"] == nil)
  }

  @Test(
    "intValue accepts only integer literals that fit Int",
    arguments: [
      ("42", 42),
      ("-0", 0),
      ("9223372036854775807", Int.max),
      ("-9223372036854775808", Int.min),
      ("9223372036854775808", nil),  // one past Int.max
      ("1.0", nil),
      ("1e2", nil),
    ] as [(String, Int?)])
  func intValue(text: String, expected: Int?) {
    #expect(JSONValue.number(text).intValue == expected)
  }

  @Test("each accessor answers only for its own case")
  func accessors() {
    #expect(JSONValue.string("x").stringValue == "x")
    #expect(JSONValue.bool(false).boolValue == false)
    #expect(JSONValue.array([.null]).arrayValue == [.null])
    #expect(JSONValue.object([JSONMember("k", .null)]).objectValue == [JSONMember("k", .null)])
    let others: [JSONValue] = [.null, .number("1")]
    for value in others {
      #expect(value.stringValue == nil)
      #expect(value.boolValue == nil)
      #expect(value.arrayValue == nil)
      #expect(value.objectValue == nil)
    }
    #expect(JSONValue.string("1").intValue == nil)
  }

  @Test(
    "typeName reads naturally in a message",
    arguments: [
      (JSONValue.null, "null"),
      (.bool(true), "a boolean"),
      (.number("1"), "a number"),
      (.string(""), "a string"),
      (.array([]), "an array"),
      (.object([]), "an object"),
    ])
  func typeNames(value: JSONValue, expected: String) {
    #expect(value.typeName == expected)
  }
}

extension JSONTests {
  /// A document the parser must reject, with the exact error it must report.
  struct BrokenJSON: Sendable, CustomTestStringConvertible {
    let bytes: [UInt8]
    let error: JSONSyntaxError
    let testDescription: String

    init(_ text: String, _ line: Int, _ column: Int, _ message: String) {
      // Show control characters as escapes so each row's name stays on one line.
      let name = text.unicodeScalars.map {
        $0.value < 0x20 ? $0.escaped(asASCII: true) : String($0)
      }
      self.init(bytes: Array(text.utf8), line, column, message, name: name.joined())
    }

    init(bytes: [UInt8], _ line: Int, _ column: Int, _ message: String, name: String) {
      self.bytes = bytes
      self.error = JSONSyntaxError(line: line, column: column, message: message)
      self.testDescription = name.count > 40 ? String(name.prefix(40)) + "..." : name
    }
  }
}
