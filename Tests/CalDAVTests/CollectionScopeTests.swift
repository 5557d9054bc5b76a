import CalDAV
import Foundation
import Testing

/// Which hrefs name a member of the collection, and which ETags may go into `If-Match`.
@Suite struct CollectionScopeTests {
  static let scope = URL(string: "http://Example.org:8080/alice/cal/").flatMap(CollectionScope.init)

  @Test(
    "an href is a member only inside the collection, on its origin",
    arguments: [
      ("/alice/cal/a.ics", "http://Example.org:8080/alice/cal/a.ics"),
      ("a.ics", "http://Example.org:8080/alice/cal/a.ics"),
      (
        "http://example.org:8080/alice/cal/a%40b.ics", "http://Example.org:8080/alice/cal/a%40b.ics"
      ),
      ("/alice/cal/./x/../a.ics", "http://Example.org:8080/alice/cal/a.ics"),
      // another port, scheme or host
      ("http://example.org:8081/alice/cal/a.ics", nil),
      ("https://example.org:8080/alice/cal/a.ics", nil),
      ("http://evil.example:8080/alice/cal/a.ics", nil),
      // a network-path reference, or one hidden in the path
      ("//evil.example/alice/cal/a.ics", nil),
      ("http://example.org:8080//evil.example/a.ics", nil),
      ("/alice/cal//a.ics", nil),
      // out of the collection by dot segments, plain or encoded
      ("/alice/cal/../other/a.ics", nil),
      ("/alice/cal/%2e%2e/other/a.ics", nil),
      ("/alice/cal/a%2Fb.ics", nil),
      ("/../../etc/passwd", nil),
      // the collection itself, a folder inside it, oddities
      ("/alice/cal/", nil),
      ("/alice/cal/sub/a.ics", nil),
      ("http://user@example.org:8080/alice/cal/a.ics", nil),
      ("/alice/cal/a.ics?x=1", nil),
      ("mailto:a@b", nil),
      ("", nil),
    ] as [(String, String?)])
  func member(href: String, expected: String?) throws {
    let scope = try #require(Self.scope)
    #expect(scope.member(href)?.absoluteString == expected)
  }

  @Test("a member is found whatever the percent-encoding of the collection's path")
  func encoding() throws {
    let scope = try #require(
      URL(string: "http://h/dav/alice%40example.org/cal/").flatMap(CollectionScope.init))
    #expect(
      scope.member("/dav/alice@example.org/cal/a.ics")?.absoluteString
        == "http://h/dav/alice@example.org/cal/a.ics")
    #expect(scope.member("/dav/alice@example.org/other/a.ics") == nil)
    #expect(scope.isCollection(try #require(URL(string: "http://h/dav/alice@example.org/cal"))))
  }

  @Test("discovery hrefs on the same origin resolve anywhere on it")
  func resolve() throws {
    let scope = try #require(Self.scope)
    #expect(scope.resolve("/bob/")?.absoluteString == "http://Example.org:8080/bob/")
    #expect(scope.resolve("http://example.org:8081/bob/") == nil)
    let https = try #require(URL(string: "https://h/").flatMap(CollectionScope.init))
    #expect(https.resolve("https://h:443/p/")?.absoluteString == "https://h/p/")
  }

  @Test(
    "only a well-formed entity-tag is usable in If-Match",
    arguments: [
      ("\"abc\"", true), ("W/\"abc\"", true), ("\"\"", true), ("\"1-2\"", true),
      ("", false), ("abc", false), ("\"", false), ("\"a\nb\"", false), ("\"a\rb\"", false),
      ("\"a\"b\"", false), ("\"a b\"", false), (" \"a\"", false),
    ] as [(String, Bool)])
  func entityTag(text: String, usable: Bool) {
    #expect((EntityTag.usable(text) != nil) == usable)
  }
}
