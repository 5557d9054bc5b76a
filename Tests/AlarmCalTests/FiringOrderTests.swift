import Foundation
import ICalendar
import Testing

@testable import AlarmCal

/// `Firing.precedes` is the one definition of the order firings are listed in; the schedule
/// lists them with faster forms of it (series ranks, a heap of walks, packed keys sorted span by
/// span, each walk's heap). Generated calendars full of ties must come out exactly as sorting
/// the same firings with `Firing.precedes` puts them, however the spans fall.
@Suite struct FiringOrderTests {
  /// A small generator that gives the same numbers for the same seed (SplitMix64), so a
  /// failure names the seed that shows it.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// UIDs shared by every file, and within a file by masters and their overrides, in an
  /// order that is neither their sorted order nor the order events are written in.
  static let uids = ["m", "a", "Z", "b-2", "b-10", "é", "a b", "e", "A", "b"]

  /// `2026-12-02T08:00:00Z` moved by `minutes`, as `YYYYMMDDTHHMMSSZ`.
  static func utcText(minutesAfterEight minutes: Int) -> String {
    let base = Instant(secondsSince1970: 1_796_198_400)
    return base.adding(seconds: Int64(minutes) * 60).description
      .replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
  }

  /// One to three VALARMs on a quarter-hour grid; some repeat every quarter hour, so repeats
  /// of one alarm fall on the triggers of others, and some are copies of another (one place
  /// in the series: only their ids tell them apart).
  static func alarms(_ random: inout SeededGenerator) -> [String] {
    let triggers = ["PT0S", "-PT15M", "-PT30M", "PT15M", "-PT1H"]
    var lines: [String] = []
    var last: [String] = []
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      var alarm: [String]
      if !last.isEmpty, Int.random(in: 0..<4, using: &random) == 0 {
        alarm = last
      } else {
        alarm =
          Bool.random(using: &random)
          ? ["ACTION:AUDIO"] : ["ACTION:DISPLAY", "DESCRIPTION:d"]
        alarm.append("TRIGGER:\(triggers[Int.random(in: 0..<triggers.count, using: &random)])")
        if Int.random(in: 0..<3, using: &random) == 0 {
          alarm += ["REPEAT:\(Int.random(in: 1...3, using: &random))", "DURATION:PT15M"]
        }
      }
      lines += ["BEGIN:VALARM"] + alarm + ["END:VALARM"]
      last = alarm
    }
    return lines
  }

  /// A master of `uid` (one firing, or a rule on a quarter-hour, hourly or daily grid, or
  /// all-day days) and, for some rules, overrides moved onto other instances' times.
  static func series(_ uid: String, _ random: inout SeededGenerator) -> [String] {
    func event(_ lines: [String]) -> [String] {
      ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261201T000000Z"] + lines + alarms(&random)
        + ["END:VEVENT"]
    }
    let slot = 15 * Int.random(in: 0..<8, using: &random)
    let start = utcText(minutesAfterEight: slot)
    switch Int.random(in: 0..<5, using: &random) {
    case 0:
      return event(["DTSTART:\(start)"])
    case 1:
      let day = Int.random(in: 2...4, using: &random)
      var lines = event(["DTSTART;VALUE=DATE:2026120\(day)", "RRULE:FREQ=DAILY;COUNT=5"])
      if Bool.random(using: &random) {
        // The next day's instance moved onto this one's day.
        lines += event([
          "RECURRENCE-ID;VALUE=DATE:2026120\(day + 1)", "DTSTART;VALUE=DATE:2026120\(day)",
        ])
      }
      return lines
    default:
      let rules = [
        (15, "FREQ=MINUTELY;INTERVAL=15;COUNT=\(Int.random(in: 40...120, using: &random))"),
        (60, "FREQ=HOURLY;COUNT=\(Int.random(in: 3...20, using: &random))"),
        (1_440, "FREQ=DAILY;COUNT=\(Int.random(in: 3...10, using: &random))"),
      ]
      let (step, rule) = rules[Int.random(in: 0..<rules.count, using: &random)]
      var lines = event(["DTSTART:\(start)", "RRULE:\(rule)"])
      for _ in 0..<Int.random(in: 0...2, using: &random) {
        // Instance k moved to instance j's start: two recurrence ids at one trigger.
        let k = Int.random(in: 1...2, using: &random)
        let j = Int.random(in: 0...3, using: &random)
        lines += event([
          "RECURRENCE-ID:\(utcText(minutesAfterEight: slot + k * step))",
          "DTSTART:\(utcText(minutesAfterEight: slot + j * step))",
        ])
      }
      return lines
    }
  }

  /// Calendar files: each holds a series of most UIDs, and some a second VCALENDAR with
  /// instances of those UIDs read without their series (one UID as several series).
  static func files(seed: UInt64) -> [String] {
    var random = SeededGenerator(state: seed)
    return (0..<4).map { _ in
      var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//alarmcal//order//EN"]
      for uid in uids.shuffled(using: &random).dropLast() { lines += series(uid, &random) }
      lines.append("END:VCALENDAR")
      if Bool.random(using: &random) {
        lines += ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//alarmcal//order-two//EN"]
        for uid in uids.shuffled(using: &random).prefix(3) {
          let minutes = 15 * Int.random(in: 0..<8, using: &random)
          lines += ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261201T000000Z"]
          lines += ["RECURRENCE-ID:\(utcText(minutesAfterEight: 60 * 24 * 30 + minutes))"]
          lines += ["DTSTART:\(utcText(minutesAfterEight: minutes))"] + alarms(&random)
          lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
      }
      return lines.joined(separator: "\r\n") + "\r\n"
    }
  }

  /// The schedule of the files generated from `seed`.
  static func schedule(seed: UInt64) throws -> FiringSchedule {
    var schedule = FiringSchedule(defaultZone: .utc)
    for (index, text) in files(seed: seed).enumerated() {
      try schedule.read(Array(text.utf8), file: "order-\(index).ics")
    }
    return schedule
  }

  /// Every firing of the generated files from 1 to 20 December 2026, with spans meant to
  /// hold `sliceFirings` firings (nil: the schedule's own).
  static func listing(seed: UInt64, sliceFirings: Int?) throws -> [Firing] {
    var schedule = try schedule(seed: seed)
    if let sliceFirings { schedule.sliceFirings = sliceFirings }
    var window = schedule.firings(
      from: try instant("20261201T000000Z"), to: try instant("20261220T000000Z"), limit: nil)
    var firings: [Firing] = []
    while let firing = window.next() { firings.append(firing) }
    return firings
  }

  /// Whether neither firing is listed before the other: they may stand in either's place.
  static func tie(_ a: Firing, _ b: Firing) -> Bool {
    !Firing.precedes(a, b) && !Firing.precedes(b, a)
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64], [1, 7, 40, nil] as [Int?])
  func theScheduleListsFiringsAsPrecedesSortsThem(seed: UInt64, sliceFirings: Int?) throws {
    let listed = try Self.listing(seed: seed, sliceFirings: sliceFirings)
    // Spans take at most twice `sliceFirings` firings past their start's: many spans.
    #expect(listed.count > 1_000)
    let sorted = listed.sorted(by: Firing.precedes)
    let misplaced = listed.indices.first { !Self.tie(listed[$0], sorted[$0]) }
    #expect(
      misplaced == nil,
      "seed \(seed), slices of \(sliceFirings ?? 0): firing \(misplaced ?? 0) of \(listed.count)")
    // The same firings whatever the spans: each is listed once.
    let ids = Set(listed.map { "\($0.file) \($0.id)" })
    #expect(ids.count == listed.count)
    if sliceFirings == 1 {
      let whole = try Self.listing(seed: seed, sliceFirings: nil)
      let same = Set(whole.map { "\($0.file) \($0.id)" }) == ids
      #expect(same, "seed \(seed): other firings than with the schedule's own spans")
    }
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
  func theGeneratedFiringsTieAtEveryLevel(seed: UInt64) throws {
    // What the order test leans on: at one trigger, firings of several files, of several UIDs
    // of one file, of one UID in several files, of several instances of one series, of
    // several repeats of one instance, and of copies of one alarm (only their ids differ).
    let listed = try Self.listing(seed: seed, sliceFirings: nil)
    let byTrigger = Dictionary(grouping: listed, by: \.trigger).values
    func some(_ same: (Firing, Firing) -> Bool) -> Bool {
      byTrigger.contains { group in
        group.contains { a in group.contains { b in same(a, b) } }
      }
    }
    #expect(some { $0.fileIndex != $1.fileIndex && $0.uid == $1.uid })
    #expect(some { $0.fileIndex == $1.fileIndex && $0.uid != $1.uid })
    #expect(
      some {
        $0.fileIndex == $1.fileIndex && $0.uid == $1.uid && $0.recurrenceID != $1.recurrenceID
      })
    #expect(
      some {
        $0.fileIndex == $1.fileIndex && $0.uid == $1.uid && $0.recurrenceID == $1.recurrenceID
          && $0.repeatIndex != $1.repeatIndex
      })
    #expect(
      some {
        $0.trigger == $1.trigger && $0.recurrenceID == $1.recurrenceID
          && $0.repeatIndex == $1.repeatIndex && $0.fileIndex == $1.fileIndex && $0.uid == $1.uid
          && $0.id != $1.id
      })
    #expect(listed.contains { if case .date = $0.recurrenceID { true } else { false } })
    // One UID of one file read as several series: more series than files and UIDs.
    let origins = Set(listed.map { "\($0.fileIndex) \($0.uid)" })
    #expect(try Self.schedule(seed: seed).seriesCount > origins.count)
  }
}
