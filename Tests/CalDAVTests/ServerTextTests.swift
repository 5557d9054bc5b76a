import CalDAV
import CalDAVTestServers
import Foundation
import Testing

/// Text a server sent (a Location, a reason) reaches a terminal only escaped.
@Suite(.serialized) struct ServerTextTests {
  @Test(
    "a Location with terminal escapes is shown escaped",
    .enabled(if: CalDAVTestServer.shouldRun))
  func escapedLocation() throws {
    try HostileServer.withServer { base in
      let session = CalDAVSession(client: DAVClient(credentials: nil))
      let url = base.appendingPathComponent("escape-redirect")
      #expect {
        try session.members(of: url)
      } throws: { error in
        (error as? DAVError)?.description
          == "\(url.absoluteString): redirect to http://elsewhere.example/\\u{1B}]0;owned\\u{7}\\u{1B}[2J not followed (another host, or too many)"
      }
    }
  }

  @Test(
    "server text is printable: controls, bidi overrides and backslashes escaped",
    arguments: [
      ("plain /path é", "plain /path é"),
      ("a\u{1B}[2Jb", #"a\u{1B}[2Jb"#),
      ("line\r\nnext\t", #"line\u{D}\u{A}next\u{9}"#),
      ("\u{9B}31m\u{7F}", #"\u{9B}31m\u{7F}"#),
      ("evil\u{202E}txt.exe", #"evil\u{202E}txt.exe"#),
      (#"a\u{1B}"#, #"a\\u{1B}"#),  // a literal backslash cannot fake an escape
    ])
  func printable(text: String, shown: String) {
    #expect(DAVError.printable(text) == shown)
    #expect(
      DAVError.badResponse(url: "http://h/", reason: text).description
        == "http://h/: unusable response: \(shown)")
  }
}
