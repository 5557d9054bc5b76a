import CalDAV
import Foundation
import Testing

/// `.netrc` read by its grammar, and both credential files opened once, checked on what was
/// opened, and read no further than their bound.
@Suite struct PrivateFileTests {
  let url = URL(string: "http://cal.example:5232/alice/") ?? URL(fileURLWithPath: "/")
  let elsewhere = URL(string: "http://elsewhere.example/") ?? URL(fileURLWithPath: "/")

  /// A fresh folder holding a `.netrc` with `text` and `mode`.
  func home(netrc text: String, mode: mode_t = 0o600) throws -> URL {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "netrc-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    let file = home.appendingPathComponent(".netrc")
    try Data(text.utf8).write(to: file)
    chmod(file.path, mode)
    return home
  }

  func resolve(_ url: URL, home: URL, user: String? = nil) throws -> Credentials? {
    try CredentialSource.resolve(
      url: url, user: user, passwordFile: nil, environment: [:], home: home.path)
  }

  @Test(
    "netrc tokens: double quotes keep spaces, backslash escapes work inside them",
    arguments: [
      (#"machine cal.example login alice password "pass word""#, "pass word"),
      (#"machine cal.example login alice password "a\"b\\c""#, #"a"b\c"#),
      (#"machine cal.example login alice password "tab\there""#, "tab\there"),
      // Outside quotes a backslash is an ordinary character, as curl reads it.
      (#"machine cal.example login alice password a\b"#, #"a\b"#),
      ("machine cal.example\r\n\tlogin alice\r\n\tpassword crlf\r\n", "crlf"),
    ])
  func quotedTokens(text: String, password: String) throws {
    let home = try home(netrc: text)
    defer { try? FileManager.default.removeItem(at: home) }
    #expect(try resolve(url, home: home) == Credentials(user: "alice", password: password))
  }

  @Test("a macdef body is skipped up to its empty line; # lines are comments")
  func macroAndComments() throws {
    let text = """
      # machine cal.example login eve password e
      machine cal.example login alice password a1
      macdef init
      default login mallory password x
      machine elsewhere.example login mallory password y

      default login carol password c

      """
    let home = try home(netrc: text)
    defer { try? FileManager.default.removeItem(at: home) }
    #expect(try resolve(url, home: home) == Credentials(user: "alice", password: "a1"))
    #expect(try resolve(elsewhere, home: home) == Credentials(user: "carol", password: "c"))
  }

  @Test("a .netrc its group or others can read is refused, as a password file is")
  func netrcMode() throws {
    for mode: mode_t in [0o644, 0o640, 0o604, 0o620] {
      let home = try home(netrc: "default login carol password c\n", mode: mode)
      defer { try? FileManager.default.removeItem(at: home) }
      #expect {
        try resolve(url, home: home)
      } throws: { error in
        (error as? CredentialsError)?.description
          == "\(home.path)/.netrc: others can read this .netrc file; chmod 600 it first"
      }
    }
  }

  @Test("a 1 GB password file is refused from its size, without reading it")
  func hugePasswordFile() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "pw-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(FileManager.default.createFile(atPath: path, contents: Data("x\n".utf8)))
    chmod(path, 0o600)
    #expect(truncate(path, 1 << 30) == 0)  // sparse: costs no disk
    let start = Date()
    #expect {
      try CredentialSource.resolve(
        url: url, user: "alice", passwordFile: path, environment: [:], home: nil)
    } throws: { error in
      (error as? CredentialsError)?.description
        == "\(path): the password file is larger than 65536 bytes"
    }
    // Reading the gigabyte first took 11 s; the check on the open file takes milliseconds.
    #expect(Date().timeIntervalSince(start) < 3)
  }

  @Test("a password file's first line is the password, with or without a CR before its LF")
  func firstLine() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "pw-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    for text in ["s3cret\r\nsecond\r\n", "s3cret\nsecond\n", "s3cret"] {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      chmod(path, 0o600)
      let found = try CredentialSource.resolve(
        url: url, user: "alice", passwordFile: path, environment: [:], home: nil)
      #expect(found?.password == "s3cret", "\(text.debugDescription)")
    }
  }

  @Test("a password file that is a directory is refused as not a regular file")
  func directory() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "pwdir-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect {
      try CredentialSource.resolve(
        url: url, user: "alice", passwordFile: path, environment: [:], home: nil)
    } throws: { error in
      (error as? CredentialsError)?.description
        == "\(path): the password file is not a regular file"
    }
  }

  @Test("a symlink flipped between a private and a readable file never yields the readable one")
  func flippedSymlink() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flip-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let good = folder.appendingPathComponent("good").path
    let bad = folder.appendingPathComponent("bad").path
    let link = folder.appendingPathComponent("link").path
    try Data("good\n".utf8).write(to: URL(fileURLWithPath: good))
    try Data("bad\n".utf8).write(to: URL(fileURLWithPath: bad))
    chmod(good, 0o600)
    chmod(bad, 0o644)
    symlink(good, link)
    let stop = Flag()
    let flipper = Thread {
      var toBad = true
      while !stop.isSet {
        let next = folder.appendingPathComponent("next").path
        symlink(toBad ? bad : good, next)
        rename(next, link)
        toBad.toggle()
      }
    }
    flipper.start()
    defer { stop.set() }
    var leaked = 0
    var read = 0
    for _ in 0..<2000 {
      let found = try? CredentialSource.resolve(
        url: url, user: "alice", passwordFile: link, environment: [:], home: nil)
      if found?.password == "bad" { leaked += 1 }
      if found != nil { read += 1 }
    }
    #expect(leaked == 0)
    #expect(read > 0)
  }
}

/// A flag one thread sets and another reads.
final class Flag: @unchecked Sendable {
  // @unchecked: every access holds `lock`.
  private let lock = NSLock()
  private var value = false

  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return value
  }

  func set() {
    lock.lock()
    value = true
    lock.unlock()
  }
}
