import AlarmCal
import Foundation
import ICalendar
import Testing

@Suite struct RoundTripTests {
  private static let now = Instant(secondsSince1970: 1_796_198_400)  // 2026-12-02T08:00:00Z

  private func exportAndImport(_ alarms: [Alarm], now: Instant = RoundTripTests.now) throws
    -> ImportResult
  {
    let text = try AlarmExporter(now: now, timestamp: now).text(alarms)
    return try AlarmImporter(fileName: "round-trip.ics", defaultTimeZone: "UTC", now: now)
      .importAlarms(fromText: text)
  }

  @Test(
    "every sample alarm list survives alarms → .ics → alarms unchanged",
    arguments: ["alarms.json", "ios-alarms.json"])
  func samples(name: String) throws {
    let bytes = try [UInt8](Data(contentsOf: samplesFolder.appendingPathComponent(name)))
    let alarms = try AlarmFileReader(fileName: name, defaultTimeZone: "Europe/Paris").read(bytes)
      .get()
    let back = try exportAndImport(alarms)
    #expect(back.losses.isEmpty)
    #expect(back.alarms == alarms)
  }

  /// Thousands of alarms: every weekday subset, times in DST gaps and overlaps, zones with odd
  /// offsets and half-hour DST, labels with unicode, escapes, newlines and great length.
  static func generatedAlarms() -> [Alarm] {
    let zones = [
      "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata",
      "Pacific/Chatham", "America/Sao_Paulo", "UTC", "Africa/Casablanca", "America/St_Johns",
      "Asia/Tokyo",
    ]
    let labels = [
      "Wake up", "Café ☕ Frühstück", "a,b;c\\d", "two\nlines", "日本語のラベル 🕰️", "",
      String(repeating: "long label with many words ", count: 12) + "end", "emoji 👩‍👩‍👧‍👦 family",
      "quote \" and colon: here", "Tab\tinside",
    ]
    let times = [(2, 30), (1, 30), (0, 0), (23, 59), (7, 5), (12, 0), (3, 0), (2, 0)]
    let sounds: [String?] = [nil, "Radar", "Slow Rise", "sound-with:colon"]
    var alarms: [Alarm] = []
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    for mask in 0..<128 {
      for variant in 0..<24 {
        let days = Set(Weekday.allCases.filter { mask & (1 << ($0.rawValue - 1)) != 0 })
        let (hour, minute) = times[next(times.count)]
        let time = LocalTime(secondsSinceMidnight: hour * 3600 + minute * 60)
        let schedule: Alarm.Schedule
        if variant == 23 {
          let date = LocalDate(daysSince1970: 20_000 + next(1000))
          schedule = .at(LocalDateTime(date, time))
        } else {
          schedule = .time(time, repeat: days)
        }
        alarms.append(
          Alarm(
            id: "gen-\(mask)-\(variant)", schedule: schedule, label: labels[next(labels.count)],
            sound: sounds[next(sounds.count)], snooze: next(2) == 0,
            snoozeMinutes: 1 + next(60), enabled: next(4) != 0, timeZone: zones[next(zones.count)]))
      }
    }
    return alarms
  }

  @Test(
    "a generated set of 3,072 alarms survives the round trip at moments around DST changes",
    arguments: ["20270313T120000Z", "20270328T005959Z", "20271107T053000Z", "20261202T080000Z"])
  func generated(now: String) throws {
    let alarms = Self.generatedAlarms()
    #expect(alarms.count == 3072)
    let moment = try instant(now)
    let back = try exportAndImport(alarms, now: moment)
    #expect(back.losses.isEmpty)
    #expect(back.alarms.count == alarms.count)
    // A one-shot whose ring is before now has rung: it comes back switched off.
    let expected = alarms.map { alarm in
      var rang = alarm
      if case .at(let local) = alarm.schedule,
        let zone = TimeZoneRules(identifier: alarm.timeZone), zone.instant(for: local) < moment
      {
        rang.enabled = false
      }
      return rang
    }
    #expect(expected.filter { !$0.enabled }.count > alarms.filter { !$0.enabled }.count)
    for (original, imported) in zip(expected, back.alarms) where original != imported {
      Issue.record("\(original.id) changed: \(original) → \(imported)")
    }
  }

  @Test(
    ".ics → alarms → .ics keeps the ring time of every alarm kept, over two years",
    arguments: [
      "apple-calendar.ics", "google-calendar.ics", "outlook.ics", "thunderbird.ics",
      "nextcloud.ics",
    ])
  func ringTimesKept(name: String) throws {
    let compared = try checkRingTimes(
      try String(contentsOf: samplesFolder.appendingPathComponent(name), encoding: .utf8),
      name: name)
    // Every sample holds alarms that import keeps without a loss: comparing none proves nothing.
    #expect(compared >= 1, "\(name): no alarm was compared")
  }

  @Test("the alarm file's bytes are what the JSON writer prints for its JSON value")
  func fileBytesMatchJSONValue() {
    var alarms = Self.generatedAlarms()
    let withSeconds = LocalTime(secondsSinceMidnight: 7 * 3600 + 30 * 60 + 15)
    alarms.append(Alarm(id: "s1", schedule: .time(withSeconds, repeat: [.sunday]), timeZone: "UTC"))
    alarms.append(
      Alarm(
        id: "s2", schedule: .at(LocalDateTime(LocalDate(daysSince1970: 0), withSeconds)),
        snoozeMinutes: 100, timeZone: "UTC"))
    for list in [alarms, []] {
      var expected = JSONWriter(style: .pretty).string(from: AlarmFileWriter.json(list))
      expected += "\n"
      #expect(String(decoding: AlarmFileWriter.bytes(list), as: UTF8.self) == expected)
    }
  }

  @Test(".ics → alarms → .ics keeps the ring times of the import test cases")
  func ringTimesKeptForImportCases() throws {
    let compared = try checkRingTimes(try fixtureText("import-cases.ics"), name: "import-cases.ics")
    // weekly, daily, workdays, tuesdays, absolute and task: every item kept without a loss.
    #expect(compared == 6)
  }

  /// Every ring in `from..<to` by UID, instance by instance, from the scheduler: a separate
  /// path from the import mapping (which moves one first instance's ring to a time of day), and
  /// one that CI cross-checks against recurring-ical-events.
  private func ringsByUID(_ text: String, zone: String, from: Instant, to: Instant) throws
    -> [String: Set<Instant>]
  {
    let schedule = try FiringSchedule.reading(
      text, name: "rings.ics", zone: try #require(TimeZoneRules(identifier: zone)),
      includeAcknowledged: true)
    var rings: [String: Set<Instant>] = [:]
    for firing in schedule.firings(from: from, to: to, limit: nil) {
      rings[firing.uid, default: []].insert(firing.trigger)
    }
    return rings
  }

  /// Compares ring instants before and after the round trip; returns how many alarms it compared.
  private func checkRingTimes(_ text: String, name: String) throws -> Int {
    let from = Self.now
    let to = from.adding(seconds: 2 * 366 * 86_400)
    let zone = "Europe/Berlin"
    let imported = try AlarmImporter(fileName: name, defaultTimeZone: zone, now: testNow)
      .importAlarms(fromText: text)
    // A start date is the one loss that leaves every later ring in place: such alarms are
    // compared from their first ring on; alarms with any other loss are not compared.
    let startsLater = Set(
      imported.losses.filter { $0.reason.hasPrefix("the series starts on ") }.map(\.uid))
    let lossy = Set(
      imported.losses.filter { !$0.reason.hasPrefix("the series starts on ") }.map(\.uid))
    let exported = try AlarmExporter(now: from, timestamp: from).text(
      imported.alarms, tasks: imported.tasks)
    let original = try ringsByUID(text, zone: zone, from: from, to: to)
    let again = try ringsByUID(exported, zone: zone, from: from, to: to)
    // An item's rings come back from its alarms (`UID`, `UID#n`) and its task (`UID`).
    var idsByItem: [String: [String]] = [:]
    for id in imported.alarms.map(\.id) + imported.tasks.map(\.id) {
      idsByItem[String(id.split(separator: "#").first ?? ""), default: []].append(id)
    }
    var compared = 0
    for (uid, ids) in idsByItem.sorted(by: { $0.key < $1.key }) {
      guard !lossy.contains(uid) else { continue }
      var roundTripped = ids.reduce(into: Set<Instant>()) { $0.formUnion(again[$1] ?? []) }
      let expected = original[uid] ?? []
      if startsLater.contains(uid), let first = expected.min() {
        roundTripped = roundTripped.filter { $0 >= first }
      }
      let onlyBefore = expected.subtracting(roundTripped).sorted().prefix(3)
      let onlyAfter = roundTripped.subtracting(expected).sorted().prefix(3)
      #expect(
        onlyBefore.isEmpty && onlyAfter.isEmpty,
        "\(name): \(uid): \(expected.count) rings before, \(roundTripped.count) after; only before: \(Array(onlyBefore)); only after: \(Array(onlyAfter))"
      )
      compared += 1
    }
    return compared
  }
}
