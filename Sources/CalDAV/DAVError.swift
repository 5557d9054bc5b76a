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
  /// 507: the server has no room for this; or 413 (RFC 9110 §15.5.14): it takes no resource
  /// this large. `status` is the one the server answered.
  case insufficientStorage(url: String, status: Int = 507)
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

  /// One line: what failed and where. Text that came from elsewhere (URLs, a server's
  /// `Location`, reasons) is shown through ``printable(_:)``.
  public var description: String {
    switch self {
    case .unauthorized(let url):
      return
        "\(Self.printable(url)): 401 Unauthorized: the server refused the user name or password"
    case .forbidden(let url):
      return "\(Self.printable(url)): 403 Forbidden: this user may not do that here"
    case .notFound(let url): return "\(Self.printable(url)): 404 Not Found"
    case .preconditionFailed(let url):
      return
        "\(Self.printable(url)): 412 Precondition Failed: changed on the server since it was read"
    case .insufficientStorage(let url, 413):
      return "\(Self.printable(url)): 413 Content Too Large: the server takes nothing this large"
    case .insufficientStorage(let url, _):
      return "\(Self.printable(url)): 507 Insufficient Storage: the server has no room for this"
    case .tls(let url, let reason):
      return "\(Self.printable(url)): TLS failure: \(Self.printable(reason))"
    case .unreachable(let url, let reason):
      return "\(Self.printable(url)): cannot reach the server: \(Self.printable(reason))"
    case .timedOut(let url): return "\(Self.printable(url)): no answer from the server in time"
    case .bodyTooLarge(let url, let limit):
      return "\(Self.printable(url)): response larger than \(limit) bytes; refused"
    case .badResponse(let url, let reason):
      return "\(Self.printable(url)): unusable response: \(Self.printable(reason))"
    case .redirectRefused(let url, let location):
      return
        "\(Self.printable(url)): redirect to \(Self.printable(location)) not followed (another host, or too many)"
    case .status(let code, let url):
      return "\(Self.printable(url)): unexpected HTTP status \(code)"
    }
  }

  /// `text` safe to print on a terminal: control characters (C0, DEL, C1) and the invisible
  /// direction marks and overrides written as `\u{…}` escapes, a backslash doubled, the rest
  /// as it is. Every message that shows text a server sent goes through this.
  public static func printable(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      case 0x5C:
        result += "\\\\"
      default:
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// The error a failing status stands for.
  public static func from(status: Int, url: URL) -> DAVError {
    let text = url.absoluteString
    switch status {
    case 401: return .unauthorized(url: text)
    case 403: return .forbidden(url: text)
    case 404, 410: return .notFound(url: text)
    case 412: return .preconditionFailed(url: text)
    case 413, 507: return .insufficientStorage(url: text, status: status)
    default: return .status(status, url: text)
    }
  }
}
