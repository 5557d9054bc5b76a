import Foundation

/// A calendar collection found by discovery.
public struct CalendarInfo: Equatable, Sendable {
  /// The collection's URL.
  public var url: URL
  /// Its `displayname`, when it has one.
  public var name: String?
  /// The components it takes (`VEVENT`, `VTODO`, ...); empty when the server does not say.
  public var components: [String]
  /// Whether it offers a sync token (so sync-collection, RFC 6578).
  public var offersSync: Bool
}

extension CalDAVSession {
  /// The calendars reachable from `url`: a server root, a principal, a calendar home or a
  /// calendar itself. Follows RFC 6764 §5 (`/.well-known/caldav`) when `url` has no path,
  /// then RFC 5397 `current-user-principal` and RFC 4791 §6.2.1 `calendar-home-set`.
  public func calendars(from url: URL) throws(DAVError) -> [CalendarInfo] {
    var start = url
    if url.path.isEmpty || url.path == "/",
      let wellKnown = URL(string: "/.well-known/caldav", relativeTo: url)?.absoluteURL
    {
      start = wellKnown
    }
    let first = try propfind(
      start, depth: 0,
      properties: ["D:current-user-principal", "C:calendar-home-set", "D:resourcetype"])
    let answered = first.entries.first
    if answered?[.dav("resourcetype")]?.contains(.caldav("calendar")) == true {
      return try listCalendars(in: url, depth: 0)
    }
    var homes = answered?[.caldav("calendar-home-set")]?.hrefs ?? []
    if homes.isEmpty, let principalHref = answered?[.dav("current-user-principal")]?.hrefs.first,
      let principal = resolve(principalHref, against: start)
    {
      let status = try propfind(principal, depth: 0, properties: ["C:calendar-home-set"])
      homes = status.entries.first?[.caldav("calendar-home-set")]?.hrefs ?? []
    }
    let homeURLs = homes.compactMap { resolve($0, against: start) }
    // No principal or home named: take the URL itself as a home.
    var result: [CalendarInfo] = []
    for home in homeURLs.isEmpty ? [url] : homeURLs {
      result += try listCalendars(in: home, depth: 1)
    }
    return result
  }

  private func listCalendars(in home: URL, depth: Int) throws(DAVError) -> [CalendarInfo] {
    let status = try propfind(
      home, depth: depth,
      properties: [
        "D:resourcetype", "D:displayname", "C:supported-calendar-component-set", "D:sync-token",
      ])
    return status.entries.compactMap { entry in
      guard entry.status == nil, entry[.dav("resourcetype")]?.contains(.caldav("calendar")) == true,
        let url = resolve(entry.href, against: home)
      else { return nil }
      let components =
        entry[.caldav("supported-calendar-component-set")]?.children
        .filter { $0.name == .caldav("comp") }.compactMap { $0.attributes["name"] } ?? []
      return CalendarInfo(
        url: url, name: entry[.dav("displayname")]?.text.nilWhenEmpty, components: components,
        offersSync: entry[.dav("sync-token")]?.text.isEmpty == false)
    }
  }
}
