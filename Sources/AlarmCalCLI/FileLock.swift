import Foundation

/// An advisory lock (`flock`) on a file that is edited in place, held until it goes out of
/// scope: two alarmcal processes editing one file take turns, and neither loses the other's
/// edit. The file is replaced by renaming, so a lock taken on a file that was replaced while
/// waiting is given up and taken again on the new one. The path is opened without following a
/// symbolic link (resolve it first) and without blocking (a FIFO's open would wait for a
/// writer).
struct FileLock: ~Copyable {
  struct Failure: Error {
    let message: String
  }

  private let descriptor: Int32

  /// Waits up to `seconds` for the lock on `path`.
  init(_ path: String, waitingUpTo seconds: Double) throws(Failure) {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
      let candidate = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
      guard candidate >= 0 else {
        let reason = errno == ELOOP ? "is a symbolic link" : String(cString: strerror(errno))
        throw Failure(message: "\(path): cannot be opened: \(reason)")
      }
      if flock(candidate, LOCK_EX | LOCK_NB) == 0 {
        if Self.isStill(path, candidate) {
          descriptor = candidate
          return
        }
        close(candidate)
        continue
      }
      let reason = errno
      close(candidate)
      guard reason == EWOULDBLOCK || reason == EINTR else {
        throw Failure(message: "\(path): cannot be locked: \(String(cString: strerror(reason)))")
      }
      guard Date() < deadline else {
        throw Failure(
          message: "\(path): another process is editing it (waited \(Int(seconds)) s); try again")
      }
      usleep(20_000)
    }
  }

  /// Whether `path` still names the file open as `descriptor`.
  private static func isStill(_ path: String, _ descriptor: Int32) -> Bool {
    var held = stat()
    var current = stat()
    return fstat(descriptor, &held) == 0 && lstat(path, &current) == 0
      && held.st_ino == current.st_ino && held.st_dev == current.st_dev
  }

  /// Gives the lock up.
  consuming func release() {}

  deinit { close(descriptor) }
}
