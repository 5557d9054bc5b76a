import Foundation

/// Where alarmcal may send the user's credentials: the origin (scheme, host and port) of a URL
/// the user gave, and for writes the members of the collection it names. An href from an
/// answer or a state file is taken only when it resolves inside; anything else is refused.
///
/// An href is a path (`/cal/a.ics`), a relative reference (`a.ics`) or an absolute URL on the
/// same origin. Its dot segments are resolved (RFC 3986 §5.2.4, also when percent-encoded),
/// and a path with an empty segment (`//host/...` would be read as an authority when used
/// again as a reference), a user name, a query, a fragment or an encoded `/` is refused.
public struct CollectionScope: Equatable, Sendable {
  /// `scheme://host[:port]`, as the user gave it (the port left out when it is the default).
  public let origin: String
  /// The collection's path, dot segments resolved, percent-encoded, ending in `/`.
  public let path: String
  private let scheme: String
  private let host: String
  private let port: Int

  /// The scope of `collection` (a URL the user gave), or nil when it is not an http(s) URL
  /// with a host and a usable path.
  public init?(_ collection: URL) {
    guard let parts = URLComponents(url: collection, resolvingAgainstBaseURL: true),
      let scheme = parts.scheme?.lowercased(), let port = Self.defaultPort[scheme],
      let host = parts.host, !host.isEmpty, parts.user == nil, parts.password == nil
    else { return nil }
    var path = parts.percentEncodedPath
    if path.isEmpty { path = "/" }
    guard let normal = Self.normalized(path) else { return nil }
    self.scheme = scheme
    self.host = host.lowercased()
    self.port = parts.port ?? port
    origin =
      "\(scheme)://\(parts.percentEncodedHost ?? host)"
      + (parts.port.map { $0 == port ? "" : ":\($0)" } ?? "")
    self.path = normal.hasSuffix("/") ? normal : normal + "/"
  }

  /// The URL `href` names when it is on this scope's origin, its path normalised; nil when it
  /// names another scheme, host or port, or cannot be read safely.
  public func resolve(_ href: String) -> URL? {
    let text = href.trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty, !text.hasPrefix("//"),
      !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F || $0 == "\\" }),
      let parts = URLComponents(string: text), parts.query == nil, parts.fragment == nil,
      parts.user == nil, parts.password == nil
    else { return nil }
    var path = parts.percentEncodedPath
    if let scheme = parts.scheme {
      guard scheme.lowercased() == self.scheme, let host = parts.host,
        host.lowercased() == self.host, (parts.port ?? Self.defaultPort[self.scheme]) == port
      else { return nil }
      if path.isEmpty { path = "/" }
    } else {
      guard parts.host == nil, !path.isEmpty else { return nil }
      if !path.hasPrefix("/") { path = self.path + path }
    }
    guard let normal = Self.normalized(path) else { return nil }
    return URL(string: origin + normal)
  }

  /// The URL of a resource directly inside the collection (where PUT and DELETE may go), or
  /// nil for anything else: the collection itself, another folder, another origin.
  public func member(_ href: String) -> URL? {
    guard let url = resolve(href) else { return nil }
    let path = url.path(percentEncoded: true)
    guard !path.hasSuffix("/") else { return nil }
    let names = Self.segments(path)
    let own = Self.segments(self.path)
    return names.count == own.count + 1 && Array(names.prefix(own.count)) == own ? url : nil
  }

  /// Whether `url` is the collection itself (with or without its final `/`).
  public func isCollection(_ url: URL) -> Bool {
    guard let resolved = resolve(url.absoluteString) else { return false }
    return Self.segments(resolved.path(percentEncoded: true)) == Self.segments(path)
  }

  /// The percent-decoded segments of a normalised path, compared so because servers encode
  /// `@` and the like differently from the URL the user gave.
  private static func segments(_ path: String) -> [String] {
    path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
  }

  /// Whether `url` is on this scope's origin.
  public func sameOrigin(_ url: URL) -> Bool { resolve(url.absoluteString) != nil }

  private static let defaultPort = ["http": 80, "https": 443]

  /// `path` with its dot segments resolved; nil when it has an empty segment, an encoded `/`
  /// or `\`, or climbs above the root.
  static func normalized(_ path: String) -> String? {
    guard path.hasPrefix("/") else { return nil }
    var segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
      .map(String.init)
    let trailingSlash = segments.last == ""
    if trailingSlash { segments.removeLast() }
    var result: [String] = []
    for segment in segments {
      guard let decoded = segment.removingPercentEncoding, !segment.isEmpty,
        !decoded.contains("/"), !decoded.contains("\\"), !decoded.contains("\0")
      else { return nil }
      switch decoded {
      case ".": continue
      case "..":
        guard !result.isEmpty else { return nil }
        result.removeLast()
      default: result.append(segment)
      }
    }
    let dotEnded = ["", ".", ".."].contains(segments.last?.removingPercentEncoding ?? "")
    let joined = "/" + result.joined(separator: "/")
    return (trailingSlash || (dotEnded && !result.isEmpty)) && !joined.hasSuffix("/")
      ? joined + "/" : joined
  }
}
