import Foundation

/// Writes a file so that readers see the old content or the whole new content, never a part:
/// the bytes go to a temporary file in the same folder, are flushed to disk, then renamed over.
///
/// A symbolic link is followed, so the file it points to is replaced and the link stays. An
/// existing file keeps its permission bits. A target that is not a regular file (a FIFO, a
/// device such as /dev/stdout) cannot be replaced by renaming and is written in place.
enum AtomicFile {
  struct WriteError: Error {
    let message: String
  }

  static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    var status = stat()
    let exists = stat(target, &status) == 0
    if exists && (status.st_mode & S_IFMT) != S_IFREG {
      try writeInPlace(bytes, to: target)
      return
    }
    let url = URL(fileURLWithPath: target)
    let folder = url.deletingLastPathComponent().path
    let temporary =
      "\(folder)/.\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp"
    let mode = exists ? status.st_mode & 0o7777 : 0o644
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, mode)
    guard descriptor >= 0 else {
      throw WriteError(message: "cannot create a file in \(folder): \(errorText())")
    }
    var failure = writeAll(bytes, to: descriptor)
    if failure == nil, exists, fchmod(descriptor, mode) != 0 { failure = errorText() }
    if failure == nil, fsync(descriptor) != 0 { failure = errorText() }
    if close(descriptor) != 0, failure == nil { failure = errorText() }
    if failure == nil, rename(temporary, target) != 0 { failure = errorText() }
    if let failure {
      unlink(temporary)
      throw WriteError(message: "cannot write \(path): \(failure)")
    }
  }

  private static func writeInPlace(_ bytes: [UInt8], to path: String) throws(WriteError) {
    let descriptor = open(path, O_WRONLY | O_TRUNC)
    guard descriptor >= 0 else { throw WriteError(message: "cannot open \(path): \(errorText())") }
    let failure = writeAll(bytes, to: descriptor)
    close(descriptor)
    if let failure { throw WriteError(message: "cannot write \(path): \(failure)") }
  }

  /// Writes every byte, retrying on EINTR; the error text on failure.
  static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
    bytes.withUnsafeBufferPointer { writeAll($0, to: descriptor) }
  }

  /// Writes every byte, retrying on EINTR; the error text on failure.
  static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> String? {
    var written = 0
    while written < bytes.count {
      let count = Foundation.write(
        descriptor, bytes.baseAddress?.advanced(by: written), bytes.count - written)
      if count < 0 {
        if errno == EINTR { continue }
        return errorText()
      }
      written += count
    }
    return nil
  }

  private static func errorText() -> String { String(cString: strerror(errno)) }
}
