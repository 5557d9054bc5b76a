import Foundation
import ICalendar

/// Reading the command's input: a path or `-` for standard input.
enum InputFile {
  struct ReadError: Error {
    let message: String
  }

  /// The largest input read unless `--max-file-size` says otherwise: 256 MiB.
  static let defaultMaximumBytes = 256 << 20

  /// The bytes of `path` (`-`: standard input), or why they cannot be read (missing, a folder,
  /// no permission, larger than `maximumBytes`). Never reads more than `maximumBytes + 1`
  /// bytes, so `/dev/zero` or a pipe that never ends is refused, not read forever.
  static func read(_ path: String, maximumBytes: Int, context: ToolContext) throws(ReadError)
    -> [UInt8]
  {
    let bytes: [UInt8]
    if path == "-" {
      bytes = context.readStandardInput(maximumBytes + 1)
    } else {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        throw ReadError(message: noSuchFile(path))
      }
      guard !isFolder.boolValue else {
        throw ReadError(message: "\(path): is a folder, not a file")
      }
      var status = stat()
      if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        status.st_size > maximumBytes
      {
        throw tooLarge(path, maximumBytes)
      }
      guard let handle = FileHandle(forReadingAtPath: path) else {
        throw ReadError(message: "\(path): cannot be read (permission denied?)")
      }
      defer { try? handle.close() }
      if status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 {
        bytes = readFile(handle, size: Int(status.st_size), upTo: maximumBytes + 1)
      } else {
        bytes = readBytes(from: handle, upTo: maximumBytes + 1)
      }
    }
    if bytes.count > maximumBytes { throw tooLarge(displayName(path), maximumBytes) }
    return bytes
  }

  /// What a missing input is called, the same in every command.
  static func noSuchFile(_ path: String) -> String { "\(path): no such file" }

  /// How an input is named in messages: its path, or `<stdin>` for `-`.
  static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

  /// Why iCalendar text `bytes` of the input named `name` cannot be read, or nil when it is
  /// UTF-8 (RFC 5545 §3.1.4).
  static func notUTF8Message(_ bytes: [UInt8], name: String) -> String? {
    checkUTF8(bytes).map {
      "\(name):\($0.line): not UTF-8 text; iCalendar files must be UTF-8 (RFC 5545 §3.1.4)"
    }
  }

  private static func tooLarge(_ name: String, _ maximumBytes: Int) -> ReadError {
    ReadError(
      message:
        "\(name): larger than the \(SizeText.format(maximumBytes)) input limit (--max-file-size raises it)"
    )
  }

  /// At most `count` bytes of a regular file of `size` bytes, read straight into an array of
  /// that size (a large calendar is not copied from chunks into an array that doubles), then
  /// in chunks should the file have grown.
  private static func readFile(_ handle: FileHandle, size: Int, upTo count: Int) -> [UInt8] {
    let capacity = min(size, count)
    var bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, filled in
      filled = 0
      while filled < capacity, let base = buffer.baseAddress {
        let got = Foundation.read(handle.fileDescriptor, base + filled, capacity - filled)
        if got < 0 && errno == EINTR { continue }
        guard got > 0 else { break }
        filled += got
      }
    }
    if bytes.count == capacity, bytes.count < count {
      bytes += readBytes(from: handle, upTo: count - bytes.count)
    }
    return bytes
  }

  /// At most `count` bytes from `handle`, read in chunks until the end of its data.
  static func readBytes(from handle: FileHandle, upTo count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    while bytes.count < count {
      guard let chunk = try? handle.read(upToCount: min(count - bytes.count, 1 << 22)),
        !chunk.isEmpty
      else { break }
      bytes.append(contentsOf: chunk)
    }
    return bytes
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
    return .failure(
      NotUTF8(line: line(at: UTF8Validation.firstInvalidOffset(bytes) ?? bytes.count, of: bytes)))
  }

  /// Where the first byte that is not UTF-8 (``UTF8Validation``) is, or nil when all are;
  /// without making a String of them.
  static func checkUTF8(_ bytes: [UInt8]) -> NotUTF8? {
    UTF8Validation.firstInvalidOffset(bytes).map { NotUTF8(line: line(at: $0, of: bytes)) }
  }

  /// The 1-based line of the byte at `offset` of `bytes`, UTF-8 up to there.
  private static func line(at offset: Int, of bytes: [UInt8]) -> Int {
    bytes[..<offset].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
  }
}

/// Sizes as people write them: `1048576`, `512K`, `256M`, `2G` (powers of 1,024).
enum SizeText {
  /// The bytes `text` names, or nil.
  static func parse(_ text: String) -> Int? {
    let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    var digits = Substring(text)
    var unit = 1
    if let last = digits.last, let scale = units[Character(last.uppercased())] {
      unit = scale
      digits = digits.dropLast()
    }
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let number = Int(digits) else {
      return nil
    }
    let (bytes, overflow) = number.multipliedReportingOverflow(by: unit)
    return overflow || bytes > 1 << 50 ? nil : bytes
  }

  /// `256 MiB`, `1.5 GiB`, `4096 bytes`.
  static func format(_ bytes: Int) -> String {
    for (unit, name) in [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")] where bytes >= unit {
      let whole = bytes / unit
      let tenths = bytes % unit * 10 / unit
      return tenths == 0 ? "\(whole) \(name)" : "\(whole).\(tenths) \(name)"
    }
    return "\(bytes) bytes"
  }
}
