/// TEXT value escaping, RFC 5545 §3.3.11: backslash, semicolon, comma and newline.
public enum TextEscaping {
  /// Escapes text for a TEXT value.
  public static func escape(_ text: String) -> String {
    // Most text (ids, labels, names) holds nothing to escape.
    guard needsEscaping(text) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count)
    var previousWasCR = false
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case ";": out += "\\;"
      case ",": out += "\\,"
      case "\r": out += "\\n"
      case "\n" where previousWasCR: break
      case "\n": out += "\\n"
      default: out.unicodeScalars.append(scalar)
      }
      previousWasCR = scalar == "\r"
    }
    return out
  }

  /// Whether `text` holds a character that ``escape(_:)`` changes.
  static func needsEscaping(_ text: String) -> Bool {
    func special(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: "\\") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ",")
        || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }
    return text.utf8.withContiguousStorageIfAvailable { $0.contains(where: special) }
      ?? text.utf8.contains(where: special)
  }

  /// Undoes TEXT escapes; an unknown escape keeps the character after the backslash.
  public static func unescape(_ value: String) -> String {
    let hasBackslash =
      value.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: "\\")) }
      ?? value.utf8.contains(UInt8(ascii: "\\"))
    guard hasBackslash else { return value }
    var out = ""
    out.reserveCapacity(value.utf8.count)
    var escaping = false
    for scalar in value.unicodeScalars {
      if escaping {
        switch scalar {
        case "n", "N": out += "\n"
        default: out.unicodeScalars.append(scalar)
        }
        escaping = false
      } else if scalar == "\\" {
        escaping = true
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    if escaping { out += "\\" }
    return out
  }
}
