import Foundation

/// Writes a file so that readers see the old content or the whole new content, never a part:
/// the bytes go to a temporary file in the same folder, are flushed to disk, then renamed over.
enum AtomicFile {
  struct WriteError: Error {
    let message: String
  }

  static func write(_ text: String, to path: String) throws(WriteError) {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    let temporary =
      "\(folder)/.\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, 0o644)
    guard descriptor >= 0 else {
      throw WriteError(
        message: "cannot create a file in \(folder): \(String(cString: strerror(errno)))")
    }
    var failure: String?
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count, failure == nil {
      let count = bytes[written...].withUnsafeBytes { buffer in
        Foundation.write(descriptor, buffer.baseAddress, buffer.count)
      }
      if count < 0 {
        if errno == EINTR { continue }
        failure = String(cString: strerror(errno))
      } else {
        written += count
      }
    }
    if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
    if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
    if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
    if let failure {
      unlink(temporary)
      throw WriteError(message: "cannot write \(path): \(failure)")
    }
  }
}
