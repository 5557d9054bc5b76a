/// The XML request bodies alarmcal sends (RFC 4918, RFC 4791, RFC 6578).
enum DAVBodies {
  static let header = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
  static let namespaces =
    "xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\" xmlns:CS=\"http://calendarserver.org/ns/\""

  /// A PROPFIND for these `D:`/`C:`/`CS:`-prefixed property elements.
  static func propfind(_ properties: [String]) -> [UInt8] {
    let props = properties.map { "<\($0)/>" }.joined()
    return Array((header + "<D:propfind \(namespaces)><D:prop>\(props)</D:prop></D:propfind>").utf8)
  }

  /// A calendar-query for every calendar object with its ETag and data (RFC 4791 §7.8).
  static let calendarQuery = Array(
    (header
      + "<C:calendar-query \(namespaces)><D:prop><D:getetag/><C:calendar-data/></D:prop>"
      + "<C:filter><C:comp-filter name=\"VCALENDAR\"/></C:filter></C:calendar-query>").utf8)

  /// A calendar-multiget for these hrefs (RFC 4791 §7.9).
  static func multiget(_ hrefs: [String]) -> [UInt8] {
    let list = hrefs.map { "<D:href>\(escape($0))</D:href>" }.joined()
    return Array(
      (header
        + "<C:calendar-multiget \(namespaces)><D:prop><D:getetag/><C:calendar-data/></D:prop>"
        + "\(list)</C:calendar-multiget>").utf8)
  }

  /// A sync-collection report from `token` (empty: initial), ETags only (RFC 6578 §3.2).
  static func syncCollection(token: String) -> [UInt8] {
    Array(
      (header
        + "<D:sync-collection \(namespaces)><D:sync-token>\(escape(token))</D:sync-token>"
        + "<D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>")
        .utf8)
  }

  /// Text escaped for XML content.
  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}
