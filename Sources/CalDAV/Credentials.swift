import Foundation

/// A user name and password for HTTP Basic authentication. Its description never shows the
/// password.
public struct Credentials: Sendable, Equatable, CustomStringConvertible {
  /// The user name.
  public var user: String
  /// The password.
  public var password: String

  /// Creates credentials.
  public init(user: String, password: String) {
    self.user = user
    self.password = password
  }

  /// `user` and a masked password.
  public var description: String { "\(user):***" }

  /// The `Authorization` header value.
  var basicAuthorization: String {
    "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
  }
}

/// Why credentials could not be read.
public struct CredentialsError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The reason, naming the file but never its content.
  public let description: String
}

/// Where a password comes from: `ALARMCAL_PASSWORD`, a password file only its owner can read,
/// or `~/.netrc` (never the command line).
public enum CredentialSource {
  /// The credentials to use for `url`, or nil when there are none (the request goes without).
  ///
  /// In order: `passwordFile` (refused when its group or others may read it), the
  /// `ALARMCAL_PASSWORD` variable, then the `.netrc` in `home` (its `machine` entry for the
  /// host, else `default`). `user` overrides the netrc login; a password from the file or the
  /// environment needs a user.
  public static func resolve(
    url: URL, user: String?, passwordFile: String?, environment: [String: String],
    home: String?
  ) throws(CredentialsError) -> Credentials? {
    if let passwordFile {
      guard let user else {
        throw CredentialsError(description: "--password-file needs --user")
      }
      return Credentials(user: user, password: try readPasswordFile(passwordFile))
    }
    if let password = environment["ALARMCAL_PASSWORD"], !password.isEmpty {
      guard let user else {
        throw CredentialsError(description: "ALARMCAL_PASSWORD is set but --user is not")
      }
      return Credentials(user: user, password: password)
    }
    if let home, let host = url.host,
      let text = try? String(contentsOfFile: home + "/.netrc", encoding: .utf8),
      let entry = NetrcFile(text).entry(host: host, user: user)
    {
      return entry
    }
    return nil
  }

  /// The first line of a password file that only its owner may read.
  static func readPasswordFile(_ path: String) throws(CredentialsError) -> String {
    var status = stat()
    guard stat(path, &status) == 0 else {
      throw CredentialsError(description: "\(path): no such password file")
    }
    guard status.st_mode & 0o077 == 0 else {
      throw CredentialsError(
        description: "\(path): others can read this password file; chmod 600 it first")
    }
    guard let data = FileManager.default.contents(atPath: path), data.count < 4096,
      let text = String(data: data, encoding: .utf8)
    else {
      throw CredentialsError(description: "\(path): cannot read the password file")
    }
    let line = text.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
    let password = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
    guard !password.isEmpty else {
      throw CredentialsError(description: "\(path): the password file is empty")
    }
    return password
  }
}

/// The `machine`/`default` entries of a `.netrc` file (`login`, `password`; `macdef` skipped).
struct NetrcFile {
  private struct Entry {
    var machine: String?
    var login: String?
    var password: String?
  }

  private var entries: [Entry] = []

  init(_ text: String) {
    var tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
      .map(String.init)[...]
    var current: Entry?
    while let token = tokens.popFirst() {
      switch token {
      case "machine":
        if let current { entries.append(current) }
        current = Entry(machine: tokens.popFirst())
      case "default":
        if let current { entries.append(current) }
        current = Entry(machine: nil)
      case "login": current?.login = tokens.popFirst()
      case "password": current?.password = tokens.popFirst()
      case "account": _ = tokens.popFirst()
      default: break
      }
    }
    if let current { entries.append(current) }
  }

  /// The credentials for `host` (and `user`, when given), else from `default`.
  func entry(host: String, user: String?) -> Credentials? {
    let fits = { (entry: Entry) in user == nil || entry.login == user }
    let match =
      entries.first { $0.machine?.lowercased() == host.lowercased() && fits($0) }
      ?? entries.first { $0.machine == nil && fits($0) }
    guard let match, let login = match.login, let password = match.password else { return nil }
    return Credentials(user: login, password: password)
  }
}
