/// Where the values of a JSON document are in its bytes, for edits that leave every other byte
/// as it was. The document must be one ``JSONParser`` has read without error: the outline
/// trusts its grammar and only finds the ends of values.
public struct JSONOutline {
  /// A member of an object: its key, and where its key (quotes included) and value are.
  public struct Member: Sendable {
    /// The key, unescaped.
    public let key: String
    /// Where the key is, quotes included.
    public let keyRange: Range<Int>
    /// Where the value is.
    public let valueRange: Range<Int>
  }

  /// The document.
  public let bytes: [UInt8]

  /// The outline of `bytes`, a document ``JSONParser`` has read without error.
  public init(bytes: [UInt8]) { self.bytes = bytes }

  /// Where the top-level value starts: after a byte order mark and whitespace.
  public var root: Int {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    return skipWhitespace(bytes.starts(with: bom) ? 3 : 0)
  }

  /// The ranges of the elements of the array that starts at `start`.
  public func elements(ofArrayAt start: Int) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var index = skipWhitespace(start + 1)
    while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
      let end = valueEnd(from: index)
      ranges.append(index..<end)
      index = skipWhitespace(end)
      guard byte(at: index) == UInt8(ascii: ",") else { break }
      index = skipWhitespace(index + 1)
    }
    return ranges
  }

  /// The members of the object that starts at `start`, in order.
  public func members(ofObjectAt start: Int) -> [Member] {
    var members: [Member] = []
    var index = skipWhitespace(start + 1)
    while byte(at: index) == UInt8(ascii: "\"") {
      let keyEnd = valueEnd(from: index)
      let colon = skipWhitespace(keyEnd)
      let value = skipWhitespace(colon + 1)
      let valueEnd = valueEnd(from: value)
      members.append(
        Member(key: key(index..<keyEnd), keyRange: index..<keyEnd, valueRange: value..<valueEnd))
      index = skipWhitespace(valueEnd)
      guard byte(at: index) == UInt8(ascii: ",") else { break }
      index = skipWhitespace(index + 1)
    }
    return members
  }

  /// Where the value that starts at `start` ends.
  func valueEnd(from start: Int) -> Int {
    var index = start
    var depth = 0
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\""):
        index = stringEnd(from: index)
        if depth == 0 { return index }
        continue
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if depth == 0 { return index }
        depth -= 1
        if depth == 0 { return index + 1 }
      case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
        if depth == 0 { return index }
      default:
        break
      }
      index += 1
    }
    return index
  }

  /// Where the string whose opening quote is at `start` ends, after its closing quote.
  private func stringEnd(from start: Int) -> Int {
    var index = start + 1
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "\""): return index + 1
      default: index += 1
      }
    }
    return index
  }

  /// The text of the string literal in `range`, escapes decoded.
  private func key(_ range: Range<Int>) -> String {
    let literal = bytes[range]
    guard literal.contains(UInt8(ascii: "\\")) else {
      return String(decoding: literal.dropFirst().dropLast(), as: UTF8.self)
    }
    return (try? JSONParser().parse(Array(literal)))?.stringValue ?? ""
  }

  func skipWhitespace(_ start: Int) -> Int {
    var index = start
    while index < bytes.count,
      bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
    {
      index += 1
    }
    return index
  }

  private func byte(at index: Int) -> UInt8? {
    index < bytes.count ? bytes[index] : nil
  }
}
