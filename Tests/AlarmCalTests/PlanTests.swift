import AlarmCal
import ICalendar
import Testing

/// `PlanCompiler` (issue 39): repeating requests where a weekly pattern allows, one-shots
/// otherwise, the latest validUntil the budget allows.
@Suite struct PlanTests {
  /// 2026-12-07T08:00:00Z, a Monday.
  static let now = Instant(secondsSince1970: 1_796_630_400)

  /// One VEVENT: `properties` after its UID, then one VALARM per entry of `alarms`.
  static func event(_ uid: String, _ properties: [String], alarms: [[String]]) -> [String] {
    var lines = ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261201T000000Z", "SUMMARY:\(uid)"]
    lines += properties
    for alarm in alarms { lines += ["BEGIN:VALARM"] + alarm + ["END:VALARM"] }
    return lines + ["END:VEVENT"]
  }

  static func calendar(_ items: [[String]]) -> String {
    (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//alarmcal//plan tests//EN"] + items.flatMap { $0 }
      + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
  }

  static let ring = ["ACTION:DISPLAY", "TRIGGER:PT0S"]

  /// A Mon-Fri event at `time` (HHMMSS) in `zone`, ringing at its start.
  static func weekdays(_ uid: String, at time: String, zone: String, extra: [String] = [])
    -> [String]
  {
    event(
      uid,
      ["DTSTART;TZID=\(zone):20261130T\(time)", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"] + extra,
      alarms: [Self.ring])
  }

  static func plan(_ text: String, zone: String = "Europe/Berlin", budget: Int = 64) throws
    -> NotificationPlan
  {
    var compiler = PlanCompiler(
      zone: try #require(TimeZoneRules(identifier: zone)), now: now, budget: budget)
    try compiler.read(Array(text.utf8), file: "plan.ics")
    return compiler.compile()
  }

  static func repeating(_ plan: NotificationPlan) -> [PlannedRequest] {
    plan.requests.filter { if case .weekly = $0.trigger { true } else { false } }
  }

  @Test func tenWeekdayAlarmsAreFiftyRepeatingRequestsForEver() throws {
    let items = (0..<10).map { Self.weekdays("w\($0)", at: "070\($0)00", zone: "Europe/Berlin") }
    let plan = try Self.plan(Self.calendar(items))
    #expect(plan.requests.count == 50)
    #expect(Self.repeating(plan).count == 50)
    #expect(plan.validUntil == nil)
  }

  @Test func twoSeriesWithoutUIDGetRepeatingRequestsOfTheirOwn() throws {
    let items = ["A", "B"].map { title in
      [
        "BEGIN:VEVENT", "DTSTAMP:20261201T000000Z", "SUMMARY:\(title)",
        "DTSTART;TZID=Europe/Berlin:20261130T070000", "RRULE:FREQ=WEEKLY;BYDAY=MO",
        "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:PT0S", "END:VALARM", "END:VEVENT",
      ]
    }
    let repeating = Self.repeating(try Self.plan(Self.calendar(items)))
    #expect(repeating.map(\.title).sorted() == ["A", "B"])
    #expect(Set(repeating.map(\.identifier)).count == 2)
  }

  @Test func aRuleStoppedAtTheWorkLimitIsSaid() throws {
    let text = Self.calendar([
      Self.event(
        "stops", ["DTSTART:20261207T090000Z", "RRULE:FREQ=MINUTELY;BYHOUR=9"], alarms: [Self.ring])
    ])
    var compiler = PlanCompiler(
      zone: try #require(TimeZoneRules(identifier: "UTC")), now: Self.now, budget: 64,
      workLimit: 200)
    try compiler.read(Array(text.utf8), file: "plan.ics")
    _ = compiler.compile()
    #expect(
      compiler.lateWarnings.contains {
        $0.uid == "stops" && $0.message.contains("stopped after 200 recurrence candidates")
      })
  }

  @Test func switchedOffAlarmsAndCompletedTasksLeaveThePlanValidForEver() throws {
    let off = Self.event(
      "off", ["DTSTART;TZID=Europe/Berlin:20261220T090000"],
      alarms: [["ACTION:NONE", "TRIGGER:PT0S"]])
    let done = [
      "BEGIN:VTODO", "UID:done", "DTSTAMP:20261201T000000Z", "STATUS:COMPLETED",
      "DUE;TZID=Europe/Berlin:20261210T170000", "BEGIN:VALARM", "ACTION:DISPLAY",
      "TRIGGER;RELATED=END:-PT1H", "END:VALARM", "END:VTODO",
    ]
    let plan = try Self.plan(
      Self.calendar([Self.weekdays("w", at: "070000", zone: "Europe/Berlin"), off, done]))
    #expect(plan.requests.count == 5)
    #expect(plan.validUntil == nil)
  }

  @Test(arguments: ["Europe/Berlin", "America/New_York"])
  func weekdayAlarmsAt0230MeetNoDSTChange(zone: String) throws {
    // Both zones change on Sundays: 02:30 on weekdays always occurs exactly once.
    let plan = try Self.plan(
      Self.calendar([Self.weekdays("night", at: "023000", zone: zone)]), zone: zone)
    #expect(Self.repeating(plan).count == 5)
    #expect(plan.validUntil == nil)
  }

  @Test(arguments: ["Europe/Berlin", "America/New_York"])
  func aDailyAlarmAt0230PlansItsSundaysAsOneShots(zone: String) throws {
    // Berlin skips 02:30 on the last Sunday of March and repeats it on the last of October;
    // New York skips it on the second Sunday of March. iOS does not document what a
    // repeating trigger does then, so Sundays are one-shots.
    let daily = Self.event(
      "daily", ["DTSTART;TZID=\(zone):20261130T023000", "RRULE:FREQ=DAILY"],
      alarms: [Self.ring])
    let plan = try Self.plan(Self.calendar([daily]), zone: zone)
    let days = Set(
      Self.repeating(plan).compactMap { request -> Weekday? in
        if case .weekly(let day, _) = request.trigger { day } else { nil }
      })
    #expect(days == Set<Weekday>([.monday, .tuesday, .wednesday, .thursday, .friday, .saturday]))
    #expect(plan.requests.count == 64)
    #expect(plan.validUntil != nil)
  }

  @Test func theSweepBeatsRepeatingRequestsFirst() throws {
    // Budget 6: a Mon-Fri alarm and three one-shots on Tuesday. Repeating first (5 requests
    // and one one-shot) holds only until Tuesday's second one-shot at 11:00 Berlin.
    let once = (0..<3).map { index in
      Self.event(
        "once\(index)", ["DTSTART;TZID=Europe/Berlin:20261208T1\(index)0000"], alarms: [Self.ring])
    }
    let plan = try Self.plan(
      Self.calendar([Self.weekdays("work", at: "070000", zone: "Europe/Berlin")] + once), budget: 6)
    let greedyEnd = Instant(secondsSince1970: 1_796_724_000)  // 2026-12-08T10:00:00Z
    #expect(plan.requests.count == 6)
    #expect(try #require(plan.validUntil) > greedyEnd)
    // Friday 07:00 Berlin, the first firing of a unit not planned.
    #expect(plan.validUntil == Instant(secondsSince1970: 1_796_968_800))
  }

  @Test func aListThatCannotFitFillsTheBudgetAndSaysUntilWhen() throws {
    let items = (0..<14).map { index in
      Self.event(
        "d\(index)",
        [
          "DTSTART;TZID=Europe/Berlin:20261130T\(10 + index / 2)\(index % 2 * 3)000",
          "RRULE:FREQ=DAILY",
        ], alarms: [Self.ring])
    }
    let plan = try Self.plan(Self.calendar(items))
    // Fourteen daily alarms are 98 weekly units. From Monday 09:00 Berlin, each day's 14
    // firings meet 14 new units: Monday to Thursday 56, Friday's first eight (10:00 to 13:30)
    // fill the budget, and Friday 14:00 Berlin is the first firing left out.
    #expect(plan.requests.count == 64)
    #expect(Self.repeating(plan).count == 64)
    #expect(plan.validUntil == Instant(secondsSince1970: 1_796_994_000))  // 2026-12-11T13:00Z
  }

  @Test func aSnoozePendingAtNowIsAOneShot() throws {
    let event = Self.event(
      "snoozed", ["DTSTART;TZID=Europe/Berlin:20261130T070000", "RRULE:FREQ=DAILY"],
      alarms: [
        ["UID:A", "ACTION:AUDIO", "TRIGGER:PT0S", "ACKNOWLEDGED:20261207T060010Z"],
        [
          "UID:S", "ACTION:AUDIO", "TRIGGER;VALUE=DATE-TIME:20261207T081000Z",
          "RELATED-TO;RELTYPE=SNOOZE:A",
        ],
      ])
    let plan = try Self.plan(Self.calendar([event]))
    let snooze = try #require(
      plan.requests.first {
        if case .once(_, let at) = $0.trigger { at == Self.now.adding(seconds: 600) } else { false }
      })
    #expect(snooze.alarmUID == "S")
    #expect(plan.validUntil != nil)
  }

  @Test func anAcknowledgedFiringIsNotPlanned() throws {
    // Acknowledged through Wednesday: Monday's (past), Tuesday's and Wednesday's rings are done.
    let event = Self.event(
      "acked", ["DTSTART;TZID=Europe/Berlin:20261130T070000", "RRULE:FREQ=DAILY"],
      alarms: [["ACTION:AUDIO", "TRIGGER:PT0S", "ACKNOWLEDGED:20261209T060000Z"]])
    let plan = try Self.plan(Self.calendar([event]))
    let wednesday = Instant(secondsSince1970: 1_796_796_000)  // 2026-12-09T06:00:00Z
    for request in plan.requests {
      if case .once(_, let at) = request.trigger { #expect(at > wednesday) }
    }
    // A repeating request would ring this Tuesday and Wednesday: those weekdays are
    // one-shots from next week on, 59 of them after the five repeating requests, and the
    // 60th, Wednesday 2027-07-07 07:00 Berlin (29 weeks after 2026-12-16), is left out.
    let days = Self.repeating(plan).compactMap { request -> Weekday? in
      if case .weekly(let day, _) = request.trigger { day } else { nil }
    }
    #expect(Set(days) == [.thursday, .friday, .saturday, .sunday, .monday])
    #expect(plan.requests.count == 64)
    let nextTuesday = Instant(secondsSince1970: 1_797_314_400)  // 2026-12-15T06:00:00Z
    #expect(
      plan.requests.first { !Self.repeating(plan).contains($0) }?.trigger.isOnce(at: nextTuesday)
        == true)
    #expect(plan.validUntil == Instant(secondsSince1970: 1_814_936_400))  // 2027-07-07T05:00Z
  }

  @Test func anAlarmWithAnExdatePlansThatWeekdayAsOneShots() throws {
    let plan = try Self.plan(
      Self.calendar([
        Self.weekdays(
          "holiday", at: "070000", zone: "Europe/Berlin",
          extra: ["EXDATE;TZID=Europe/Berlin:20261224T070000"])
      ]))
    let days = Set(
      Self.repeating(plan).compactMap { request -> Weekday? in
        if case .weekly(let day, _) = request.trigger { day } else { nil }
      })
    #expect(!days.contains(.thursday))
    #expect(plan.validUntil != nil)
    let christmasEve = Instant(secondsSince1970: 1_798_092_000)  // 2026-12-24T06:00:00Z
    #expect(
      !plan.requests.contains {
        if case .once(_, let at) = $0.trigger { at == christmasEve } else { false }
      })
  }

  @Test func aTaskReminderIsAOneShot() throws {
    let task = [
      "BEGIN:VTODO", "UID:task", "DTSTAMP:20261201T000000Z", "SUMMARY:File the tax return",
      "DUE;TZID=Europe/Berlin:20261210T170000", "BEGIN:VALARM", "ACTION:DISPLAY",
      "TRIGGER;RELATED=END:-PT1H", "END:VALARM", "END:VTODO",
    ]
    let plan = try Self.plan(Self.calendar([task]))
    #expect(plan.requests.count == 1)
    #expect(plan.requests.first?.title == "File the tax return")
    #expect(
      plan.requests.first?.trigger.isOnce(at: Instant(secondsSince1970: 1_796_914_800)) == true)
  }

  @Test func anAlarmInAnotherZoneIsPlannedAsOneShots() throws {
    let plan = try Self.plan(
      Self.calendar([Self.weekdays("ny", at: "090000", zone: "America/New_York")]))
    #expect(Self.repeating(plan).isEmpty)
    #expect(plan.requests.count == 64)
  }

  @Test func tooManyFiringsEndTheHorizonAtTheCut() throws {
    // Ten firings examined at most: the plan holds until the eleventh, which it leaves out.
    var compiler = PlanCompiler(
      zone: try #require(TimeZoneRules(identifier: "Europe/Berlin")), now: Self.now, budget: 64,
      maximumFirings: 10)
    let text = Self.calendar([Self.weekdays("w", at: "070000", zone: "Europe/Berlin")])
    try compiler.read(Array(text.utf8), file: "plan.ics")
    let plan = compiler.compile()
    // The eleventh weekday from Tuesday 2026-12-08: Tuesday 2026-12-22, 07:00 Berlin.
    #expect(plan.validUntil == Instant(secondsSince1970: 1_797_919_200))
    #expect(plan.requests.count == 5)
  }

  @Test func theSameInputGivesTheSameJSON() throws {
    let text = Self.calendar([
      Self.weekdays("a", at: "070000", zone: "Europe/Berlin"),
      Self.weekdays("b", at: "063000", zone: "Europe/Berlin"),
    ])
    let first = JSONWriter().string(from: try Self.plan(text).json)
    let second = JSONWriter().string(from: try Self.plan(text).json)
    #expect(first == second)
    #expect(first.contains(#""repeats": true"#))
  }
}

extension PlannedTrigger {
  fileprivate func isOnce(at instant: Instant) -> Bool {
    if case .once(_, let at) = self { at == instant } else { false }
  }
}
