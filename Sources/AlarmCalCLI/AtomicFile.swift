import Foundation

/// Writes a file so that readers see the old content or the whole new content, never a part:
/// the bytes go to a new temporary file in the same folder, are flushed to disk, then renamed
/// over.
///
/// The temporary file is `.NAME.<16 random hex digits>.tmp` (NAME shortened, with a hash of
/// the whole, when the result would pass 255 bytes), created exclusively and never through a
/// symbolic link, so a file left by a process that was killed cannot block a later write.
/// Such leftovers (`.NAME.<16 hex digits>.tmp`, and the `.NAME.<PID>.tmp` of earlier versions)
/// that belong to the user and were last modified more than ``staleSeconds`` ago are removed
/// before writing. A write that passes `ulimit -f` fails with EFBIG instead of ending the
/// process. How an existing path is treated depends on the ``Target``.
enum AtomicFile {
  /// What is written: it decides how an existing path is treated.
  enum Target {
    /// An output file (`convert -o`, `pull -o`): a symbolic link is followed and the file it
    /// points to replaced; an existing file keeps its permission bits, and its owner, group and
    /// extended attributes where the user may set them; a target that is not a regular file
    /// (a FIFO, /dev/stdout) is written in place.
    case output
    /// A file alarmcal keeps for itself (push's and pull's state): a symbolic link, or anything
    /// but a regular file, is refused, never written through.
    case state
    /// A file edited in place (`snooze`, `dismiss`), its path already free of symbolic links
    /// and checked by ``checkEditable(_:)``: the new file keeps the old one's owner, group,
    /// permission bits and extended attributes, or nothing is written.
    case edited
  }

  struct WriteError: Error {
    let message: String
    /// Whether alarmcal declined to write (a link, a read-only file, an owner that would
    /// change) rather than tried and failed.
    var refused = false
  }

  /// How old, in seconds since its last change, a leftover temporary file must be to be
  /// removed: a write in progress changes its file far more often than this.
  static let staleSeconds: TimeInterval = 600

  /// Writes `bytes` to `path`, treated as `kind` says; on failure nothing is left behind and
  /// the file at `path` is as it was.
  static func write(_ bytes: [UInt8], to path: String, as kind: Target = .output)
    throws(WriteError)
  {
    _ = fileSizeSignalIgnored
    let target =
      kind == .output ? URL(fileURLWithPath: path).resolvingSymlinksInPath().path : path
    var status = stat()
    // An output's link that leads nowhere is replaced, as a missing file would be made.
    let exists = (kind == .output ? stat(target, &status) : lstat(target, &status)) == 0
    let type = status.st_mode & S_IFMT
    if exists && type != S_IFREG {
      switch kind {
      case .output:
        try writeInPlace(bytes, to: target)
        return
      case .state, .edited:
        throw notRegular(path, type)
      }
    }
    let url = URL(fileURLWithPath: target)
    let folder = url.deletingLastPathComponent().path
    let stem = temporaryStem(url.lastPathComponent)
    removeStaleTemporaries(in: folder, stem: stem)
    // A new file is made with the umask's say; an existing one's mode is set exactly below,
    // and until then no one else can read the half-written file.
    let (temporary, descriptor) = try createTemporary(
      in: folder, stem: stem, mode: exists ? 0o600 : 0o644)
    var failure = writeAll(bytes, to: descriptor)
    if failure == nil, exists {
      do {
        try keepAttributes(
          of: target, status, on: descriptor, at: temporary, strictly: kind == .edited)
      } catch {
        close(descriptor)
        unlink(temporary)
        throw error
      }
    }
    if failure == nil, fsync(descriptor) != 0 { failure = errorText() }
    if close(descriptor) != 0, failure == nil { failure = errorText() }
    if failure == nil, rename(temporary, target) != 0 { failure = errorText() }
    if let failure {
      unlink(temporary)
      throw WriteError(message: "cannot write \(path): \(failure)")
    }
  }

  /// Why a state file must not be written at `path`, if it must not: it is a symbolic link or
  /// not a regular file (a missing one is made). Push and pull may ask before they send.
  static func checkState(_ path: String) throws(WriteError) {
    var status = stat()
    guard lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG else { return }
    throw notRegular(path, status.st_mode & S_IFMT)
  }

  /// The refusal to write through `path`, whose file type is `type`.
  private static func notRegular(_ path: String, _ type: mode_t) -> WriteError {
    let what = type == S_IFLNK ? "a symbolic link" : "not a regular file"
    return WriteError(
      message: "\(path): is \(what); alarmcal neither reads nor writes through it (remove it)",
      refused: true)
  }

  /// Why `path` must not be edited by replacing it, if it must not: it is not a regular file,
  /// the user may not write it, no one may (no write bit: it was made read-only on purpose,
  /// so root is refused too), it has other hard links (the new file would leave them on the
  /// old content), or the new file would change hands (it belongs to another user, or to a
  /// group the user is not in, and the user cannot give files away).
  static func checkEditable(_ path: String) throws(WriteError) {
    var status = stat()
    guard lstat(path, &status) == 0 else {
      throw WriteError(message: "\(path): cannot be examined: \(errorText())")
    }
    func refuse(_ reason: String) -> WriteError {
      WriteError(message: "\(path): \(reason); nothing was written", refused: true)
    }
    guard status.st_mode & S_IFMT == S_IFREG else { throw refuse("is not a regular file") }
    let mode = String(status.st_mode & 0o7777, radix: 8)
    guard status.st_mode & 0o222 != 0 else {
      throw refuse("is read-only (mode \(mode)); make it writable to edit it")
    }
    guard access(path, W_OK) == 0 else {
      throw refuse("you may not write it (mode \(mode), \(errorText()))")
    }
    guard status.st_nlink == 1 else {
      throw refuse(
        "has \(status.st_nlink) hard links; replacing it would leave the others on the old text")
    }
    let user = geteuid()
    guard user != 0 else { return }
    guard status.st_uid == user else {
      throw refuse(
        "belongs to user \(status.st_uid); the edited file would belong to you (edit it as its owner)"
      )
    }
    guard isMember(of: status.st_gid) else {
      throw refuse(
        "belongs to group \(status.st_gid), which you are not in; the edited file would not")
    }
  }

  /// Whether the user is in group `group`, so a file of theirs may be given to it.
  private static func isMember(of group: gid_t) -> Bool {
    if getegid() == group { return true }
    let count = getgroups(0, nil)
    guard count > 0 else { return false }
    var groups = [gid_t](repeating: 0, count: Int(count))
    let got = getgroups(count, &groups)
    return got > 0 && groups.prefix(Int(got)).contains(group)
  }

  /// Gives the new file at `descriptor` (at `temporary`) the owner, group, permission bits and
  /// extended attributes of the file `path` (whose status is `status`); a part that cannot be
  /// kept fails the write when `strictly`, else is let go.
  private static func keepAttributes(
    of path: String, _ status: stat, on descriptor: Int32, at temporary: String, strictly: Bool
  ) throws(WriteError) {
    func fail(_ what: String) -> WriteError {
      WriteError(
        message: "\(path): cannot keep its \(what) (\(errorText())); nothing was written",
        refused: true)
    }
    var made = stat()
    if fstat(descriptor, &made) == 0, made.st_uid != status.st_uid || made.st_gid != status.st_gid {
      if fchown(descriptor, status.st_uid, status.st_gid) != 0 {
        if strictly { throw fail("owner \(status.st_uid) and group \(status.st_gid)") }
        // The group, at least, may be kept.
        _ = fchown(descriptor, uid_t.max, status.st_gid)
      }
    }
    // After the owner: changing it clears the set-user-ID and set-group-ID bits.
    if fchmod(descriptor, status.st_mode & 0o7777) != 0 {
      throw WriteError(message: "cannot write \(path): \(errorText())")
    }
    guard let names = XAttr.names(of: path) else {
      if strictly { throw fail("extended attributes") }
      return
    }
    for name in names {
      guard let value = XAttr.value(name, of: path) else {
        if strictly { throw fail("extended attribute \(name)") }
        continue
      }
      // One the new file was given already (a security label) is not set again: setting it
      // may need a privilege that giving it the same value does not.
      guard XAttr.value(name, of: temporary) != value else { continue }
      guard XAttr.set(name, value, on: descriptor) else {
        if strictly { throw fail("extended attribute \(name)") }
        continue
      }
    }
  }

  /// Extended attributes through glibc's `llistxattr`, `lgetxattr` and `fsetxattr`, which
  /// Swift's Glibc module leaves out (no sys/xattr.h), looked up once by name. Foundation's
  /// own reading drops attributes whose value is empty. A link's own attributes are read,
  /// never its target's.
  private enum XAttr {
    private typealias List =
      @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, Int) -> Int
    private typealias Get =
      @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?, Int)
      -> Int
    private typealias Set =
      @convention(c) (Int32, UnsafePointer<CChar>?, UnsafeRawPointer?, Int, Int32) -> Int32

    /// The three functions, nil where the C library lacks them.
    private struct Functions: @unchecked Sendable {
      // @unchecked: C function pointers, read only.
      let list: List
      let get: Get
      let set: Set
    }

    private static let functions: Functions? = {
      // RTLD_DEFAULT (a null handle): every object loaded.
      let all = UnsafeMutableRawPointer(bitPattern: 0)
      guard let list = dlsym(all, "llistxattr"), let get = dlsym(all, "lgetxattr"),
        let set = dlsym(all, "fsetxattr")
      else { return nil }
      return Functions(
        list: unsafeBitCast(list, to: List.self), get: unsafeBitCast(get, to: Get.self),
        set: unsafeBitCast(set, to: Set.self))
    }()

    /// The names, none where the file system keeps none; nil when they cannot be read.
    static func names(of path: String) -> [String]? {
      guard let functions else { return [] }
      while true {
        let size = functions.list(path, nil, 0)
        if size < 0 && (errno == ENOTSUP || errno == ENODATA) { return [] }
        guard size > 0 else { return size == 0 ? [] : nil }
        var buffer = [CChar](repeating: 0, count: size)
        let got = buffer.withUnsafeMutableBufferPointer {
          functions.list(path, $0.baseAddress, size)
        }
        if got < 0 && errno == ERANGE { continue }  // grew meanwhile
        guard got >= 0 else { return nil }
        return buffer.prefix(got).split(separator: 0).map {
          String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
      }
    }

    /// The value of `name`, nil when it cannot be read.
    static func value(_ name: String, of path: String) -> [UInt8]? {
      guard let functions else { return nil }
      while true {
        let size = functions.get(path, name, nil, 0)
        guard size >= 0 else { return nil }
        var value = [UInt8](repeating: 0, count: size)
        let got = value.withUnsafeMutableBytes { functions.get(path, name, $0.baseAddress, size) }
        if got < 0 && errno == ERANGE { continue }
        guard got >= 0 else { return nil }
        return Array(value.prefix(got))
      }
    }

    /// Sets `name` to `value` on the open file `descriptor`; whether that worked.
    static func set(_ name: String, _ value: [UInt8], on descriptor: Int32) -> Bool {
      guard let functions else { return false }
      return value.withUnsafeBytes {
        functions.set(descriptor, name, $0.baseAddress, $0.count, 0) == 0
      }
    }
  }

  /// The part of a temporary file's name after the dot: `name`, or when `.name.` and 16 hex
  /// digits and `.tmp` would pass 255 bytes (NAME_MAX), its first bytes, `~` and 8 hex digits
  /// of a hash of the whole (so two long names that start alike get different stems).
  static func temporaryStem(_ name: String) -> String {
    let room = 255 - 22
    let bytes = Array(name.utf8)
    guard bytes.count > room else { return name }
    var hash: UInt32 = 0x811c_9dc5
    for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
    var cut = room - 9
    // Cut before a UTF-8 continuation byte's character, not inside it.
    while cut > 0 && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
    let digits = String(hash, radix: 16)
    return String(decoding: bytes[..<cut], as: UTF8.self) + "~"
      + String(repeating: "0", count: 8 - digits.count) + digits
  }

  /// Creates `.STEM.<16 random hex digits>.tmp` in `folder`, a new name until one is free.
  private static func createTemporary(in folder: String, stem: String, mode: mode_t)
    throws(WriteError) -> (path: String, descriptor: Int32)
  {
    for _ in 0..<64 {
      let digits = String(UInt64.random(in: .min ... .max), radix: 16)
      let random = String(repeating: "0", count: 16 - digits.count) + digits
      let path = "\(folder)/.\(stem).\(random).tmp"
      let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
      if descriptor >= 0 { return (path, descriptor) }
      guard errno == EEXIST else { break }
    }
    throw WriteError(message: "cannot create a file in \(folder): \(errorText())")
  }

  /// Removes the user's temporary files for `stem` in `folder` that a killed process left,
  /// unchanged for ``staleSeconds``; ignores what cannot be removed.
  private static func removeStaleTemporaries(in folder: String, stem: String) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    let prefix = ".\(stem)."
    let oldest = Date().timeIntervalSince1970 - staleSeconds
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      let middle = name.utf8.dropFirst(prefix.utf8.count).dropLast(4)
      let isOurs =
        middle.count == 16 && middle.allSatisfy { isHexDigit($0) }
        || (1...10).contains(middle.count) && middle.allSatisfy { (48...57).contains($0) }
      guard isOurs else { continue }
      let path = "\(folder)/\(name)"
      var status = stat()
      guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        status.st_uid == geteuid(), TimeInterval(status.st_mtim.tv_sec) < oldest
      else { continue }
      unlink(path)
    }
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (48...57).contains(byte) || (97...102).contains(byte)
  }

  /// SIGXFSZ ignored, once: a write past `ulimit -f` then fails with EFBIG, an error like any
  /// other, rather than ending the process with a temporary file left behind.
  private static let fileSizeSignalIgnored: Void = {
    signal(SIGXFSZ, SIG_IGN)
  }()

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
