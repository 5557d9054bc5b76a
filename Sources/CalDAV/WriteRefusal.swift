import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A server's refusal of one write (PUT or DELETE) for reasons of that resource alone: 403,
/// 409 or 415 with, when the body is a `DAV:error` (RFC 4918 §16), the precondition it names
/// (`CALDAV:valid-calendar-data`, RFC 4791 §5.3.2; `CALDAV:unique-scheduling-object-resource`,
/// RFC 6638 §3.2.4.1) and the server's description. Server text is kept as sent; ``line``
/// escapes its control characters.
public struct WriteRefusal: Equatable, Sendable {
  /// The HTTP status.
  public var status: Int
  /// The precondition element, prefixed `DAV:` or `CALDAV:` (else `{namespace}name`), if any.
  public var precondition: String?
  /// The server's words: a `DAV:responsedescription` (or the error's other text) and any hrefs
  /// the precondition names; for a body that is not a `DAV:error`, its first line of text.
  public var description: String?

  /// Creates a refusal.
  public init(status: Int, precondition: String? = nil, description: String? = nil) {
    self.status = status
    self.precondition = precondition
    self.description = description
  }

  /// The statuses that refuse one resource, not the user or the server: 403 Forbidden,
  /// 409 Conflict, 415 Unsupported Media Type (412 is a ``WriteOutcome/conflict``).
  public static let statuses: Set<Int> = [403, 409, 415]

  /// The refusal a response stands for (its body read as a `DAV:error` when it is one).
  public static func from(status: Int, body: [UInt8]) -> WriteRefusal {
    var refusal = WriteRefusal(status: status)
    if let parsed = DAVErrorBody.parse(body) {
      refusal.precondition = parsed.precondition
      refusal.description = parsed.description
    } else {
      let text = String(decoding: body.prefix(4096), as: UTF8.self)
      refusal.description = text.split(whereSeparator: \.isNewline)
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .first { !$0.isEmpty && !$0.hasPrefix("<") }
    }
    if refusal.description?.isEmpty == true { refusal.description = nil }
    return refusal
  }

  /// One line: the status, the precondition and the description, each control character of
  /// the server's text escaped (`\n`, `\u{1B}`), at most 300 characters of it.
  public var line: String {
    var parts = ["\(status) \(Self.reason(status))"]
    if let precondition { parts.append(Self.escaped(precondition)) }
    if let description { parts.append(Self.escaped(description)) }
    return parts.joined(separator: ": ")
  }

  /// The reason phrase of a refusing status.
  static func reason(_ status: Int) -> String {
    switch status {
    case 403: return "Forbidden"
    case 409: return "Conflict"
    case 415: return "Unsupported Media Type"
    default: return "Refused"
    }
  }

  /// `text` with control characters escaped (`\n`, `\u{1B}`), cut at 300 characters: server
  /// text fit for one line of a terminal.
  public static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars.prefix(300) {
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.properties.generalCategory == .control
          || scalar.properties.generalCategory == .format
        {
          result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return text.unicodeScalars.count > 300 ? result + "…" : result
  }
}

/// Reads a `DAV:error` body (RFC 4918 §16): its first child element is the precondition, and
/// its text (a `responsedescription`, Cyrus's and others' free text, the hrefs inside the
/// precondition) the description. Nothing but a small, well-formed body without a DTD is read.
enum DAVErrorBody {
  /// The largest body read.
  static let maximumBytes = 64 << 10

  /// The precondition and description of `body`, or nil when it is not a `DAV:error`.
  static func parse(_ body: [UInt8]) -> (precondition: String?, description: String?)? {
    guard !body.isEmpty, body.count <= maximumBytes,
      !MultistatusParser.containsDeclaration(body)
    else { return nil }
    let reader = ErrorReader()
    let parser = XMLParser(data: Data(body))
    parser.shouldProcessNamespaces = true
    parser.shouldResolveExternalEntities = false
    parser.delegate = reader
    guard parser.parse(), reader.isError, reader.closedRoot else { return nil }
    let hrefs = reader.hrefs.isEmpty ? "" : "already at " + reader.hrefs.joined(separator: ", ")
    let words = reader.words.joined(separator: " ")
    let description = [words, hrefs].filter { !$0.isEmpty }.joined(separator: "; ")
    return (reader.precondition, description.isEmpty ? nil : description)
  }
}

/// The XMLParser delegate of ``DAVErrorBody``; lives for one parse.
private final class ErrorReader: NSObject, XMLParserDelegate {
  var isError = false
  var closedRoot = false
  var precondition: String?
  var hrefs: [String] = []
  var words: [String] = []
  private var depth = 0
  private var text = ""

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
  ) {
    depth += 1
    text = ""
    if depth > 16 {
      parser.abortParsing()
      return
    }
    if depth == 1 {
      isError = namespaceURI == "DAV:" && elementName == "error"
      if !isError { parser.abortParsing() }
    } else if depth == 2, precondition == nil,
      !(namespaceURI == "DAV:" && elementName == "responsedescription")
    {
      precondition = Self.prefixed(namespaceURI ?? "", elementName)
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

  func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
    text += String(decoding: CDATABlock, as: UTF8.self)
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?
  ) {
    let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if !value.isEmpty {
      if namespaceURI == "DAV:" && elementName == "href" {
        hrefs.append(value)
      } else {
        words.append(value)
      }
    }
    text = ""
    depth -= 1
    if depth == 0 { closedRoot = true }
  }

  func parser(
    _ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?
  ) {
    parser.abortParsing()
  }

  /// `DAV:name`, `CALDAV:name`, or `{namespace}name`.
  static func prefixed(_ namespace: String, _ name: String) -> String {
    switch namespace {
    case "DAV:": return "DAV:" + name
    case "urn:ietf:params:xml:ns:caldav": return "CALDAV:" + name
    default: return "{\(namespace)}\(name)"
    }
  }
}
