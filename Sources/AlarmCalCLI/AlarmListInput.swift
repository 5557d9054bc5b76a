import AlarmCal
import Foundation
import ICalendar

/// An input file that may be an alarm list (JSON): `upcoming` and `push` take it as the
/// calendar `convert` would export at `--now`.
enum AlarmListInput {
  /// The lines that say why a list could not be exported, each ready to print.
  struct Failure: Error {
    let lines: [String]
  }

  /// The calendar text of one input of `upcoming`, `plan` or `push`: `file` read (at most
  /// `maximumBytes`), an alarm list exported at `now` as `convert` would export it, and checked
  /// to be UTF-8; else a failure that says why, one line each: missing input (66) or unusable
  /// data (65).
  /// `timestamp` is the export's DTSTAMP (default: `now`).
  static func calendar(
    of file: String, maximumBytes: Int, zone: TimeZoneRules, now: Instant,
    timestamp: Instant? = nil, context: ToolContext
  ) throws(CommandFailure) -> [UInt8] {
    let bytes: [UInt8]
    do {
      bytes = try InputFile.read(file, maximumBytes: maximumBytes, context: context)
    } catch {
      throw CommandFailure(.noInput, error.message)
    }
    let calendar: [UInt8]
    switch calendarBytes(
      bytes, file: file, zone: zone, now: now, timestamp: timestamp ?? now,
      warnings: context.report)
    {
    case .success(let exported): calendar = exported
    case .failure(let failure): throw CommandFailure(.badData, lines: failure.lines)
    }
    if let problem = InputFile.notUTF8Message(calendar, name: InputFile.displayName(file)) {
      throw CommandFailure(.badData, problem)
    }
    return calendar
  }

  /// Whether `bytes`, read from `file`, are an alarm list (JSON): by the file's extension, or
  /// with no telling one, by its content.
  static func isList(_ bytes: [UInt8], file: String) -> Bool {
    (ConvertCommand.Format(pathExtension: file) ?? ConvertCommand.Format(content: bytes)) == .json
  }

  /// `bytes` unchanged when they are iCalendar; for an alarm list, its export at `now` with
  /// DTSTAMP `timestamp` (times without a zone in `zone`), its warnings (a field one edit
  /// away from a known name, ...) written to `warnings` as `convert` writes them (nil: a list
  /// read again, whose warnings were said).
  static func calendarBytes(
    _ bytes: [UInt8], file: String, zone: TimeZoneRules, now: Instant, timestamp: Instant,
    warnings: Report?
  ) -> Result<[UInt8], Failure> {
    guard isList(bytes, file: file) else { return .success(bytes) }
    let name = InputFile.displayName(file)
    let reader = AlarmFileReader(fileName: name, defaultTimeZone: zone.identifier)
    switch reader.readList(bytes) {
    case .success(let list):
      for warning in list.warnings { warnings?.warning("\(warning)") }
      do {
        return .success(
          try AlarmExporter(now: now, timestamp: timestamp).bytes(list.alarms, tasks: list.tasks))
      } catch {
        return .failure(Failure(lines: ["\(name): \(error)"]))
      }
    case .failure(let failure):
      return .failure(Failure(lines: failure.problems.map { "\($0)" }))
    }
  }
}
