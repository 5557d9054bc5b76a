import CalDAV
import Foundation
import Testing

/// Answers far past libxml2's 10 MB lookup limit, yet within the documented 256 MiB.
@Suite struct LargeAnswerTests {
  /// A calendar-query answer with `count` events of about `eventBytes` each.
  static func multistatus(count: Int, eventBytes: Int) -> [UInt8] {
    var body = Array(
      #"<?xml version="1.0" encoding="utf-8"?><multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">"#
        .utf8)
    let line = Array("DESCRIPTION:\(String(repeating: "x", count: 60))\r\n".utf8)
    for index in 0..<count {
      body += Array(
        "<response><href>/c/\(index).ics</href><propstat><prop><getetag>\"\(index)\"</getetag><C:calendar-data>BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:\(index)\r\n"
          .utf8)
      for _ in 0..<(eventBytes / line.count) { body += line }
      body += Array(
        "END:VEVENT\r\nEND:VCALENDAR\r\n</C:calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response>"
          .utf8)
    }
    body += Array("</multistatus>".utf8)
    return body
  }

  @Test("twelve 1 MB events in one multistatus are read whole")
  func twelveMegabytes() throws {
    let body = Self.multistatus(count: 12, eventBytes: 1 << 20)
    #expect(body.count > 12 << 20)
    let status = try MultistatusParser.parse(body)
    #expect(status.entries.count == 12)
    let data = status.entries.compactMap {
      $0.properties[XMLName("urn:ietf:params:xml:ns:caldav", "calendar-data")]?.text
    }
    #expect(data.count == 12)
    #expect(data.allSatisfy { $0.utf8.count > 1_000_000 && $0.hasSuffix("END:VCALENDAR") })
  }
}
