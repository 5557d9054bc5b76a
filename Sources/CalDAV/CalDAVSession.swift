import Foundation

/// One calendar object resource on the server: where it is, its ETag and, when fetched, its
/// iCalendar text.
public struct CalendarObject: Equatable, Sendable {
  /// The resource's URL.
  public var url: URL
  /// Its strong ETag, quotes included.
  public var etag: String
  /// Its iCalendar text (line ends as XML delivered them: LF), when fetched.
  public var data: String?

  /// Creates an object.
  public init(url: URL, etag: String, data: String? = nil) {
    self.url = url
    self.etag = etag
    self.data = data
  }
}

/// What changed in a collection since a sync token (RFC 6578).
public struct SyncChanges: Equatable, Sendable {
  /// Members added or changed, with their new ETags.
  public var changed: [CalendarObject]
  /// Members removed.
  public var removed: [URL]
  /// The token to ask from next time.
  public var token: String
}

/// How a conditional PUT or DELETE ended.
public enum WriteOutcome: Equatable, Sendable {
  /// Done; the new ETag when the server sent one.
  case done(etag: String?)
  /// 412: the resource changed (or appeared) on the server; nothing was written.
  case conflict
}

/// The CalDAV requests alarmcal makes of a server, each one exchange (or a few for discovery).
public struct CalDAVSession: Sendable {
  /// The HTTP client underneath.
  public let client: DAVClient

  /// A session over `client`.
  public init(client: DAVClient) { self.client = client }

  /// PROPFIND with `Depth` and the given prefixed property elements; throws for a status other
  /// than 207 (a 404 as ``DAVError/notFound(url:)``).
  public func propfind(_ url: URL, depth: Int, properties: [String]) throws(DAVError)
    -> Multistatus
  {
    try multistatus(
      HTTPRequest(
        method: "PROPFIND", url: url,
        headers: ["Depth": String(depth), "Content-Type": "application/xml; charset=utf-8"],
        body: DAVBodies.propfind(properties)))
  }

  /// The members of a calendar collection with their ETags (PROPFIND Depth 1).
  public func members(of collection: URL) throws(DAVError) -> [CalendarObject] {
    let status = try propfind(collection, depth: 1, properties: ["D:getetag", "D:resourcetype"])
    return status.entries.compactMap { entry in
      guard entry.status == nil, let etag = entry[.dav("getetag")]?.text, !etag.isEmpty,
        let url = resolve(entry.href, against: collection), !sameResource(url, collection),
        entry[.dav("resourcetype")]?.contains(.dav("collection")) != true
      else { return nil }
      return CalendarObject(url: url, etag: etag)
    }
  }

  /// Every calendar object in the collection with its data (calendar-query, RFC 4791 §7.8).
  public func calendarObjects(in collection: URL) throws(DAVError) -> [CalendarObject] {
    let status = try multistatus(
      HTTPRequest(
        method: "REPORT", url: collection,
        headers: ["Depth": "1", "Content-Type": "application/xml; charset=utf-8"],
        body: DAVBodies.calendarQuery))
    return objects(in: status, collection: collection)
  }

  /// The objects at `urls` with their data (calendar-multiget, RFC 4791 §7.9); missing ones are
  /// left out. Asks in batches of 500.
  public func calendarObjects(at urls: [URL], in collection: URL) throws(DAVError)
    -> [CalendarObject]
  {
    var result: [CalendarObject] = []
    var start = 0
    while start < urls.count {
      let batch = urls[start..<min(urls.count, start + 500)]
      start += batch.count
      let status = try multistatus(
        HTTPRequest(
          method: "REPORT", url: collection,
          headers: ["Depth": "1", "Content-Type": "application/xml; charset=utf-8"],
          body: DAVBodies.multiget(batch.map { $0.path(percentEncoded: true) })))
      result += objects(in: status, collection: collection)
    }
    return result
  }

  /// The collection's current sync token, or nil when the server offers none (so no
  /// sync-collection report).
  public func syncToken(of collection: URL) throws(DAVError) -> String? {
    let status = try propfind(collection, depth: 0, properties: ["D:sync-token"])
    return status.entries.first?[.dav("sync-token")]?.text.nilWhenEmpty
  }

  /// What changed since `token` (sync-collection, RFC 6578 §3.2); nil when the server refuses
  /// the token (403, 409 or 412 for `DAV:valid-sync-token`), so the caller reads everything.
  public func changes(in collection: URL, since token: String) throws(DAVError) -> SyncChanges? {
    let request = HTTPRequest(
      method: "REPORT", url: collection,
      headers: ["Depth": "0", "Content-Type": "application/xml; charset=utf-8"],
      body: DAVBodies.syncCollection(token: token))
    let response = try client.send(request)
    if [403, 409, 412].contains(response.status),
      String(decoding: response.body.prefix(4096), as: UTF8.self).contains("valid-sync-token")
    {
      return nil
    }
    let status = try parsed(response, for: request)
    guard let newToken = status.syncToken else {
      throw .badResponse(url: collection.absoluteString, reason: "no sync-token in the answer")
    }
    var changes = SyncChanges(changed: [], removed: [], token: newToken)
    for entry in status.entries {
      guard let url = resolve(entry.href, against: collection), !sameResource(url, collection)
      else { continue }
      if let code = entry.status, code == 404 {
        changes.removed.append(url)
      } else if let etag = entry[.dav("getetag")]?.text, !etag.isEmpty {
        changes.changed.append(CalendarObject(url: url, etag: etag))
      }
    }
    return changes
  }

  /// PUT `body` at `url`: new (`If-None-Match: *`) when `etag` is nil, else only over that
  /// ETag (`If-Match`). A 412 is a ``WriteOutcome/conflict``.
  public func put(_ body: [UInt8], at url: URL, replacing etag: String?) throws(DAVError)
    -> WriteOutcome
  {
    var headers = ["Content-Type": "text/calendar; charset=utf-8"]
    if let etag { headers["If-Match"] = etag } else { headers["If-None-Match"] = "*" }
    let response = try client.send(
      HTTPRequest(method: "PUT", url: url, headers: headers, body: body))
    if response.status == 412 { return .conflict }
    guard (200..<300).contains(response.status) else {
      throw DAVError.from(status: response.status, url: url)
    }
    return .done(etag: response.etag)
  }

  /// DELETE `url` only if its ETag is still `etag`; a 412 is a ``WriteOutcome/conflict``, a
  /// 404 counts as done.
  public func delete(_ url: URL, etag: String) throws(DAVError) -> WriteOutcome {
    let response = try client.send(
      HTTPRequest(method: "DELETE", url: url, headers: ["If-Match": etag]))
    if response.status == 412 { return .conflict }
    guard (200..<300).contains(response.status) || response.status == 404 else {
      throw DAVError.from(status: response.status, url: url)
    }
    return .done(etag: nil)
  }

  // MARK: - Helpers

  func multistatus(_ request: HTTPRequest) throws(DAVError) -> Multistatus {
    try parsed(try client.send(request), for: request)
  }

  private func parsed(_ response: HTTPResponse, for request: HTTPRequest) throws(DAVError)
    -> Multistatus
  {
    guard response.status == 207 else {
      throw DAVError.from(status: response.status, url: request.url)
    }
    let status: Multistatus
    do {
      status = try MultistatusParser.parse(response.body)
    } catch {
      throw .badResponse(url: request.url.absoluteString, reason: error.description)
    }
    // Xandikos answers a PROPFIND on a missing collection with 207 and one inner 404.
    if status.entries.count == 1, let only = status.entries.first, only.status == 404,
      let url = resolve(only.href, against: request.url), sameResource(url, request.url)
    {
      throw .notFound(url: request.url.absoluteString)
    }
    return status
  }

  private func objects(in status: Multistatus, collection: URL) -> [CalendarObject] {
    status.entries.compactMap { entry in
      guard entry.status == nil, let url = resolve(entry.href, against: collection),
        let etag = entry[.dav("getetag")]?.text, let data = entry[.caldav("calendar-data")]?.text,
        !data.isEmpty
      else { return nil }
      return CalendarObject(url: url, etag: etag, data: data)
    }
  }
}

/// An href (a path or an absolute URL) as an absolute URL on `base`'s server.
func resolve(_ href: String, against base: URL) -> URL? {
  URL(string: href, relativeTo: base)?.absoluteURL
}

/// Whether two URLs name the same resource, whatever the trailing slash and percent-encoding.
func sameResource(_ a: URL, _ b: URL) -> Bool {
  let path = { (url: URL) -> String in
    let text = url.path.removingPercentEncoding ?? url.path
    return text.hasSuffix("/") ? String(text.dropLast()) : text
  }
  return a.host == b.host && a.port == b.port && path(a) == path(b)
}

extension String {
  var nilWhenEmpty: String? { isEmpty ? nil : self }
}
