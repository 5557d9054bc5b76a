import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Why a multistatus body was refused.
public struct XMLBodyError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was wrong, in a few words.
  public let description: String
}

/// Reads a WebDAV multistatus body with Foundation's `XMLParser`, refusing what a server never
/// needs to send and an attacker would: a DTD or entity declaration (the billion laughs),
/// nesting deeper than ``maximumDepth``, more than ``maximumBytes`` of input, and anything that
/// is not well-formed XML (truncated, HTML, binary).
public enum MultistatusParser {
  /// The deepest element nesting accepted (a multistatus needs about eight).
  public static let maximumDepth = 64
  /// The largest body accepted: 256 MiB.
  public static let maximumBytes = 256 << 20

  /// The multistatus in `body`.
  public static func parse(_ body: [UInt8], maximumBytes: Int = maximumBytes) throws(XMLBodyError)
    -> Multistatus
  {
    guard body.count <= maximumBytes else {
      throw XMLBodyError(description: "larger than \(maximumBytes) bytes")
    }
    if containsDeclaration(body) {
      throw XMLBodyError(description: "holds a DTD or entity declaration; refused")
    }
    let builder = MultistatusBuilder()
    // From a stream, XMLParser hands libxml2 the body a few KiB at a time; given all of it at
    // once, libxml2 stops past 10 MB ("huge input lookup") unless XML_PARSE_HUGE is set, which
    // Foundation never sets.
    let parser = XMLParser(stream: ByteInputStream(body))
    parser.shouldProcessNamespaces = true
    parser.shouldResolveExternalEntities = false
    parser.delegate = builder
    let parsed = parser.parse()
    if let failure = builder.failure { throw XMLBodyError(description: failure) }
    guard parsed else {
      let line = parser.lineNumber
      throw XMLBodyError(description: "not well-formed XML (line \(line))")
    }
    guard builder.sawMultistatus else {
      throw XMLBodyError(description: "no DAV:multistatus element")
    }
    // libxml2 may report success for input that ends inside an element.
    guard builder.closedRoot else {
      throw XMLBodyError(description: "truncated: the multistatus element never ends")
    }
    return builder.result
  }

  /// Whether the body holds `<!DOCTYPE` or `<!ENTITY` (any case) anywhere: WebDAV never needs
  /// one, and refusing it before parsing keeps entity expansion out entirely.
  static func containsDeclaration(_ body: [UInt8]) -> Bool {
    let lt = UInt8(ascii: "<")
    let bang = UInt8(ascii: "!")
    var index = 0
    while index + 1 < body.count {
      if body[index] == lt && body[index + 1] == bang {
        let word = body[(index + 2)..<min(body.count, index + 9)].map { $0 | 0x20 }
        if word.starts(with: Array("doctype".utf8)) || word.starts(with: Array("entity".utf8)) {
          return true
        }
      }
      index += 1
    }
    return false
  }
}

/// A stream over a byte array that reads from it in place (`InputStream(data:)` would need a
/// `Data` copy of the whole body).
private final class ByteInputStream: InputStream {
  private let bytes: [UInt8]
  private var offset = 0
  private var status = Stream.Status.notOpen

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    super.init(data: Data())
  }

  override func open() { status = .open }
  override func close() { status = .closed }
  override var streamStatus: Stream.Status { status }
  override var streamError: (any Error)? { nil }
  override var hasBytesAvailable: Bool { offset < bytes.count }

  override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
    let count = max(0, min(length, bytes.count - offset))
    _ = UnsafeMutableBufferPointer(start: buffer, count: count)
      .update(fromContentsOf: bytes[offset..<offset + count])
    offset += count
    if offset == bytes.count { status = .atEnd }
    return count
  }
}

/// The XMLParser delegate that builds a ``Multistatus``; its state lives only for one parse.
private final class MultistatusBuilder: NSObject, XMLParserDelegate {
  var result = Multistatus()
  var failure: String?
  var sawMultistatus = false
  var closedRoot = false

  private var path: [XMLName] = []
  private var text = ""
  private var entry: MultistatusEntry?
  private var propstatProperties: [XMLName: PropertyValue] = [:]
  private var propstatStatus: Int?
  private var property: (name: XMLName, value: PropertyValue)?

  private static let multistatus = XMLName.dav("multistatus")
  private static let response = XMLName.dav("response")
  private static let propstat = XMLName.dav("propstat")
  private static let prop = XMLName.dav("prop")
  private static let href = XMLName.dav("href")
  private static let status = XMLName.dav("status")
  private static let syncToken = XMLName.dav("sync-token")

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
  ) {
    let name = XMLName(namespaceURI ?? "", elementName)
    path.append(name)
    text = ""
    if path.count > MultistatusParser.maximumDepth {
      failure = "nested deeper than \(MultistatusParser.maximumDepth) elements"
      parser.abortParsing()
      return
    }
    if path.count == 1 {
      sawMultistatus = name == Self.multistatus
      if !sawMultistatus {
        failure = "the root element is \(name), not DAV:multistatus"
        parser.abortParsing()
      }
      return
    }
    if name == Self.response && path.count == 2 {
      entry = MultistatusEntry(href: "")
    } else if name == Self.propstat {
      propstatProperties = [:]
      propstatStatus = nil
    } else if path.count >= 2, path[path.count - 2] == Self.prop {
      property = (name, PropertyValue())
    } else if var current = property, path.count >= 3, path[path.count - 3] == Self.prop,
      name != Self.href
    {
      current.value.children.append(.init(name: name, attributes: attributeDict))
      property = current
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    text += string
  }

  func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
    text += String(decoding: CDATABlock, as: UTF8.self)
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?
  ) {
    guard let name = path.popLast() else { return }
    if path.isEmpty { closedRoot = true }
    let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
    let parent = path.last
    if name == Self.href {
      if var current = property {
        current.value.hrefs.append(value)
        property = current
      } else if parent == Self.response {
        entry?.href = value
      }
    } else if name == Self.status {
      let code = Self.statusCode(value)
      if parent == Self.propstat {
        propstatStatus = code
      } else if parent == Self.response {
        entry?.status = code
      }
    } else if name == Self.syncToken && parent == Self.multistatus {
      result.syncToken = value
    } else if let current = property, current.name == name, parent == Self.prop {
      var finished = current.value
      if finished.children.isEmpty && finished.hrefs.isEmpty {
        // calendar-data: keep the text whole, only its leading and trailing space trimmed.
        finished.text = value
      }
      propstatProperties[name] = finished
      property = nil
    } else if name == Self.propstat {
      if let code = propstatStatus, (200..<300).contains(code) {
        entry?.properties.merge(propstatProperties) { _, new in new }
      }
    } else if name == Self.response, path.count == 1, let finished = entry {
      result.entries.append(finished)
      entry = nil
    }
    text = ""
  }

  func parser(
    _ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?
  ) {
    failure = "holds an entity declaration; refused"
    parser.abortParsing()
  }

  /// 404 from `HTTP/1.1 404 Not Found`.
  private static func statusCode(_ line: String) -> Int? {
    let parts = line.split(separator: " ")
    return parts.count >= 2 ? Int(parts[1]) : nil
  }
}
