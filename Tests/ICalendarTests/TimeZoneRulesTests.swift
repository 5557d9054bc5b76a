import Foundation
import ICalendar
import Testing

@Suite struct TimeZoneRulesTests {
  private func local(_ text: String) throws -> LocalDateTime {
    try #require(DateTimeValue(text: text)).local
  }

  @Test(
    "RFC 5545 §3.3.5: local times resolve as the RFC's New York examples say",
    arguments: [
      ("20070311T013000", "2007-03-11T06:30:00Z"),  // before the gap: EST
      ("20070311T023000", "2007-03-11T07:30:00Z"),  // in the gap: offset from before, 03:30 EDT
      ("20070311T033000", "2007-03-11T07:30:00Z"),  // after the gap: EDT
      ("20071104T013000", "2007-11-04T05:30:00Z"),  // twice: the first (EDT)
      ("20071104T023000", "2007-11-04T07:30:00Z"),  // after the overlap: EST
      ("20070101T120000", "2007-01-01T17:00:00Z"),
    ])
  func newYork(text: String, utc: String) throws {
    let rules = try #require(TimeZoneRules(identifier: "America/New_York"))
    #expect(rules.instant(for: try local(text)).description == utc)
  }

  @Test("instants read back as the wall clock in the zone")
  func localAtInstant() throws {
    let rules = try #require(TimeZoneRules(identifier: "Europe/Berlin"))
    let instant = Instant(utc: try local("20260701T050000"))
    #expect(rules.local(at: instant) == (try local("20260701T070000")))
    #expect(rules.offset(at: instant) == 7200)
  }

  @Test(
    "TZIDs from real files name IANA zones",
    arguments: [
      ("Europe/Berlin", "Europe/Berlin"),
      ("/freeassociation.sourceforge.net/Europe/Berlin", "Europe/Berlin"),
      ("/mozilla.org/20050126_1/America/New_York", "America/New_York"),
      ("W. Europe Standard Time", "Europe/Berlin"),
      ("UTC", "UTC"),
    ])
  func tzidNames(tzid: String, iana: String) {
    #expect(TimeZoneNames.ianaIdentifier(forTZID: tzid) == iana)
  }

  @Test("an unknown TZID names no zone")
  func unknownTZID() {
    #expect(TimeZoneNames.ianaIdentifier(forTZID: "Mars/Olympus_Mons") == nil)
    #expect(TimeZoneRules(identifier: "Mars/Olympus_Mons") == nil)
  }

  @Test("libical's VTIMEZONE comes back with a plain IANA TZID and parses again")
  func vtimezone() throws {
    let start = try local("20261201T000000")
    let zone = try #require(VTimezoneLibrary.vtimezone(for: "America/New_York", from: start))
    #expect(zone.property("TZID")?.value == "America/New_York")
    #expect(zone.components.contains { $0.name == "DAYLIGHT" })
    let text = ICalendarPrinter.print(zone)
    #expect(!text.contains("freeassociation"))
  }

  @Test("zones without DST get a one-observance VTIMEZONE")
  func fixedOffsetZone() throws {
    let start = try local("20261201T000000")
    let zone = try #require(VTimezoneLibrary.vtimezone(for: "UTC", from: start))
    #expect(zone.property("TZID")?.value == "UTC")
    #expect(zone.components.map(\.name) == ["STANDARD"])
    #expect(zone.components.first?.property("TZOFFSETTO")?.value == "+0000")
  }
}

@Suite struct TransitionTableTests {
  @Test(
    "the cached offsets equal Foundation's at every hour around every change, for varied zones",
    arguments: [
      "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Apia",
      "America/Sao_Paulo", "Africa/Casablanca", "Europe/Moscow", "Asia/Tehran", "UTC",
    ])
  func matchesFoundation(identifier: String) throws {
    let rules = try #require(TimeZoneRules(identifier: identifier))
    let zone = try #require(TimeZone(identifier: identifier))
    // Seconds either side of each of Foundation's own transitions, and a daily grid, 1970-2040.
    var probes: [Int64] = []
    var cursor = Date(timeIntervalSince1970: 0)
    while let next = zone.nextDaylightSavingTimeTransition(after: cursor),
      next.timeIntervalSince1970 < 2_208_988_800
    {
      let t = Int64(next.timeIntervalSince1970.rounded())
      probes += [t - 1, t, t + 1]
      cursor = next
    }
    probes += stride(from: Int64(0), to: 2_208_988_800, by: 86_400)
    var mismatches = 0
    for probe in probes {
      let expected = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(probe)))
      if rules.offset(at: Instant(secondsSince1970: probe)) != expected { mismatches += 1 }
    }
    #expect(probes.count > 25_000)
    #expect(mismatches == 0)
  }
}
