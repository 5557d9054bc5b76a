import AlarmCalCLI
import Foundation
import Testing

/// The result of one run: exit status and both streams.
struct RunResult {
  let status: Int32
  let stdout: String
  let stderr: String
}

/// A fixture's path, failing with the path when missing.
func fixturePath(_ name: String) throws -> String {
  try #require(
    Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
    "missing fixture Fixtures/\(name)"
  ).path
}

/// The package's Samples folder.
let samplesFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Samples")

/// The folder that holds this test process's folders, removed when the process exits.
private let testFoldersRoot: URL = {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("alarmcal-tests-\(UUID().uuidString)")
  atexit { try? FileManager.default.removeItem(at: testFoldersRoot) }
  return url
}()

/// A fresh empty folder for one test's files, removed with the others when the tests end.
func temporaryFolder() throws -> URL {
  let url = testFoldersRoot.appendingPathComponent(UUID().uuidString)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Runs the tool in process with captured streams, a fixed clock and the given stdin.
func runInProcess(
  _ arguments: [String], stdin: String = "", environment: [String: String] = [:]
) -> RunResult {
  let out = CapturedText()
  let err = CapturedText()
  let input = Array(stdin.utf8)
  let context = ToolContext(
    standardOutput: out, standardError: err, readStandardInput: { Array(input.prefix($0)) },
    environment: environment, clock: { Date(timeIntervalSince1970: 1_796_198_400) })
  let status = Tool.run(arguments: arguments, context: context)
  return RunResult(status: status.rawValue, stdout: out.text, stderr: err.text)
}

/// The built `alarmcal` executable (the test target depends on it, so it is built first).
func alarmcalBinary() throws -> URL {
  var folder = Bundle.module.bundleURL.deletingLastPathComponent()
  for _ in 0..<4 {
    let candidate = folder.appendingPathComponent("alarmcal")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    folder.deleteLastPathComponent()
  }
  Issue.record("no alarmcal executable near \(Bundle.module.bundleURL.path)")
  throw CocoaError(.fileNoSuchFile)
}

/// Runs the real binary as a separate process.
func runBinary(
  _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]
) throws -> RunResult {
  try RunningBinary(arguments, stdin: stdin, environment: environment).finish()
}

/// The built binary (or `executable`), started: its standard error is read from the start on
/// a thread of its own, so neither pipe can fill up and block it while the test does something
/// else.
final class RunningBinary {
  let process = Process()
  private let out = Pipe()
  private let errData = LockedData()

  init(
    _ arguments: [String], executable: URL? = nil, stdin: String? = nil,
    environment: [String: String] = [:]
  ) throws {
    process.executableURL = try executable ?? alarmcalBinary()
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env.removeValue(forKey: "SOURCE_DATE_EPOCH")
    env.merge(environment) { $1 }
    process.environment = env
    let err = Pipe()
    let inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inPipe
    try process.run()
    let errData = errData
    Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }.start()
    if let stdin { inPipe.fileHandleForWriting.write(Data(stdin.utf8)) }
    try inPipe.fileHandleForWriting.close()
  }

  /// Reads standard output to its end, waits for the exit, and gives what it wrote.
  func finish() -> RunResult {
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errData.isSet { usleep(1000) }
    return RunResult(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData.value, as: UTF8.self))
  }
}

/// Data handed from a reader thread.
final class LockedData: @unchecked Sendable {
  // @unchecked: every access holds `lock`.
  private let lock = NSLock()
  private var data: Data?

  func set(_ value: Data) {
    lock.lock()
    data = value
    lock.unlock()
  }

  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return data != nil
  }

  var value: Data {
    lock.lock()
    defer { lock.unlock() }
    return data ?? Data()
  }
}

/// The firings `upcoming FILE` lists from `now` on the wall clock of `zone`, as JSON objects.
func upcomingFirings(_ file: String, now: String, limit: Int, zone: String) throws
  -> [[String: Any]]
{
  let result = try runBinary([
    "upcoming", file, "--now", now, "--limit", "\(limit)", "--format", "json", "--tz", zone,
  ])
  #expect(result.status == 0, "\(result.stderr)")
  return try #require(
    try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
}

/// The ids of `firings`, in order.
func firingIDs(_ firings: [[String: Any]]) -> [String] {
  firings.compactMap { $0["id"] as? String }
}

/// The text of the file at `path`.
func fileText(_ path: String) throws -> String {
  try String(decoding: Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
}
