import ICalendar

/// Checks that concern what alarms will do (warnings: the file is valid, the user should know)
/// and what other calendar apps do with it (notes).
extension ValidationRun {
  /// A UID used by more than one master among a calendar's events and tasks (`items`).
  mutating func checkUniqueIDs(_ items: [ICalComponent]) {
    var firstUse: [String: Int] = [:]
    for item in items where item.property(uppercased: "RECURRENCE-ID") == nil {
      guard let uid = item.property(uppercased: "UID") else { continue }
      if let line = firstUse[uid.value] {
        report(
          .duplicateUID, at: value(uid),
          "UID \"\(uid.value)\" is already used by the component at line \(line); readers keep one")
      } else {
        firstUse[uid.value] = item.line ?? 1
      }
    }
  }

  /// The checks of one VEVENT or VTODO of a calendar whose current masters by UID are
  /// `masters` (``CalendarItems/currentMasters(of:)``).
  mutating func checkItem(_ item: ICalComponent, masters: [String: ICalComponent]) {
    if let override = item.property(uppercased: "RECURRENCE-ID") {
      checkOverride(override, of: item, masters: masters)
    }
    checkExclusions(item)
    if item.property(uppercased: "RECURRENCE-ID") == nil { checkAlarmsCanRing(item) }
    for alarm in item.components where alarm.name == "VALARM" {
      if let acknowledged = alarm.property(uppercased: "ACKNOWLEDGED"),
        !acknowledged.value.hasSuffix("Z")
      {
        report(
          .acknowledgedNotUTC, at: value(acknowledged),
          "ACKNOWLEDGED \(acknowledged.value) must be a UTC date-time (ending in Z)")
      }
    }
  }

  /// A RECURRENCE-ID names an instance of its master; one that names none adds an instance
  /// most readers drop. Compared on the wall clock when both are written the same way, against
  /// the series' current revision.
  private mutating func checkOverride(
    _ override: ICalProperty, of item: ICalComponent, masters: [String: ICalComponent]
  ) {
    guard let uid = item.propertyValue(uppercased: "UID").map(TextEscaping.unescape),
      let master = masters[uid],
      let startLine = master.property(uppercased: "DTSTART"),
      let start = Self.dateTime(startLine),
      let target = Self.dateTime(override),
      sameForm(start, target)
    else { return }
    let rdates = master.properties(named: "RDATE").flatMap { $0.value.split(separator: ",") }
      .compactMap { DateTimeValue(text: String($0.split(separator: "/").first ?? ""))?.local }
    if rdates.contains(target.local) { return }
    if let ruleLine = master.property(uppercased: "RRULE") {
      guard case .success = rule(ruleLine.value),
        var iterator = iterator(
          ruleLine.value, start: start.local, isDate: start.isDate, workLimit: 200_000)
      else { return }
      iterator.skip(toAtLeast: target.local)
      guard let next = iterator.next(), !iterator.stoppedByWorkLimit, next != target.local
      else { return }
    } else if start.local == target.local {
      // A master without a rule has one instance, at its start.
      return
    }
    report(
      .orphanOverride, at: value(override),
      "RECURRENCE-ID \(override.value) is not an instance of the series \"\(uid)\"")
  }

  /// A finite series (COUNT or UNTIL, at most 1,000 instances) whose EXDATEs remove every
  /// instance has nothing left to show or ring. Compared on the wall clock, same form only.
  private mutating func checkExclusions(_ item: ICalComponent) {
    guard item.property(uppercased: "RECURRENCE-ID") == nil,
      item.properties(named: "RDATE").isEmpty,
      let startLine = item.property(uppercased: "DTSTART"),
      let ruleLine = item.property(uppercased: "RRULE"),
      !item.properties(named: "EXDATE").isEmpty,
      let rule = try? rule(ruleLine.value).get(),
      rule.count != nil || rule.until != nil,
      let start = Self.dateTime(startLine)
    else { return }
    var excluded = Set<LocalDateTime>()
    for line in item.properties(named: "EXDATE") {
      let isDate = line.parameter(uppercased: "VALUE")?.uppercased() == "DATE"
      for text in line.value.split(separator: ",") {
        guard
          let value = DateTimeValue(
            text: String(text), tzid: line.parameter(uppercased: "TZID"), isDate: isDate),
          sameForm(start, value)
        else { return }
        excluded.insert(value.local)
      }
    }
    guard
      var iterator = iterator(
        ruleLine.value, start: start.local, isDate: start.isDate, workLimit: 100_000)
    else { return }
    var count = 0
    while let instance = iterator.next() {
      count += 1
      if count > 1_000 || !excluded.contains(instance) { return }
    }
    guard !iterator.stoppedByWorkLimit, let last = item.properties(named: "EXDATE").last else {
      return
    }
    report(
      .emptySeries, at: name(last),
      "EXDATE removes every one of the series' \(count) instance(s); nothing is left to ring")
  }

  /// With `now`: a component whose series has ended (no RRULE, or COUNT/UNTIL) and whose alarms
  /// all rang before now can never ring again. The check reads wall clocks as UTC and allows two
  /// days of slack, so it only speaks when the end is clearly past.
  private mutating func checkAlarmsCanRing(_ item: ICalComponent) {
    guard let now, !item.hasProperty(uppercased: "RDATE") else { return }
    // An endless series can always ring again: nothing more to judge.
    let ruleLine = item.property(uppercased: "RRULE")
    if let ruleLine {
      guard case .success(let rule) = rule(ruleLine.value), rule.count != nil || rule.until != nil
      else { return }
    }
    let alarms = AlarmComponent.all(in: item).filter { !$0.isSwitchedOff }
    guard let last = alarms.last?.component,
      let startLine = item.property(uppercased: "DTSTART") ?? item.property(uppercased: "DUE"),
      let start = Self.dateTime(startLine)
    else { return }
    var lastStart = start.local
    if let ruleLine {
      guard
        var iterator = iterator(
          ruleLine.value, start: start.local, isDate: start.isDate, workLimit: 100_000)
      else { return }
      while let next = iterator.next() { lastStart = next }
      if iterator.stoppedByWorkLimit { return }
    }
    // The latest any alarm can ring after an instance's start, in seconds.
    var reach = Int64.min
    for alarm in alarms {
      var offset: Int64
      switch alarm.trigger {
      case .success(.absolute(.utc(let utc))):
        offset = Instant(utc: utc).secondsSince1970 - lastStart.secondsSince1970
      case .success(.relative(let duration, let fromEnd)):
        offset = Self.seconds(duration)
        if fromEnd {
          // The longest an instance can last: one that is not written plainly is not judged.
          guard let length = spanSeconds(item, start: start) else { return }
          offset += length
        }
      default: return
      }
      offset += Int64(alarm.repeatCount) * Self.seconds(alarm.repeatInterval)
      reach = max(reach, offset)
    }
    let latestRing = lastStart.secondsSince1970 + reach + 2 * 86_400
    guard latestRing < now.secondsSince1970 else { return }
    report(
      .alarmNeverRings, at: begin(last),
      "the series ended on \(lastStart.date) and every alarm rang before now (\(now)); none can ring again"
    )
  }

  /// DTEND or DUE minus DTSTART (wall clock, same form), or DURATION; nil when unclear.
  private func spanSeconds(_ item: ICalComponent, start: DateTimeValue) -> Int64? {
    if let text = item.property(uppercased: "DURATION")?.value, let duration = ICalDuration(text) {
      return Self.seconds(duration)
    }
    guard let endLine = item.property(item.name == "VTODO" ? "DUE" : "DTEND") else {
      return start.isDate ? 86_400 : 0
    }
    guard let end = Self.dateTime(endLine), sameForm(start, end) else { return nil }
    return end.local.secondsSince1970 - start.local.secondsSince1970
  }

  /// A duration in seconds, counting its days as 86,400 seconds each.
  private static func seconds(_ duration: ICalDuration) -> Int64 {
    Int64(duration.signedDays) * 86_400 + Int64(duration.signedSeconds)
  }

  private func sameForm(_ a: DateTimeValue, _ b: DateTimeValue) -> Bool {
    switch (a, b) {
    case (.date, .date), (.floating, .floating), (.utc, .utc): true
    case (.zoned(_, let x), .zoned(_, let y)): x == y
    default: false
    }
  }

  /// Notes, once per file each: what Google Calendar and Outlook ignore on import.
  mutating func notes(_ calendar: ICalComponent, items: [ICalComponent]) {
    // The first VALARM, and the ATTACH of the first AUDIO alarm that has one.
    var firstAlarmBegin: SourcePosition?
    var audioAttach: ICalProperty?
    for item in items {
      for alarm in item.components where alarm.name == "VALARM" {
        if firstAlarmBegin == nil { firstAlarmBegin = begin(alarm) }
        if audioAttach == nil, AlarmComponent.action(of: alarm) == "AUDIO" {
          audioAttach = alarm.property(uppercased: "ATTACH")
        }
      }
    }
    if let firstAlarmBegin {
      report(
        .importIgnoresAlarms, at: firstAlarmBegin,
        "Google Calendar and Outlook ignore VALARM when importing a file; the alarms ring only in "
          + "apps such as Apple Calendar and Thunderbird")
    }
    if let attach = audioAttach {
      report(
        .audioAttachment, at: value(attach),
        "most calendar apps play their own sound and ignore an AUDIO alarm's ATTACH")
    }
    if calendar.property(uppercased: "X-WR-TIMEZONE") != nil,
      let floating = items.lazy.compactMap({ $0.property(uppercased: "DTSTART") }).first(where: {
        $0.parameter(uppercased: "TZID") == nil && !$0.value.hasSuffix("Z") && $0.value.count > 8
      })
    {
      report(
        .floatingWithCalendarZone, at: value(floating),
        "a floating time in a calendar with X-WR-TIMEZONE: Google reads it in that zone, other "
          + "apps in the reader's own zone")
    }
  }
}
