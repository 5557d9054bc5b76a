import CalDAV
import Foundation

/// What the CalDAV commands share: the `--url`, `--user` and `--password-file` options, the
/// session they open, and the exit status each kind of failure ends with (docs/caldav.md).
struct CalDAVConnection {
  /// The URL given with `--url`.
  let url: URL
  let user: String?
  let passwordFile: String?

  /// Reads `--url` (required, http or https), `--user` and `--password-file`.
  init(_ parsed: ParsedArguments) throws(UsageError) {
    guard let text = parsed.values["url"] else { throw UsageError("missing --url") }
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host != nil
    else { throw UsageError("--url must be an http:// or https:// URL, not '\(text)'") }
    guard url.user == nil, url.password == nil else {
      throw UsageError("--url must not hold a user name or password; use --user")
    }
    self.url = url
    user = parsed.values["user"]
    passwordFile = parsed.values["password-file"]
  }

  /// The URL of a collection, ending in `/` so that member names resolve inside it.
  var collectionURL: URL {
    url.absoluteString.hasSuffix("/") ? url : URL(string: url.absoluteString + "/") ?? url
  }

  /// A session with the credentials the options and environment give; on failure the error is
  /// written and the exit status returned.
  func session(context: ToolContext) -> Result<CalDAVSession, Stopped> {
    do {
      let credentials = try CredentialSource.resolve(
        url: url, user: user, passwordFile: passwordFile, environment: context.environment,
        home: context.environment["HOME"])
      var policy = DAVClientPolicy()
      if let executable = context.executable {
        policy.transportCommand = TransportCommand(
          executable: executable, arguments: [Tool.transportCommandName])
      }
      return .success(CalDAVSession(client: DAVClient(credentials: credentials, policy: policy)))
    } catch {
      let hint = error.needsUserName ? " (--user NAME)" : ""
      context.report.error(error.description + hint)
      return .failure(Stopped(.usage))
    }
  }

  /// Writes `error` as one line and gives its exit status.
  static func report(_ error: DAVError, context: ToolContext) -> ExitCode {
    context.report.error("\(error.description)")
    return exitCode(for: error)
  }

  /// The exit status for a failed exchange (docs/caldav.md, "Credentials, limits and exit status").
  static func exitCode(for error: DAVError) -> ExitCode {
    switch error {
    case .unauthorized, .forbidden: return .noPermission
    case .preconditionFailed: return .problemsFound
    case .insufficientStorage: return .serverFull
    case .notFound, .tls, .unreachable, .timedOut, .status: return .unavailable
    case .bodyTooLarge, .badResponse, .redirectRefused: return .protocolError
    }
  }
}
