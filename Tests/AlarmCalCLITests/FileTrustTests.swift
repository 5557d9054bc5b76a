import Foundation
import Testing

@testable import AlarmCalCLI

/// What alarmcal's writes do to the files around the one they write: state files behind
/// links, read-only and shared files, hard links, owners and extended attributes, leftover
/// temporary files, `ulimit -f` and long names (issue 37, items 5 to 7).
@Suite struct FileTrustTests {
  /// `Samples/alarms.json` exported into a fresh folder, with the first firing from the
  /// export's `now` (id and trigger), so a dismissal of it succeeds.
  private func exported(name: String = "alarms.ics") throws -> (
    file: String, id: String, trigger: String
  ) {
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent(name).path
    let input = samplesFolder.appendingPathComponent("alarms.json").path
    let made = try runBinary(["convert", input, "-o", file, "--now", "2026-12-04T00:00:00Z"])
    try #require(made.status == 0, "\(made.stderr)")
    let listed = try runBinary([
      "upcoming", file, "--now", "2026-12-04T00:00:00Z", "--limit", "1", "--format", "json",
      "--tz", "UTC",
    ])
    let firings = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    let id = try #require(firings.first?["id"] as? String)
    let trigger = try #require(firings.first?["trigger"] as? String)
    return (file, id, trigger)
  }

  private func contents(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
  }

  private func status(_ path: String) -> stat {
    var result = stat()
    lstat(path, &result)
    return result
  }

  /// The names in `file`'s folder that look like temporary files of it.
  private func temporaries(of file: String) throws -> [String] {
    let url = URL(fileURLWithPath: file)
    let names = try FileManager.default.contentsOfDirectory(
      atPath: url.deletingLastPathComponent().path)
    return names.filter { $0.hasSuffix(".tmp") }.sorted()
  }

  // MARK: item 5: the state file

  @Test("a state file that is a symbolic link is refused, and the file it names is untouched")
  func stateLinkRefused() throws {
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent("s.ics").path
    try Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8).write(to: URL(fileURLWithPath: file))
    let before = try contents(file)
    let link = CalDAVState.path(for: file)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "s.ics")
    var state = CalDAVState()
    state.collections["https://example.com/cal/"] = CalDAVState.Collection(syncToken: "t")
    #expect(throws: AtomicFile.WriteError.self) { try state.save(for: file) }
    do {
      try state.save(for: file)
    } catch {
      #expect(
        error.message
          == "\(link): is a symbolic link; alarmcal neither reads nor writes through it (remove it)"
      )
      #expect(error.refused)
    }
    #expect(try contents(file) == before)
    #expect(status(link).st_mode & S_IFMT == S_IFLNK)
    #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.checkState(link) }
    // Without the link, the state is written.
    try FileManager.default.removeItem(atPath: link)
    try AtomicFile.checkState(link)
    try state.save(for: file)
    #expect(try CalDAVState.load(for: file) == state)
  }

  // MARK: item 6: in-place edits

  @Test("a read-only (0444) file is not edited, even by root: exit 77, one line")
  func readOnlyRefused() throws {
    let (file, id, trigger) = try exported()
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
    let before = try contents(file)
    let result = try runBinary(["snooze", file, "--id", id, "--minutes", "5", "--now", trigger])
    #expect(result.status == 77)
    #expect(
      result.stderr
        == "alarmcal snooze: error: \(file): is read-only (mode 444); make it writable to edit it; nothing was written\n"
    )
    #expect(result.stdout.isEmpty)
    #expect(try contents(file) == before)
    #expect(status(file).st_mode & 0o7777 == 0o444)
  }

  @Test("a hard-linked file is not split: exit 77, both names keep one file")
  func hardLinkRefused() throws {
    let (file, id, trigger) = try exported()
    let other = file + ".link"
    #expect(link(file, other) == 0)
    let before = try contents(file)
    let result = try runBinary(["dismiss", file, "--id", id, "--now", trigger])
    #expect(result.status == 77)
    #expect(
      result.stderr
        == "alarmcal dismiss: error: \(file): has 2 hard links; replacing it would leave the others on the old text; nothing was written\n"
    )
    #expect(try contents(file) == before)
    #expect(status(file).st_ino == status(other).st_ino)
  }

  @Test(
    "a group member's edit of another user's file is refused, owner and group kept",
    // Another user must reach the built binary: a clone in `mktemp -d` (0700) hides it.
    .enabled(
      if: geteuid() == 0 && FileManager.default.fileExists(atPath: "/usr/bin/setpriv")
        && Self.othersCanReach(Bundle.module.bundleURL.deletingLastPathComponent())))
  func groupMemberRefused() throws {
    // Needs root to give the file away and to run as another user; CI runs the tests as root.
    let (file, id, trigger) = try exported()
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
    // daemon (uid 1) in group users (gid 100) may write the file and the folder.
    #expect(chmod(folder, 0o777) == 0)
    #expect(chown(file, 65_534, 100) == 0)
    #expect(chmod(file, 0o660) == 0)
    let before = try contents(file)
    let result = try runAs(
      ["--reuid=1", "--regid=1", "--groups=100"],
      [try alarmcalBinary().path, "dismiss", file, "--id", id, "--now", trigger])
    #expect(result.status == 77, "\(result.stderr)")
    #expect(
      result.stderr
        == "alarmcal dismiss: error: \(file): belongs to user 65534; the edited file would belong to you (edit it as its owner); nothing was written\n"
    )
    let after = status(file)
    #expect(after.st_uid == 65_534 && after.st_gid == 100)
    #expect(after.st_mode & 0o7777 == 0o660)
    #expect(try contents(file) == before)
  }

  @Test(
    "root's edit keeps owner, group, mode and extended attributes",
    .enabled(if: geteuid() == 0))
  func rootKeepsAttributes() throws {
    let (file, id, trigger) = try exported()
    #expect(chown(file, 65_534, 100) == 0)
    #expect(chmod(file, 0o660) == 0)
    let key = FileAttributeKey("NSFileExtendedAttributes")
    let extended = ["user.origin": Data("phone".utf8), "user.empty": Data()]
    try FileManager.default.setAttributes([key: extended], ofItemAtPath: file)
    let before = try contents(file)
    let result = try runBinary(["dismiss", file, "--id", id, "--now", trigger])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try contents(file) != before)
    let after = status(file)
    #expect(after.st_uid == 65_534 && after.st_gid == 100)
    #expect(after.st_mode & 0o7777 == 0o660)
    // Read apart from alarmcal and Foundation (whose reading drops empty values).
    #expect(try extendedAttributes(of: file) == "user.empty=,user.origin=phone")
    #expect(try temporaries(of: file).isEmpty)
  }

  @Test(
    "convert over another user's file keeps its owner, group, mode and extended attributes",
    .enabled(if: geteuid() == 0))
  func outputKeepsAttributes() throws {
    let (file, _, _) = try exported()
    #expect(chown(file, 65_534, 100) == 0)
    #expect(chmod(file, 0o640) == 0)
    let key = FileAttributeKey("NSFileExtendedAttributes")
    try FileManager.default.setAttributes(
      [key: ["user.origin": Data("phone".utf8)]], ofItemAtPath: file)
    let input = samplesFolder.appendingPathComponent("alarms.json").path
    let result = try runBinary(["convert", input, "-o", file, "--now", "2026-12-05T00:00:00Z"])
    #expect(result.status == 0, "\(result.stderr)")
    let after = status(file)
    #expect(after.st_uid == 65_534 && after.st_gid == 100)
    #expect(after.st_mode & 0o7777 == 0o640)
    #expect(try extendedAttributes(of: file) == "user.origin=phone")
  }

  @Test("a calendar reached by a symbolic link is edited where it is, the link kept")
  func linkedCalendarEdited() throws {
    let (file, id, trigger) = try exported()
    let link = file + ".link.ics"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
    let before = try contents(file)
    let result = try runBinary(["dismiss", link, "--id", id, "--now", trigger])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try contents(file) != before)
    #expect(status(link).st_mode & S_IFMT == S_IFLNK)
  }

  @Test("a FIFO given as the file to edit is refused at once, not opened to wait for a writer")
  func fifoRefused() throws {
    let folder = try temporaryFolder()
    let fifo = folder.appendingPathComponent("pipe.ics").path
    #expect(mkfifo(fifo, 0o644) == 0)
    let running = try RunningBinary([
      "dismiss", fifo, "--id", "00000000-0000-8000-8000-000000000000", "--now",
      "2026-12-04T00:00:00Z",
    ])
    let deadline = Date().addingTimeInterval(20)
    while running.process.isRunning && Date() < deadline { usleep(20_000) }
    guard !running.process.isRunning else {
      kill(running.process.processIdentifier, SIGKILL)
      Issue.record("dismiss of a FIFO still running after 20 s")
      return
    }
    let result = running.finish()
    #expect(result.status == 77)
    #expect(
      result.stderr
        == "alarmcal dismiss: error: \(fifo): is not a regular file; nothing was written\n")
  }

  // MARK: item 7: temporary files

  @Test("leftover temporary files of dead processes block nothing, and stale ones are removed")
  func leftoversRemoved() throws {
    let (file, id, trigger) = try exported()
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
    // Earlier versions named the file by PID: leave one for each PID the run may get.
    let last = try String(contentsOfFile: "/proc/sys/kernel/ns_last_pid", encoding: .utf8)
    let first = try #require(Int(last.trimmingCharacters(in: .whitespacesAndNewlines)))
    let old = Date().addingTimeInterval(-AtomicFile.staleSeconds - 60)
    var stale = (first + 1...first + 2_000).map { ".alarms.ics.\($0).tmp" }
    stale.append(".alarms.ics.0123456789abcdef.tmp")
    for name in stale {
      let path = "\(folder)/\(name)"
      try Data("left".utf8).write(to: URL(fileURLWithPath: path))
      try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path)
    }
    // A recent one may be another process's write in progress: it stays.
    let recent = ".alarms.ics.fedcba9876543210.tmp"
    try Data("busy".utf8).write(to: URL(fileURLWithPath: "\(folder)/\(recent)"))
    // Not ours: another program's name that only looks alike.
    let foreign = ".alarms.ics.backup.tmp"
    try Data("keep".utf8).write(to: URL(fileURLWithPath: "\(folder)/\(foreign)"))
    try FileManager.default.setAttributes(
      [.modificationDate: old], ofItemAtPath: "\(folder)/\(foreign)")
    let result = try runBinary(["dismiss", file, "--id", id, "--now", trigger])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try temporaries(of: file) == [foreign, recent].sorted())
  }

  @Test("SIGKILL during edits leaves the old or the whole new file, and later edits succeed")
  func killedEdits() throws {
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent("big.ics").path
    // One alarm in a large file, so the write window is wide and the search short.
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\n"
    text += "UID:big\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20261204T080000Z\r\nSUMMARY:Big\r\n"
    let filler = String(repeating: "x", count: 70)
    for index in 0..<80_000 { text += "X-FILLER-\(index):\(filler)\r\n" }
    text += "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Big\r\nTRIGGER:-PT5M\r\n"
    text += "END:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    let listed = try runBinary([
      "upcoming", file, "--now", "2026-12-04T00:00:00Z", "--limit", "1", "--format", "json",
    ])
    let firings = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    let id = try #require(firings.first?["id"] as? String)
    let arguments = ["dismiss", file, "--id", id, "--now", "2026-12-04T08:00:00Z"]
    let old = try contents(file)
    for delay in [0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2] {
      let process = Process()
      process.executableURL = try alarmcalBinary()
      process.arguments = arguments
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(useconds_t(delay * 1_000_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let now = try contents(file)
      if now != old {
        #expect(String(decoding: now, as: UTF8.self).contains("\r\nACKNOWLEDGED:"))
        #expect(now.count > old.count && now.count < old.count + 200, "partial at \(delay) s")
      }
      let again = try runBinary(arguments)
      #expect(again.status == 0, "after a kill at \(delay) s: \(again.stderr)")
      try old.write(to: URL(fileURLWithPath: file))
    }
    // What the kills left is removed once stale.
    let stale = Date().addingTimeInterval(-AtomicFile.staleSeconds - 60)
    for name in try temporaries(of: file) {
      try FileManager.default.setAttributes(
        [.modificationDate: stale], ofItemAtPath: folder.appendingPathComponent(name).path)
    }
    #expect(try runBinary(arguments).status == 0)
    #expect(try temporaries(of: file).isEmpty)
  }

  // ThreadSanitizer's own runtime dies under a small `ulimit -f` (DEADLYSIGNAL, its exit 66)
  // before alarmcal's code runs; the plain and AddressSanitizer runs of CI check this.
  @Test(
    "a write past ulimit -f is a one-line error, exit 74, with no file left behind",
    .disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil))
  func fileSizeLimit() throws {
    let folder = try temporaryFolder()
    let output = folder.appendingPathComponent("out.ics").path
    let input = samplesFolder.appendingPathComponent("alarms.json").path
    let process = Process()
    // Python sets the limit (4 KiB; the output is over 5 KiB) and SIGXFSZ's default action,
    // unblocked: the test runner's may be otherwise, and both are inherited.
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let launcher =
      "import os, resource, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_DFL);"
      + " signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGXFSZ]);"
      + " resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096)); os.execv(sys.argv[1], sys.argv[1:])"
    process.arguments = [
      "python3", "-c", launcher, try alarmcalBinary().path, "convert", input, "-o", output,
      "--now", "2026-12-04T00:00:00Z",
    ]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let message = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 74)
    #expect(message == "alarmcal convert: error: cannot write \(output): File too large\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test("a file whose name is 246 to 255 bytes long is written and edited", arguments: [246, 255])
  func longNames(length: Int) throws {
    let name = String(repeating: "n", count: length - 4) + ".ics"
    let (file, id, trigger) = try exported(name: name)
    let result = try runBinary(["dismiss", file, "--id", id, "--now", trigger])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try temporaries(of: file).isEmpty)
  }

  @Test("a temporary file's stem fits NAME_MAX, is the same each time, and tells names apart")
  func temporaryStems() {
    #expect(AtomicFile.temporaryStem("cal.ics") == "cal.ics")
    let long = String(repeating: "ä", count: 127) + ".ics"  // 258 bytes
    let stem = AtomicFile.temporaryStem(long)
    #expect(stem.utf8.count <= 233)
    #expect(stem == AtomicFile.temporaryStem(long))
    #expect(stem.hasPrefix("ää") && stem.dropLast(9).allSatisfy { $0 == "ä" })
    #expect(stem != AtomicFile.temporaryStem(String(repeating: "ä", count: 127) + ".ical"))
  }

  /// `name=value` of each extended attribute of `path`, sorted, as Python's `os` reads them.
  private func extendedAttributes(of path: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let script =
      "import os, sys; p = sys.argv[1]; print(','.join(n + '=' + os.getxattr(p, n).decode()"
      + " for n in sorted(os.listxattr(p))), end='')"
    process.arguments = ["python3", "-c", script, path]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text
  }

  /// Runs `command` through `setpriv` with `options` (another user and groups).
  /// Whether every folder from the root down to `folder` lets other users through.
  static func othersCanReach(_ folder: URL) -> Bool {
    var path = folder.standardizedFileURL.path
    while true {
      var info = stat()
      guard stat(path, &info) == 0, info.st_mode & 0o001 != 0 else { return false }
      guard path != "/" else { return true }
      path = (path as NSString).deletingLastPathComponent
    }
  }

  private func runAs(_ options: [String], _ command: [String]) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    process.arguments = options + command
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let outText = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return RunResult(status: process.terminationStatus, stdout: outText, stderr: errText)
  }
}
