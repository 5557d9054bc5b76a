import CalDAV
import Foundation
import Testing

/// The classic XML bomb: `lol9` expands to 10^9 `lol`s.
let billionLaughs =
  "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol0 \"lol\">"
  + (1...9).map { level in
    "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
  }.joined() + "]><multistatus xmlns=\"DAV:\">&lol9;</multistatus>"

@Suite struct MultistatusParserTests {
  /// Radicale's shape: a default namespace, the sync token first, CRLF inside calendar-data.
  static let radicaleBody = """
    <?xml version='1.0' encoding='utf-8'?>
    <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><sync-token>http://radicale.org/ns/sync/abc</sync-token>\
    <response><href>/alice/alarms/a%40x.ics</href><propstat><prop><getetag>"e1"</getetag>\
    <C:calendar-data>BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n</C:calendar-data></prop>\
    <status>HTTP/1.1 200 OK</status></propstat><propstat><prop><displayname/></prop>\
    <status>HTTP/1.1 404 Not Found</status></propstat></response>\
    <response><href>/alice/alarms/gone.ics</href><status>HTTP/1.1 404 Not Found</status></response>\
    </multistatus>
    """

  /// Xandikos' shape: `ns0:` prefixes, the token last, resourcetype and a comp set.
  static let xandikosBody = """
    <?xml version="1.0" encoding="utf-8"?>
    <ns0:multistatus xmlns:ns0="DAV:" xmlns:ns1="urn:ietf:params:xml:ns:caldav">\
    <ns0:response><ns0:href>/user/calendars/alarms/</ns0:href><ns0:propstat><ns0:status>HTTP/1.1 200 OK</ns0:status>\
    <ns0:prop><ns0:resourcetype><ns0:collection/><ns1:calendar/></ns0:resourcetype>\
    <ns1:supported-calendar-component-set><ns1:comp name="VEVENT"/><ns1:comp name="VTODO"/></ns1:supported-calendar-component-set>\
    <ns0:current-user-principal><ns0:href>/user/</ns0:href></ns0:current-user-principal>\
    </ns0:prop></ns0:propstat></ns0:response><ns0:sync-token>2e06bd59</ns0:sync-token></ns0:multistatus>
    """

  @Test("Radicale's multistatus: hrefs, ETags, calendar-data, inner 404s, sync token")
  func radicale() throws {
    let status = try MultistatusParser.parse(Array(Self.radicaleBody.utf8))
    #expect(status.syncToken == "http://radicale.org/ns/sync/abc")
    #expect(status.entries.count == 2)
    let first = try #require(status.entries.first)
    #expect(first.href == "/alice/alarms/a%40x.ics")
    #expect(first.status == nil)
    #expect(first[.dav("getetag")]?.text == "\"e1\"")
    #expect(first[.caldav("calendar-data")]?.text == "BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR")
    #expect(first[.dav("displayname")] == nil)  // only in a 404 propstat
    #expect(status.entries.last?.status == 404)
  }

  @Test("Xandikos' multistatus: prefixes, resourcetype children, comp names, hrefs in props")
  func xandikos() throws {
    let status = try MultistatusParser.parse(Array(Self.xandikosBody.utf8))
    #expect(status.syncToken == "2e06bd59")
    let entry = try #require(status.entries.first)
    #expect(entry[.dav("resourcetype")]?.contains(.caldav("calendar")) == true)
    let comps = entry[.caldav("supported-calendar-component-set")]?.children.map {
      $0.attributes["name"] ?? ""
    }
    #expect(comps == ["VEVENT", "VTODO"])
    #expect(entry[.dav("current-user-principal")]?.hrefs == ["/user/"])
  }

  @Test(
    "hostile bodies are refused with a reason, never parsed",
    arguments: [
      // Billion laughs: ten entities, each ten of the previous.
      (billionLaughs, "DTD"),
      // An external entity (XXE).
      (
        "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
          + "<multistatus xmlns=\"DAV:\">&e;</multistatus>", "DTD"
      ),
      ("<multistatus xmlns=\"DAV:\"><response><href>/a", "truncated"),  // cut off mid-way
      ("<html><body>Bad Gateway</body></html>", "not DAV:multistatus"),  // an HTML error page
      ("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", "not well-formed"),  // not XML at all
      ("", "no DAV:multistatus"),  // empty
      (
        "<multistatus xmlns=\"DAV:\">" + String(repeating: "<a>", count: 10_000)
          + String(repeating: "</a>", count: 10_000) + "</multistatus>", "deeper"
      ),
    ])
  func hostile(body: String, reason: String) {
    #expect {
      try MultistatusParser.parse(Array(body.utf8))
    } throws: { error in
      (error as? XMLBodyError)?.description.contains(reason) == true
    }
  }

  @Test("a body over the bound is refused before parsing")
  func tooLarge() {
    let body = Array(
      ("<multistatus xmlns=\"DAV:\">" + String(repeating: " ", count: 2000) + "</multistatus>").utf8
    )
    #expect(throws: XMLBodyError.self) { try MultistatusParser.parse(body, maximumBytes: 1000) }
    #expect((try? MultistatusParser.parse(body, maximumBytes: 4000)) != nil)
  }

  @Test("binary bytes are refused as not XML")
  func binary() {
    let body = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
    #expect(throws: XMLBodyError.self) { try MultistatusParser.parse(body) }
  }
}
