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
  /// The end of the reason a discovery step to another host is refused with.
  public static let otherHostRefusal = "is on another host; not followed"

  /// The calendars reachable from `url`: a server root, a principal, a calendar home or a
  /// calendar itself. Follows RFC 6764 §5 (`/.well-known/caldav`) when `url` has no path,
  /// then RFC 5397 `current-user-principal` and RFC 4791 §6.2.1 `calendar-home-set`. A
  /// principal or home on another scheme, host or port than `url` is refused
  /// (``DAVError/badResponse(url:reason:)``, nothing sent there) unless `allowingOtherHosts`
  /// (iCloud names other hosts); never one over http from https.
  public func calendars(from url: URL, allowingOtherHosts: Bool = false) throws(DAVError)
    -> [CalendarInfo]
  {
    let scope = try Self.scope(of: url)
    let follow = { (href: String, name: String, base: URL) throws(DAVError) -> URL in
      if scope.sameOrigin(base), let inside = scope.resolve(href) { return inside }
      guard allowingOtherHosts, let target = URL(string: href, relativeTo: base)?.absoluteURL,
        let scheme = target.scheme?.lowercased(), scheme == "https" || scheme == "http",
        scheme == "https" || url.scheme?.lowercased() == "http", target.host != nil,
        target.user == nil, target.password == nil
      else {
        throw .badResponse(
          url: base.absoluteString, reason: "\(name) \(href) \(Self.otherHostRefusal)")
      }
      return target
    }
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
    var homeBase = start
    if homes.isEmpty, let principalHref = answered?[.dav("current-user-principal")]?.hrefs.first {
      let principal = try follow(principalHref, "current-user-principal", start)
      let status = try propfind(principal, depth: 0, properties: ["C:calendar-home-set"])
      homes = status.entries.first?[.caldav("calendar-home-set")]?.hrefs ?? []
      homeBase = principal
    }
    var homeURLs: [URL] = []
    for home in homes { homeURLs.append(try follow(home, "calendar-home-set", homeBase)) }
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
        let url = URL(string: entry.href, relativeTo: home)?.absoluteURL
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
