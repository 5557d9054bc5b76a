import Foundation
import ICalendar
import LibicalReference
import Testing

@Suite struct VTimezoneTests {
  private func customEastern() throws -> VTimezoneRules {
    let url = try #require(
      Bundle.module.url(
        forResource: "custom-eastern", withExtension: "ics", subdirectory: "Fixtures"))
    let calendar = try #require(
      try LibicalReader.parse(String(contentsOf: url, encoding: .utf8)).first)
    let component = try #require(calendar.components(named: "VTIMEZONE").first)
    return try #require(VTimezoneRules(component))
  }

  private func instant(_ text: String) throws -> Instant {
    guard case .utc(let utc)? = DateTimeValue(text: text) else { throw CocoaError(.formatting) }
    return Instant(utc: utc)
  }

  @Test("an Outlook-style custom VTIMEZONE gives the offsets its observances define")
  func offsets() throws {
    let rules = try customEastern()
    #expect(rules.tzid == "Customized Time Zone")
    #expect(rules.offset(at: try instant("20270101T120000Z")) == -18_000)
    #expect(rules.offset(at: try instant("20270701T120000Z")) == -14_400)
    // 2027-03-14 02:00 EST is 07:00Z; 2027-11-07 02:00 EDT is 06:00Z.
    #expect(rules.offset(at: try instant("20270314T065959Z")) == -18_000)
    #expect(rules.offset(at: try instant("20270314T070000Z")) == -14_400)
    #expect(rules.offset(at: try instant("20271107T055959Z")) == -14_400)
    #expect(rules.offset(at: try instant("20271107T060000Z")) == -18_000)
  }

  @Test("local times in a VTIMEZONE resolve per RFC 5545 §3.3.5, as in an IANA zone")
  func rfcResolution() throws {
    let rules = try customEastern()
    let gap = try #require(DateTimeValue(text: "20070311T023000")).local
    let overlap = try #require(DateTimeValue(text: "20071104T013000")).local
    #expect(rules.instant(for: gap).description == "2007-03-11T07:30:00Z")
    #expect(rules.instant(for: overlap).description == "2007-11-04T05:30:00Z")
  }

  @Test("the one-search resolution gives what the offsets give, around every change and between")
  func fastResolution() throws {
    let rules = try customEastern()
    var readings: [LocalDateTime] = []
    for (instant, _) in rules.transitions.prefix(200) {
      // Every quarter hour from a day and a half before a change to a day and a half after.
      let local = instant.utc
      for quarter in -144...144 { readings.append(local.adding(seconds: Int64(quarter) * 900)) }
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<5_000 {
      let seconds = Int64.random(in: -2_000_000_000...7_000_000_000, using: &generator)
      readings.append(LocalDateTime(secondsSince1970: seconds))
    }
    let differing = readings.filter { rules.instant(for: $0) != rules.instantFromOffsets(for: $0) }
    #expect(differing.isEmpty)
    #expect(readings.count > 50_000)
  }

  @Test("a custom VTIMEZONE matches the IANA zone with the same offsets, the preferred one first")
  func matcher() throws {
    let rules = try customEastern()
    let from = try instant("20261201T000000Z")
    let to = try instant("20281201T000000Z")
    let preferred = VTimezoneMatcher.ianaIdentifier(
      for: rules, preferring: ["America/Toronto"], from: from, to: to)
    #expect(preferred == "America/Toronto")
    let any = try #require(
      VTimezoneMatcher.ianaIdentifier(for: rules, preferring: ["Europe/Berlin"], from: from, to: to)
    )
    let match = try #require(TimeZoneRules(identifier: any))
    #expect(match.offset(at: try instant("20270701T120000Z")) == -14_400)
    #expect(match.offset(at: try instant("20270101T120000Z")) == -18_000)
  }
}
