/// An XML element name: namespace and local name (prefixes are never compared).
public struct XMLName: Hashable, Sendable, CustomStringConvertible {
  /// The namespace URI (`DAV:`, `urn:ietf:params:xml:ns:caldav`, ...).
  public var namespace: String
  /// The local name.
  public var local: String

  /// Creates a name.
  public init(_ namespace: String, _ local: String) {
    self.namespace = namespace
    self.local = local
  }

  /// `{namespace}local`.
  public var description: String { "{\(namespace)}\(local)" }

  /// A name in the `DAV:` namespace.
  public static func dav(_ local: String) -> XMLName { XMLName("DAV:", local) }
  /// A name in the CalDAV namespace (RFC 4791).
  public static func caldav(_ local: String) -> XMLName {
    XMLName("urn:ietf:params:xml:ns:caldav", local)
  }
  /// A name in the CalendarServer namespace (`getctag`).
  public static func calendarServer(_ local: String) -> XMLName {
    XMLName("http://calendarserver.org/ns/", local)
  }
}

/// The value of one WebDAV property: its text, the `href`s inside it and its child elements
/// with their attributes (`<C:comp name="VEVENT"/>`, `<D:collection/>`).
public struct PropertyValue: Equatable, Sendable {
  /// The text directly inside the property (trimmed of surrounding white space).
  public var text: String = ""
  /// The `DAV:href` values anywhere inside it.
  public var hrefs: [String] = []
  /// Its direct child elements (other than `href`), with their attributes.
  public var children: [Child] = []

  /// One child element.
  public struct Child: Equatable, Sendable {
    /// Its name.
    public var name: XMLName
    /// Its attributes by name.
    public var attributes: [String: String]
  }

  /// Creates an empty value.
  public init() {}

  /// Whether a child element with this name is present (`resourcetype` holding `calendar`).
  public func contains(_ name: XMLName) -> Bool { children.contains { $0.name == name } }
}

/// One `DAV:response` of a multistatus: an href, its status when it has one of its own, and its
/// properties found (status 2xx) and missing.
public struct MultistatusEntry: Equatable, Sendable {
  /// The href as sent (a path or an absolute URL; percent-encoded).
  public var href: String
  /// The response's own status (sync-collection's 404 for a removed member), if any.
  public var status: Int?
  /// The properties in a 2xx propstat.
  public var properties: [XMLName: PropertyValue] = [:]

  /// Creates an entry.
  public init(href: String, status: Int? = nil, properties: [XMLName: PropertyValue] = [:]) {
    self.href = href
    self.status = status
    self.properties = properties
  }

  /// The property's value when the server returned it.
  public subscript(_ name: XMLName) -> PropertyValue? { properties[name] }
}

/// A parsed `DAV:multistatus` (RFC 4918 §14.16) with RFC 6578's `sync-token`.
public struct Multistatus: Equatable, Sendable {
  /// The responses in document order.
  public var entries: [MultistatusEntry] = []
  /// The new sync token of a sync-collection report.
  public var syncToken: String?

  /// Creates a multistatus.
  public init(entries: [MultistatusEntry] = [], syncToken: String? = nil) {
    self.entries = entries
    self.syncToken = syncToken
  }
}
