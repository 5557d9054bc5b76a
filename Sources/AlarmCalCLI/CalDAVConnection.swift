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

  /// A session with the credentials the options and environment give; a failure (exit 64)
  /// when they cannot be had.
  func session(context: ToolContext) throws(CommandFailure) -> CalDAVSession {
    do {
      let credentials = try CredentialSource.resolve(
        url: url, user: user, passwordFile: passwordFile, environment: context.environment,
        home: context.environment["HOME"])
      var policy = DAVClientPolicy()
      if let executable = context.executable {
        policy.transportCommand = TransportCommand(
          executable: executable, arguments: [Tool.transportCommandName])
      }
      return CalDAVSession(client: DAVClient(credentials: credentials, policy: policy))
    } catch {
      let hint = error.needsUserName ? " (--user NAME)" : ""
      throw CommandFailure(.usage, error.description + hint)
    }
  }

  /// `error` as the failure that ends a command: one line, the status it calls for, and
  /// `notes` after it.
  static func failure(_ error: DAVError, notes: [String] = []) -> CommandFailure {
    CommandFailure(exitCode(for: error), error.description, notes: notes)
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
