import Foundation

/// Why a CalDAV exchange failed, with a one-line description a person can act on. Never holds
/// a credential.
public enum DAVError: Error, Equatable, Sendable, CustomStringConvertible {
  /// 401: the server refused the user name or password.
  case unauthorized(url: String)
  /// 403: the user may not do this here.
  case forbidden(url: String)
  /// 404: nothing at this URL.
  case notFound(url: String)
  /// 412: the resource changed since its ETag was read (or a new one already exists).
  case preconditionFailed(url: String)
  /// 507 (or 413): the server has no room for this.
  case insufficientStorage(url: String)
  /// The TLS handshake failed (certificate not trusted, wrong host name, ...).
  case tls(url: String, reason: String)
  /// No connection could be made, or it broke, after the retries.
  case unreachable(url: String, reason: String)
  /// No answer within the timeout, after the retries.
  case timedOut(url: String)
  /// A response body larger than the bound was refused.
  case bodyTooLarge(url: String, limit: Int)
  /// The body is not the XML expected (not XML, truncated, a DTD, too deep, ...).
  case badResponse(url: String, reason: String)
  /// A redirect to another host (or too many redirects) was not followed.
  case redirectRefused(url: String, location: String)
  /// Any other status that means failure.
  case status(Int, url: String)

  /// One line: what failed and where.
  public var description: String {
    switch self {
    case .unauthorized(let url):
      return "\(url): 401 Unauthorized: the server refused the user name or password"
    case .forbidden(let url): return "\(url): 403 Forbidden: this user may not do that here"
    case .notFound(let url): return "\(url): 404 Not Found"
    case .preconditionFailed(let url):
      return "\(url): 412 Precondition Failed: changed on the server since it was read"
    case .insufficientStorage(let url):
      return "\(url): 507 Insufficient Storage: the server has no room for this"
    case .tls(let url, let reason): return "\(url): TLS failure: \(reason)"
    case .unreachable(let url, let reason): return "\(url): cannot reach the server: \(reason)"
    case .timedOut(let url): return "\(url): no answer from the server in time"
    case .bodyTooLarge(let url, let limit):
      return "\(url): response larger than \(limit) bytes; refused"
    case .badResponse(let url, let reason): return "\(url): unusable response: \(reason)"
    case .redirectRefused(let url, let location):
      return "\(url): redirect to \(location) not followed (another host, or too many)"
    case .status(let code, let url): return "\(url): unexpected HTTP status \(code)"
    }
  }

  /// The error a failing status stands for.
  public static func from(status: Int, url: URL) -> DAVError {
    let text = url.absoluteString
    switch status {
    case 401: return .unauthorized(url: text)
    case 403: return .forbidden(url: text)
    case 404, 410: return .notFound(url: text)
    case 412: return .preconditionFailed(url: text)
    case 413, 507: return .insufficientStorage(url: text)
    default: return .status(status, url: text)
    }
  }
}
