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
  /// Whether what is missing is the user name (a command line says how to give one).
  public var needsUserName = false
}

/// Where a password comes from: `ALARMCAL_PASSWORD`, a password file only its owner can read,
/// or `~/.netrc`, equally private (never the command line).
///
/// A file is opened once and every check is made on what was opened (a regular file, no
/// permission for group or others, at most a bound in size), then read from that same
/// descriptor, never past the bound: a path switched between the check and the read cannot
/// hand over another file.
public enum CredentialSource {
  /// The largest password file read: 64 KiB.
  static let maximumPasswordFileBytes = 64 << 10
  /// The largest `.netrc` read: 1 MiB.
  static let maximumNetrcBytes = 1 << 20

  /// The credentials to use for `url`, or nil when there are none (the request goes without).
  ///
  /// In order: `passwordFile`, the `ALARMCAL_PASSWORD` variable, then the `.netrc` in `home`
  /// (its `machine` entry for the host, else `default`); either file is refused when its group
  /// or others may read it. `user` overrides the netrc login; a password from the file or the
  /// environment needs a user. Once credentials are found, the process is made non-dumpable.
  public static func resolve(
    url: URL, user: String?, passwordFile: String?, environment: [String: String],
    home: String?
  ) throws(CredentialsError) -> Credentials? {
    let found = try find(
      url: url, user: user, passwordFile: passwordFile, environment: environment, home: home)
    if found != nil { ProcessHardening.forbidDumps() }
    return found
  }

  private static func find(
    url: URL, user: String?, passwordFile: String?, environment: [String: String],
    home: String?
  ) throws(CredentialsError) -> Credentials? {
    if let passwordFile {
      guard let user else {
        throw CredentialsError(
          description: "a password file is given but no user name", needsUserName: true)
      }
      return Credentials(user: user, password: try readPasswordFile(passwordFile))
    }
    if let password = environment["ALARMCAL_PASSWORD"], !password.isEmpty {
      guard let user else {
        throw CredentialsError(
          description: "ALARMCAL_PASSWORD is set but no user name is given", needsUserName: true)
      }
      return Credentials(user: user, password: password)
    }
    guard let home, let host = url.host,
      let bytes = try readPrivateFile(
        home + "/.netrc", kind: ".netrc file", maximumBytes: maximumNetrcBytes)
    else { return nil }
    return NetrcFile(bytes).entry(host: host, user: user)
  }

  /// The first line of a password file that only its owner may read.
  static func readPasswordFile(_ path: String) throws(CredentialsError) -> String {
    guard
      let bytes = try readPrivateFile(
        path, kind: "password file", maximumBytes: maximumPasswordFileBytes)
    else {
      throw CredentialsError(description: "\(path): no such password file")
    }
    var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
    if line.last == UInt8(ascii: "\r") { line.removeLast() }
    guard let password = String(validating: line, as: UTF8.self) else {
      throw CredentialsError(description: "\(path): the password file is not UTF-8 text")
    }
    guard !password.isEmpty else {
      throw CredentialsError(description: "\(path): the password file is empty")
    }
    return password
  }

  /// The bytes of the file at `path`, or nil when there is none. Refused unless the file
  /// opened is a regular file that neither its group nor others may read or write, of at most
  /// `maximumBytes`; never more than that is read.
  static func readPrivateFile(_ path: String, kind: String, maximumBytes: Int)
    throws(CredentialsError) -> [UInt8]?
  {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw CredentialsError(
        description: "\(path): cannot open the \(kind): \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & 0o170000 == 0o100000 else {
      throw CredentialsError(description: "\(path): the \(kind) is not a regular file")
    }
    guard status.st_mode & 0o077 == 0 else {
      throw CredentialsError(
        description: "\(path): others can read this \(kind); chmod 600 it first")
    }
    let tooLarge = CredentialsError(
      description: "\(path): the \(kind) is larger than \(maximumBytes) bytes")
    guard status.st_size <= maximumBytes else { throw tooLarge }
    // One byte past the bound tells a file that grew since fstat.
    var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
    var count = 0
    while count < bytes.count {
      let got = bytes.withUnsafeMutableBytes { buffer in
        let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[count...])
        return read(descriptor, rest.baseAddress, rest.count)
      }
      if got == 0 { break }
      if got < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw CredentialsError(
          description: "\(path): cannot read the \(kind): \(String(cString: strerror(errno)))")
      }
      count += got
    }
    guard count <= maximumBytes else { throw tooLarge }
    bytes.removeSubrange(count...)
    return bytes
  }
}

/// The `machine`/`default` entries of a `.netrc` file, read by its grammar (as curl reads it):
/// tokens are separated by white space; a token in double quotes may hold white space and the
/// escapes `\"`, `\\`, `\n`, `\r`, `\t`; a line whose first non-blank character is `#` is a
/// comment; `macdef NAME` starts a macro whose body, the lines up to the next empty one, is
/// skipped whole; `login`, `password` and `account` take one token each.
struct NetrcFile {
  private struct Entry {
    var machine: String?
    var login: String?
    var password: String?
  }

  private var entries: [Entry] = []

  init(_ bytes: [UInt8]) {
    var tokens = NetrcTokens(bytes)
    var current: Entry?
    while let token = tokens.next() {
      switch token {
      case "machine":
        if let current { entries.append(current) }
        current = Entry(machine: tokens.next())
      case "default":
        if let current { entries.append(current) }
        current = Entry(machine: nil)
      case "login": current?.login = tokens.next()
      case "password": current?.password = tokens.next()
      case "account": _ = tokens.next()
      case "macdef":
        _ = tokens.next()
        tokens.skipMacroBody()
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

/// The tokens of a `.netrc` file, one at a time (see ``NetrcFile``).
struct NetrcTokens {
  private let bytes: [UInt8]
  private var index = 0
  /// Whether only blanks came since the last line break (where `#` starts a comment).
  private var atLineStart = true

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  private static let newline = UInt8(ascii: "\n")
  private static let quote = UInt8(ascii: "\"")
  private static let backslash = UInt8(ascii: "\\")

  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
      || byte == UInt8(ascii: "\u{0C}") || byte == UInt8(ascii: "\u{0B}")
  }

  /// The next token, or nil at the end.
  mutating func next() -> String? {
    while index < bytes.count {
      let byte = bytes[index]
      if byte == Self.newline {
        atLineStart = true
        index += 1
      } else if Self.isBlank(byte) {
        index += 1
      } else if byte == UInt8(ascii: "#") && atLineStart {
        skipLine()
      } else {
        break
      }
    }
    guard index < bytes.count else { return nil }
    atLineStart = false
    var token: [UInt8] = []
    if bytes[index] == Self.quote {
      index += 1
      while index < bytes.count, bytes[index] != Self.quote {
        var byte = bytes[index]
        if byte == Self.backslash, index + 1 < bytes.count {
          index += 1
          switch bytes[index] {
          case UInt8(ascii: "n"): byte = Self.newline
          case UInt8(ascii: "r"): byte = UInt8(ascii: "\r")
          case UInt8(ascii: "t"): byte = UInt8(ascii: "\t")
          default: byte = bytes[index]
          }
        }
        token.append(byte)
        index += 1
      }
      index += 1  // the closing quote
    } else {
      while index < bytes.count, bytes[index] != Self.newline, !Self.isBlank(bytes[index]) {
        token.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: token, as: UTF8.self)
  }

  /// Skips the rest of the `macdef` line, then the macro's lines up to and including the
  /// first empty one (or to the end).
  mutating func skipMacroBody() {
    skipLine()
    while index < bytes.count {
      let rest = bytes[index...]
      if rest.first == Self.newline || rest.starts(with: [UInt8(ascii: "\r"), Self.newline]) {
        skipLine()
        return
      }
      skipLine()
    }
  }

  /// Moves past the next line break (or to the end).
  private mutating func skipLine() {
    while index < bytes.count, bytes[index] != Self.newline { index += 1 }
    index += 1
    atLineStart = true
  }
}
