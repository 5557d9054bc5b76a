import AlarmCal
import Foundation
import ICalendar
import LibicalReference
import Testing

/// The library used from many concurrent tasks gives the same results as used from one: parsing,
/// the scheduler, import, validation and export (libical's built-in time zones, loaded lazily,
/// behind `VTimezoneLibrary`'s lock). Run under `scripts/sanitize thread` in CI.
@Suite struct ConcurrencyTests {
  /// Every .ics fixture of this target and every sample calendar.
  static func calendars() throws -> [(name: String, text: String)] {
    let fixtures = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    var urls: [URL] = []
    for folder in [fixtures, samplesFolder] {
      let found = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
      while let url = found?.nextObject() as? URL {
        if url.pathExtension == "ics" { urls.append(url) }
      }
    }
    // Decoded with replacement: a fixture that is not UTF-8 still makes a calendar to compare.
    return try urls.sorted { $0.path < $1.path }.map {
      ($0.lastPathComponent, String(decoding: try Data(contentsOf: $0), as: UTF8.self))
    }
  }

  /// Everything one task computes from one calendar, as text to compare.
  static func work(name: String, text: String, zone: String) -> String {
    var result: [String] = []
    guard let rules = TimeZoneRules(identifier: zone) else { return "unknown zone \(zone)" }
    do {
      let components = try ICalendarReader.read(Array(text.utf8))
      let schedule = try FiringSchedule.reading(text, name: name, zone: rules)
      result += schedule.warnings.map(\.description)
      let window = schedule.firings(
        from: testNow, to: testNow.adding(seconds: 3 * 86_400), limit: 64)
      result += window.map { "\($0)" }
      result += components.map(ICalendarPrinter.print)
    } catch {
      result.append("\(error)")
    }
    do {
      let imported = try AlarmImporter(fileName: name, defaultTimeZone: zone, now: testNow)
        .importAlarms(fromText: text)
      result += imported.losses.map { "\($0)" }
      result.append(
        (try? AlarmExporter(now: testNow, timestamp: testNow).text(imported.alarms))
          ?? "no export")
    } catch {
      result.append("\(error)")
    }
    result += Validator.validate(Array(text.utf8), file: name, now: testNow).map(\.description)
    return result.joined(separator: "\n")
  }

  static let zones = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"]

  @Test("parse, schedule, import, export and validate from 64 tasks give the sequential results")
  func manyTasks() async throws {
    let calendars = try Self.calendars()
    try #require(!calendars.isEmpty)
    var expected: [String] = []
    for (index, calendar) in calendars.enumerated() {
      expected.append(
        Self.work(
          name: calendar.name, text: calendar.text, zone: Self.zones[index % Self.zones.count]))
    }
    let rounds = 64
    let results = await withTaskGroup(of: (Int, String).self) { group in
      for task in 0..<rounds {
        group.addTask {
          // Each task starts at a different calendar, so different code runs side by side.
          let index = (task * 7) % calendars.count
          let calendar = calendars[index]
          return (
            index,
            Self.work(
              name: calendar.name, text: calendar.text,
              zone: Self.zones[index % Self.zones.count])
          )
        }
      }
      var collected: [(Int, String)] = []
      for await result in group { collected.append(result) }
      return collected
    }
    #expect(results.count == rounds)
    for (index, text) in results {
      #expect(text == expected[index], "\(calendars[index].name) differs when run concurrently")
    }
  }

  @Test("VTIMEZONEs of many zones loaded at once, from 8 threads, match those loaded one by one")
  func builtinZonesAtOnce() throws {
    // Zones no other test uses, so libical loads each one for the first time here, concurrently.
    // Threads, not tasks: the cooperative pool has only as many threads as the machine has cores,
    // and libical's zone loading crashes only with several threads in it at once.
    let identifiers = [
      "Africa/Abidjan", "Africa/Cairo", "Africa/Casablanca", "America/Anchorage",
      "America/Bogota", "America/Halifax", "America/Havana", "America/Santiago",
      "America/Sao_Paulo", "America/St_Johns", "Asia/Amman", "Asia/Beirut", "Asia/Dhaka",
      "Asia/Gaza", "Asia/Jerusalem", "Asia/Kathmandu", "Asia/Tehran", "Asia/Yangon",
      "Atlantic/Azores", "Australia/Adelaide", "Australia/Hobart", "Europe/Chisinau",
      "Europe/Dublin", "Europe/Lisbon", "Pacific/Auckland", "Pacific/Chatham",
      "Pacific/Norfolk", "Pacific/Apia",
    ]
    let start = try local("20261202T080000")
    let results = Results()
    var threads: [Thread] = []
    for thread in 0..<8 {
      threads.append(
        Thread {
          // All threads start together, so they meet inside libical's zone loading.
          results.arrive()
          while results.arrivedCount < 8 {}
          for offset in 0..<identifiers.count {
            let identifier = identifiers[(offset + thread * 5) % identifiers.count]
            let zone = VTimezoneLibrary.vtimezone(for: identifier, from: start)
            results.append((identifier, zone.map(ICalendarPrinter.print)))
          }
          results.finished()
        })
    }
    for thread in threads { thread.start() }
    while results.finishedCount < threads.count { usleep(1_000) }
    let concurrent = results.all
    #expect(concurrent.count == 8 * identifiers.count)
    for (identifier, text) in concurrent {
      let sequential = VTimezoneLibrary.vtimezone(for: identifier, from: start)
      #expect(sequential != nil, "libical knows no \(identifier)")
      #expect(text == sequential.map(ICalendarPrinter.print))
    }
  }
}

/// What the threads found, behind a lock.
private final class Results: @unchecked Sendable {
  // @unchecked: every access holds `lock`.
  private let lock = NSLock()
  private var items: [(String, String?)] = []
  private var done = 0
  private var arrived = 0

  func arrive() {
    lock.lock()
    defer { lock.unlock() }
    arrived += 1
  }

  var arrivedCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return arrived
  }

  func append(_ item: (String, String?)) {
    lock.lock()
    defer { lock.unlock() }
    items.append(item)
  }

  func finished() {
    lock.lock()
    defer { lock.unlock() }
    done += 1
  }

  var finishedCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return done
  }

  var all: [(String, String?)] {
    lock.lock()
    defer { lock.unlock() }
    return items
  }
}
