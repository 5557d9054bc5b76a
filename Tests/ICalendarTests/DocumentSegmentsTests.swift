import Foundation
import Testing

@testable import ICalendar

/// `validate` and `convert` read a large file in segments at once; the document and the tree
/// must be those a reading in one pass gives, however broken the file.
@Suite struct DocumentSegmentsTests {
  /// `count` events, with `insert(index)` written after each one.
  static func calendar(_ count: Int, bom: Bool = false, insert: (Int) -> String = { _ in "" })
    -> [UInt8]
  {
    var text = (bom ? "\u{FEFF}" : "") + "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n"
    for index in 0..<count {
      text += "BEGIN:VEVENT\r\nUID:e\(index)\r\nDTSTAMP:20260101T000000Z\r\n"
      text += "DTSTART;TZID=Europe/Berlin:20260105T0800\(index % 6)0\r\n"
      text +=
        "SUMMARY:an event with a summary long enough to fold \(index) and then som\r\n e more\r\n"
      text += "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\nEND:VEVENT\r\n"
      text += insert(index)
    }
    return Array((text + "END:VCALENDAR\r\n").utf8)
  }

  static let cases: [(String, [UInt8])] = [
    ("plain", calendar(400)),
    ("byte order mark", calendar(400, bom: true)),
    (
      "calendar properties between events", calendar(400) { $0 % 50 == 7 ? "X-NOTE:\($0)\r\n" : "" }
    ),
    (
      "unreadable lines, bad parameters and control characters",
      calendar(400) {
        $0 % 60 == 1 ? "broken line\r\nX-A;=1:2\r\nX-B:\u{7}\r\n" : ""
      }
    ),
    (
      "bare LF and long lines",
      calendar(400) {
        $0 % 40 == 3 ? "X-LF:1\n" + "X-LONG:" + String(repeating: "x", count: 90) + "\r\n" : ""
      }
    ),
    ("a stray END at the calendar's level", calendar(400) { $0 == 123 ? "END:VTODO\r\n" : "" }),
    ("the calendar closed early", calendar(400) { $0 == 200 ? "END:VCALENDAR\r\n" : "" }),
    ("an event never closed", calendar(400) { $0 == 150 ? "BEGIN:VEVENT\r\nUID:open\r\n" : "" }),
    (
      "an alarm never closed", calendar(400) { $0 == 250 ? "BEGIN:VEVENT\r\nBEGIN:VALARM\r\n" : "" }
    ),
    (
      "a second calendar",
      calendar(400) {
        $0 == 300 ? "END:VCALENDAR\r\nBEGIN:VCALENDAR\r\nVERSION:2.0\r\n" : ""
      }
    ),
    (
      "nested too deep",
      calendar(400) {
        $0 == 220 ? String(repeating: "BEGIN:X\r\n", count: ComponentNesting.maximumDepth) : ""
      }
    ),
    ("a folded BEGIN line", calendar(400) { $0 == 180 ? "BEG\r\n IN:VTODO\r\n" : "" }),
    (
      "lower-case and spaced names",
      calendar(400) {
        $0 == 90 ? "begin:vevent\r\nEND:VEVENT  \r\nBEGIN:VTODO\r\nend:vtodo\r\n" : ""
      }
    ),
  ]

  @Test(
    "a file read in segments gives the document and tree a reading in one pass gives",
    arguments: cases.indices)
  func segmentsAgree(_ index: Int) {
    let (name, bytes) = Self.cases[index]
    let whole = ICalendarReader.document(bytes, segmentBytes: Int.max)
    #expect(ICalendarReader.segmentStarts(bytes, segmentBytes: Int.max).isEmpty)
    let roots = Result { () throws(ICalendarSyntaxError) in
      try ICalendarReader.read(bytes, segmentBytes: Int.max)
    }
    for segmentBytes in [1, 4_096, 20_000] {
      let read = ICalendarReader.document(bytes, segmentBytes: segmentBytes)
      #expect(read.components == whole.components, "\(name)")
      #expect(ranges(read.components) == ranges(whole.components), "\(name)")
      #expect(read.findings == whole.findings, "\(name)")
      #expect(read.structure == whole.structure, "\(name)")
      #expect(read.firstLine == whole.firstLine, "\(name)")
      let readRoots = Result { () throws(ICalendarSyntaxError) in
        try ICalendarReader.read(bytes, segmentBytes: segmentBytes)
      }
      #expect(readRoots == roots, "\(name)")
      #expect(
        ranges((try? readRoots.get()) ?? []) == ranges((try? roots.get()) ?? []), "\(name)")
    }
  }

  @Test("a large file is cut at events' BEGIN lines, the first and the last among them")
  func cuts() {
    let bytes = Self.calendar(400)
    let starts = ICalendarReader.segmentStarts(bytes, segmentBytes: 4_096)
    #expect(starts.count > 2)
    let text = String(decoding: bytes, as: UTF8.self)
    let begins = text.utf8.indices.filter { text.utf8[$0...].starts(with: "BEGIN:VEVENT".utf8) }
      .map { text.utf8.distance(from: text.utf8.startIndex, to: $0) }
    #expect(starts.first == begins.first)
    #expect(starts.last == begins.last)
    #expect(starts.allSatisfy(begins.contains))
    #expect(starts == starts.sorted())
  }

  private func ranges(_ components: [ICalComponent]) -> [Range<Int>?] {
    components.flatMap { [$0.sourceRange] + ranges($0.components) }
  }
}
