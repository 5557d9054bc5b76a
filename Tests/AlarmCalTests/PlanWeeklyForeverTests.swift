import AlarmCal
import ICalendar
import Testing

/// When `PlanCompiler` calls a plan valid for ever: every series rings, as the scheduler reads
/// it, the same weekly pattern on the plan zone's wall clock without end.
@Suite struct PlanWeeklyForeverTests {
  /// The horizon's end: 732 days after ``PlanTests/now``, 2028-12-08T08:00:00Z.
  static let horizonEnd = PlanTests.now.adding(seconds: 732 * 86_400)

  /// The weekdays of the repeating requests of `plan`.
  static func days(_ plan: NotificationPlan) -> Set<Weekday> {
    Set(
      PlanTests.repeating(plan).compactMap { request -> Weekday? in
        if case .weekly(let day, _) = request.trigger { day } else { nil }
      })
  }

  static let weekdays: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday]

  @Test func aThunderbirdAcknowledgementAfterTheHorizonLeavesNothingForEver() throws {
    // X-MOZ-LASTACK on the item covers every firing up to 2030-01-01: none in the horizon
    // rings, but the Mondays from 2030-01-07 on do, so the app must plan again.
    let event = PlanTests.event(
      "acked",
      [
        "X-MOZ-LASTACK:20300101T000000Z", "DTSTART;TZID=Europe/Berlin:20261130T070000",
        "RRULE:FREQ=WEEKLY;BYDAY=MO",
      ], alarms: [PlanTests.ring])
    let plan = try PlanTests.plan(PlanTests.calendar([event]))
    #expect(plan.requests.isEmpty)
    #expect(plan.validUntil == Self.horizonEnd)
  }

  @Test func aThunderbirdAcknowledgementInThePastCoversNothingToCome() throws {
    let event = PlanTests.event(
      "acked",
      [
        "X-MOZ-LASTACK:20261201T060000Z", "DTSTART;TZID=Europe/Berlin:20261130T070000",
        "RRULE:FREQ=WEEKLY;BYDAY=MO",
      ], alarms: [PlanTests.ring])
    let plan = try PlanTests.plan(PlanTests.calendar([event]))
    #expect(Self.days(plan) == [.monday])
    #expect(plan.requests.count == 1)
    #expect(plan.validUntil == nil)
  }

  @Test func aWindowsZoneNameForThePlanZoneRepeatsForEver() throws {
    // "W. Europe Standard Time" is read as Europe/Berlin, the plan's zone.
    let plan = try PlanTests.plan(
      PlanTests.calendar([PlanTests.weekdays("win", at: "070000", zone: "W. Europe Standard Time")])
    )
    #expect(Self.days(plan) == Self.weekdays)
    #expect(plan.requests.count == 5)
    #expect(plan.validUntil == nil)
  }

  @Test func aGoogleUTCStartInTheCalendarsZoneRepeatsForEver() throws {
    // Google writes 07:00 Berlin in winter as 06:00Z and names the zone in X-WR-TIMEZONE; the
    // series keeps 07:00 Berlin in summer too (05:00Z), so it is on the plan zone's clock.
    let text = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//alarmcal//plan tests//EN",
      "X-WR-TIMEZONE:Europe/Berlin",
    ]
    let event = PlanTests.event(
      "google", ["DTSTART:20261130T060000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"],
      alarms: [PlanTests.ring])
    let plan = try PlanTests.plan(
      (text + event + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n")
    #expect(Self.days(plan) == Self.weekdays)
    let times = Set(
      PlanTests.repeating(plan).compactMap { request -> LocalTime? in
        if case .weekly(_, let time) = request.trigger { time } else { nil }
      })
    #expect(times == [LocalTime(secondsSinceMidnight: 7 * 3_600)])
    #expect(plan.validUntil == nil)
  }

  @Test func aUTCStartWithoutACalendarZoneIsOneShots() throws {
    // 06:00Z is 07:00 Berlin in winter and 08:00 in summer: no weekly wall-clock time.
    let event = PlanTests.event(
      "utc", ["DTSTART:20261130T060000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO"], alarms: [PlanTests.ring])
    let plan = try PlanTests.plan(PlanTests.calendar([event]))
    #expect(PlanTests.repeating(plan).isEmpty)
    #expect(plan.validUntil != nil)
  }

  @Test func twoSeriesWithoutUIDRepeatForEver() throws {
    let items = ["A", "B"].map { title in
      [
        "BEGIN:VEVENT", "DTSTAMP:20261201T000000Z", "SUMMARY:\(title)",
        "DTSTART;TZID=Europe/Berlin:20261130T070000", "RRULE:FREQ=WEEKLY;BYDAY=MO",
        "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:PT0S", "END:VALARM", "END:VEVENT",
      ]
    }
    let plan = try PlanTests.plan(PlanTests.calendar(items))
    #expect(plan.requests.count == 2)
    #expect(plan.validUntil == nil)
  }

  @Test func aSupersededRevisionIsNoException() throws {
    // SEQUENCE 1 is current (RFC 5546 §2.1.5) and rings every Monday for ever; the older
    // SEQUENCE 0 after it in the file, which ends, is passed over.
    let current = PlanTests.event(
      "rev",
      ["SEQUENCE:1", "DTSTART;TZID=Europe/Berlin:20261130T070000", "RRULE:FREQ=WEEKLY;BYDAY=MO"],
      alarms: [PlanTests.ring])
    let older = PlanTests.event(
      "rev",
      [
        "SEQUENCE:0", "DTSTART;TZID=Europe/Berlin:20261130T070000",
        "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3",
      ], alarms: [PlanTests.ring])
    let plan = try PlanTests.plan(PlanTests.calendar([current, older]))
    #expect(Self.days(plan) == [.monday])
    #expect(plan.requests.count == 1)
    #expect(plan.validUntil == nil)
  }

  @Test func theCurrentRevisionDecidesWhereverItStands() throws {
    // The current SEQUENCE 1 ends after four Mondays (Nov 30 to Dec 21); Dec 7's rang at
    // 06:00Z, before now: the plan holds Dec 14 and Dec 21 as one-shots, and no repeating
    // request, which would ring on after them.
    let older = PlanTests.event(
      "rev",
      ["SEQUENCE:0", "DTSTART;TZID=Europe/Berlin:20261130T070000", "RRULE:FREQ=WEEKLY;BYDAY=MO"],
      alarms: [PlanTests.ring])
    let current = PlanTests.event(
      "rev",
      [
        "SEQUENCE:1", "DTSTART;TZID=Europe/Berlin:20261130T070000",
        "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=4",
      ], alarms: [PlanTests.ring])
    let plan = try PlanTests.plan(PlanTests.calendar([older, current]))
    #expect(PlanTests.repeating(plan).isEmpty)
    #expect(plan.requests.count == 2)
    #expect(plan.validUntil == Self.horizonEnd)
  }

  @Test func aRevisionInAnotherCalendarOfTheFileIsPassedOverAsUpcomingDoes() throws {
    // An iTIP-style file: each revision in a VCALENDAR of its own. SEQUENCE 1, in the second,
    // is current and rings every Monday for ever; the older one, which ends, is passed over.
    let older = PlanTests.event(
      "rev",
      [
        "SEQUENCE:0", "DTSTART;TZID=Europe/Berlin:20261130T070000",
        "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3",
      ], alarms: [PlanTests.ring])
    let current = PlanTests.event(
      "rev",
      ["SEQUENCE:1", "DTSTART;TZID=Europe/Berlin:20261130T070000", "RRULE:FREQ=WEEKLY;BYDAY=MO"],
      alarms: [PlanTests.ring])
    let plan = try PlanTests.plan(PlanTests.calendar([older]) + PlanTests.calendar([current]))
    #expect(Self.days(plan) == [.monday])
    #expect(plan.requests.count == 1)
    #expect(plan.validUntil == nil)
  }
}
