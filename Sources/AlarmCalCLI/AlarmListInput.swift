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

  /// `bytes` unchanged when they are iCalendar; for an alarm list, its export at `now` with
  /// DTSTAMP `timestamp` (times without a zone in `zone`), its warnings (a field one edit
  /// away from a known name, ...) written to `warnings` as `convert` writes them (nil: a list
  /// read again, whose warnings were said).
  static func calendarBytes(
    _ bytes: [UInt8], file: String, zone: TimeZoneRules, now: Instant, timestamp: Instant,
    warnings: (any TextSink)?
  ) -> Result<[UInt8], Failure> {
    guard
      (ConvertCommand.Format(pathExtension: file) ?? ConvertCommand.Format(content: bytes))
        == .json
    else { return .success(bytes) }
    let name = file == "-" ? "<stdin>" : file
    let reader = AlarmFileReader(fileName: name, defaultTimeZone: zone.identifier)
    switch reader.readList(bytes) {
    case .success(let list):
      for warning in list.warnings { warnings?.write("warning: \(warning)\n") }
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
