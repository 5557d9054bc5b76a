import Foundation

/// Reading the command's input: a path or `-` for standard input.
enum InputFile {
  struct ReadError: Error {
    let message: String
  }

  /// The bytes of `path`, or why they cannot be read (missing, a folder, no permission).
  static func read(_ path: String, context: ToolContext) throws(ReadError) -> [UInt8] {
    if path == "-" { return context.readStandardInput() }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw ReadError(message: "\(path): no such file")
    }
    guard !isFolder.boolValue else { throw ReadError(message: "\(path): is a folder, not a file") }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ReadError(message: "\(path): cannot be read (permission denied?)")
    }
    return [UInt8](data)
  }

  /// Whether two paths name the same file (same device and inode, or the same resolved path).
  static func sameFile(_ first: String, _ second: String) -> Bool {
    var a = stat()
    var b = stat()
    if stat(first, &a) == 0, stat(second, &b) == 0 {
      return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }
    let resolve = { (path: String) in
      URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
    return resolve(first) == resolve(second)
  }

  /// The 1-based line of the first byte that is not UTF-8.
  struct NotUTF8: Error {
    let line: Int
  }

  /// The text of UTF-8 bytes, or the line of the first byte that is not UTF-8.
  static func utf8Text(_ bytes: [UInt8]) -> Result<String, NotUTF8> {
    if let text = String(validating: bytes, as: UTF8.self) { return .success(text) }
    var line = 1
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      let length: Int
      switch byte {
      case 0x00...0x7F: length = 1
      case 0xC2...0xDF: length = 2
      case 0xE0...0xEF: length = 3
      case 0xF0...0xF4: length = 4
      default: return .failure(NotUTF8(line: line))
      }
      let end = index + length
      guard end <= bytes.count,
        String(validating: bytes[index..<end], as: UTF8.self) != nil
      else { return .failure(NotUTF8(line: line)) }
      if byte == UInt8(ascii: "\n") { line += 1 }
      index = end
    }
    return .failure(NotUTF8(line: line))
  }
}
