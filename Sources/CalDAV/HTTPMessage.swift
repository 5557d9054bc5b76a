import Foundation

/// One HTTP request as alarmcal sends it: the body is always whole (sent with a
/// `Content-Length`; Radicale reads a chunked body as empty).
public struct HTTPRequest: Sendable {
  /// `GET`, `PUT`, `PROPFIND`, `REPORT`, ...
  public var method: String
  /// The absolute URL.
  public var url: URL
  /// Header fields; `Authorization` is added by the client, never here.
  public var headers: [String: String]
  /// The body, possibly empty.
  public var body: [UInt8]

  /// Creates a request.
  public init(method: String, url: URL, headers: [String: String] = [:], body: [UInt8] = []) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }
}

/// One HTTP response: status, header fields (names lower-cased) and the whole body.
public struct HTTPResponse: Sendable {
  /// The status code.
  public var status: Int
  /// Header fields by lower-case name.
  public var headers: [String: String]
  /// The body, never larger than the client's bound.
  public var body: [UInt8]
  /// The URL that answered.
  public var url: URL

  /// Creates a response.
  public init(status: Int, headers: [String: String], body: [UInt8], url: URL) {
    self.status = status
    self.headers = headers
    self.body = body
    self.url = url
  }

  /// The `ETag` header, if any.
  public var etag: String? { headers["etag"].flatMap { $0.isEmpty ? nil : $0 } }
}
