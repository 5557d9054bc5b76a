import Foundation

/// One calendar object resource on the server: where it is, its ETag and, when fetched, its
/// iCalendar text.
public struct CalendarObject: Equatable, Sendable {
  /// The resource's URL.
  public var url: URL
  /// Its ETag, quotes included; empty when the server gave none usable (see ``EntityTag``).
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
  /// Done; the new ETag when the server gave a usable one.
  case done(etag: String?)
  /// 412: the resource changed (or appeared) on the server; nothing was written. Also what a
  /// write with an unusable ETag ends as, without a request.
  case conflict
  /// 403, 409 or 415: the server refused this resource (its data, its UID, its type), with the
  /// precondition and words it gave; nothing was written, and other resources may still go.
  case refused(WriteRefusal)
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

  /// The members of a calendar collection with their ETags (PROPFIND Depth 1). Throws
  /// ``DAVError/badResponse(url:reason:)`` for a member href outside the collection.
  public func members(of collection: URL) throws(DAVError) -> [CalendarObject] {
    let scope = try Self.scope(of: collection)
    let status = try propfind(collection, depth: 1, properties: ["D:getetag", "D:resourcetype"])
    var result: [CalendarObject] = []
    for entry in status.entries where entry.status == nil {
      guard entry[.dav("resourcetype")]?.contains(.dav("collection")) != true,
        !Self.names(entry.href, collectionOf: scope)
      else { continue }
      let url = try Self.member(entry.href, of: scope, in: collection)
      result.append(
        CalendarObject(url: url, etag: EntityTag.usable(entry[.dav("getetag")]?.text) ?? ""))
    }
    return result
  }

  /// Every calendar object in the collection with its data (calendar-query, RFC 4791 §7.8).
  public func calendarObjects(in collection: URL) throws(DAVError) -> [CalendarObject] {
    let status = try multistatus(
      HTTPRequest(
        method: "REPORT", url: collection,
        headers: ["Depth": "1", "Content-Type": "application/xml; charset=utf-8"],
        body: DAVBodies.calendarQuery))
    return try objects(in: status, collection: collection)
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
      result += try objects(in: status, collection: collection)
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
    let scope = try Self.scope(of: collection)
    var changes = SyncChanges(changed: [], removed: [], token: newToken)
    for entry in status.entries where !Self.names(entry.href, collectionOf: scope) {
      let url = try Self.member(entry.href, of: scope, in: collection)
      if let code = entry.status, code == 404 {
        changes.removed.append(url)
      } else if entry.status == nil {
        let etag = EntityTag.usable(entry[.dav("getetag")]?.text) ?? ""
        changes.changed.append(CalendarObject(url: url, etag: etag))
      }
    }
    return changes
  }

  /// PUT `body` at `url`: new (`If-None-Match: *`) when `etag` is nil, else only over that
  /// ETag (`If-Match`). A 412 is a ``WriteOutcome/conflict``, and so is an `etag` that is not
  /// a usable entity-tag (nothing is sent); a 403, 409 or 415 is
  /// ``WriteOutcome/refused(_:)``. When the answer holds no usable ETag, the resource's
  /// current one is asked for (RFC 4791 §5.3.4); nil when that gives none either (or fails).
  public func put(_ body: [UInt8], at url: URL, replacing etag: String?) throws(DAVError)
    -> WriteOutcome
  {
    var headers = ["Content-Type": "text/calendar; charset=utf-8"]
    if let etag {
      guard let usable = EntityTag.usable(etag) else { return .conflict }
      headers["If-Match"] = usable
    } else {
      headers["If-None-Match"] = "*"
    }
    let response = try client.send(
      HTTPRequest(method: "PUT", url: url, headers: headers, body: body))
    if response.status == 412 { return .conflict }
    if WriteRefusal.statuses.contains(response.status) {
      return .refused(.from(status: response.status, body: response.body))
    }
    guard (200..<300).contains(response.status) else {
      throw DAVError.from(status: response.status, url: url)
    }
    if let etag = EntityTag.usable(response.etag) { return .done(etag: etag) }
    // The write is done whatever this answer: without it the ETag is unknown, which is safe.
    return .done(etag: (try? currentETag(of: url)) ?? nil)
  }

  /// DELETE `url` only if its ETag is still `etag`; a 412 is a ``WriteOutcome/conflict``, a
  /// 404 counts as done, a 403, 409 or 415 is ``WriteOutcome/refused(_:)``. An `etag` that is
  /// not a usable entity-tag is a conflict: no DELETE goes out without `If-Match`.
  public func delete(_ url: URL, etag: String) throws(DAVError) -> WriteOutcome {
    guard let usable = EntityTag.usable(etag) else { return .conflict }
    let response = try client.send(
      HTTPRequest(method: "DELETE", url: url, headers: ["If-Match": usable]))
    if response.status == 412 { return .conflict }
    if WriteRefusal.statuses.contains(response.status) {
      return .refused(.from(status: response.status, body: response.body))
    }
    guard (200..<300).contains(response.status) || response.status == 404 else {
      throw DAVError.from(status: response.status, url: url)
    }
    return .done(etag: nil)
  }

  /// The resource's ETag now (PROPFIND Depth 0), when the server gives a usable one.
  public func currentETag(of url: URL) throws(DAVError) -> String? {
    let status = try propfind(url, depth: 0, properties: ["D:getetag"])
    let scope = CollectionScope(url)
    let entry = status.entries.first { entry in
      scope?.resolve(entry.href).map { sameResource($0, url) } == true
    }
    return EntityTag.usable(entry?[.dav("getetag")]?.text)
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
      let url = CollectionScope(request.url)?.resolve(only.href), sameResource(url, request.url)
    {
      throw .notFound(url: request.url.absoluteString)
    }
    return status
  }

  private func objects(in status: Multistatus, collection: URL) throws(DAVError)
    -> [CalendarObject]
  {
    let scope = try Self.scope(of: collection)
    var result: [CalendarObject] = []
    for entry in status.entries where entry.status == nil {
      guard let data = entry[.caldav("calendar-data")]?.text, !data.isEmpty else { continue }
      let url = try Self.member(entry.href, of: scope, in: collection)
      let etag = EntityTag.usable(entry[.dav("getetag")]?.text) ?? ""
      result.append(CalendarObject(url: url, etag: etag, data: data))
    }
    return result
  }

  /// The scope of a collection URL the caller gave.
  static func scope(of collection: URL) throws(DAVError) -> CollectionScope {
    guard let scope = CollectionScope(collection) else {
      throw .badResponse(url: collection.absoluteString, reason: "not a usable collection URL")
    }
    return scope
  }

  /// Whether `href` names the collection itself.
  static func names(_ href: String, collectionOf scope: CollectionScope) -> Bool {
    scope.resolve(href).map { scope.isCollection($0) } == true
  }

  /// The member `href` names; refused (nothing is sent there) when it is outside.
  static func member(_ href: String, of scope: CollectionScope, in collection: URL)
    throws(DAVError) -> URL
  {
    guard let url = scope.member(href) else {
      throw .badResponse(
        url: collection.absoluteString,
        reason: "href \(href) is outside the collection; nothing sent there")
    }
    return url
  }
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
