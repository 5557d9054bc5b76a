import CalDAV
import Testing

/// A refusal's body read as RFC 4918 §16 `DAV:error`, and printed on one line.
struct WriteRefusalTests {
  @Test("Cyrus's valid-calendar-data: the precondition and its words")
  func validCalendarData() {
    let body = """
      <?xml version="1.0" encoding="utf-8"?>
      <D:error xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><C:valid-calendar-data/>\
      <D:responsedescription>DTEND must occur after DTSTART</D:responsedescription></D:error>
      """
    let refusal = WriteRefusal.from(status: 403, body: Array(body.utf8))
    #expect(
      refusal
        == WriteRefusal(
          status: 403, precondition: "CALDAV:valid-calendar-data",
          description: "DTEND must occur after DTSTART"))
    #expect(
      refusal.line == "403 Forbidden: CALDAV:valid-calendar-data: DTEND must occur after DTSTART")
  }

  @Test("unique-scheduling-object-resource names where the UID already is")
  func uniqueUID() {
    let body =
      "<D:error xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\"><C:unique-scheduling-object-resource><D:href>/dav/cal/a.ics</D:href></C:unique-scheduling-object-resource></D:error>"
    #expect(
      WriteRefusal.from(status: 403, body: Array(body.utf8)).line
        == "403 Forbidden: CALDAV:unique-scheduling-object-resource: already at /dav/cal/a.ics")
  }

  @Test("server text is escaped; a body that is not a DAV:error gives its first line")
  func escapedAndPlain() {
    let body =
      "<D:error xmlns:D=\"DAV:\"><X:bad xmlns:X=\"urn:x\"/><D:responsedescription>a\n\tb</D:responsedescription></D:error>"
    #expect(
      WriteRefusal.from(status: 409, body: Array(body.utf8)).line
        == "409 Conflict: {urn:x}bad: a\\n\\tb")
    #expect(
      WriteRefusal.from(status: 415, body: Array("\nunsupported\u{1B}[2J type\r\nmore\n".utf8)).line
        == "415 Unsupported Media Type: unsupported\\u{1B}[2J type")
    #expect(WriteRefusal.from(status: 403, body: []).line == "403 Forbidden")
    let dtd = "<!DOCTYPE x [<!ENTITY a \"b\">]><D:error xmlns:D=\"DAV:\"><D:x/></D:error>"
    #expect(WriteRefusal.from(status: 403, body: Array(dtd.utf8)).precondition == nil)
  }
}
