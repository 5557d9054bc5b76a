import CalDAV
import Foundation
import Testing

@Suite struct CredentialsTests {
  let url = URL(string: "http://cal.example:5232/alice/") ?? URL(fileURLWithPath: "/")

  @Test("a password file others can read is refused; chmod 600 makes it usable")
  func passwordFileMode() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "pw-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data("s3cret\n".utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o644)
    #expect {
      try CredentialSource.resolve(
        url: url, user: "alice", passwordFile: path, environment: [:], home: nil)
    } throws: { error in
      (error as? CredentialsError)?.description.contains("others can read") == true
    }
    chmod(path, 0o600)
    let credentials = try CredentialSource.resolve(
      url: url, user: "alice", passwordFile: path, environment: [:], home: nil)
    #expect(credentials == Credentials(user: "alice", password: "s3cret"))
    #expect(credentials?.description == "alice:***")
  }

  @Test("ALARMCAL_PASSWORD needs a user; .netrc gives both for its host, default otherwise")
  func environmentAndNetrc() throws {
    #expect(throws: CredentialsError.self) {
      try CredentialSource.resolve(
        url: url, user: nil, passwordFile: nil, environment: ["ALARMCAL_PASSWORD": "x"],
        home: nil)
    }
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "home-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    try Data(
      "machine other.example login bob password b\nmachine cal.example\n  login alice\n  password a1\ndefault login carol password c\n"
        .utf8
    ).write(to: home.appendingPathComponent(".netrc"))
    chmod(home.appendingPathComponent(".netrc").path, 0o600)
    let found = try CredentialSource.resolve(
      url: url, user: nil, passwordFile: nil, environment: [:], home: home.path)
    #expect(found == Credentials(user: "alice", password: "a1"))
    let fallback = try CredentialSource.resolve(
      url: URL(string: "http://elsewhere/") ?? url, user: nil, passwordFile: nil, environment: [:],
      home: home.path)
    #expect(fallback == Credentials(user: "carol", password: "c"))
  }
}
