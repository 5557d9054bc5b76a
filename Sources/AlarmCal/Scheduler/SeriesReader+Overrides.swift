import ICalendar

/// A master's overrides (RECURRENCE-ID, RFC 5545 §3.8.4.4), read against its parts: each
/// instance's own start and template, RANGE=THISANDFUTURE moves, and their one-off rings.
extension SeriesReader {
  /// A master's overrides, read against its parts.
  struct Overrides {
    /// RECURRENCE-ID → the override's own start and template.
    var table: [RecurrenceID: (start: CalendarTimes.Placed, template: InstanceTemplate)] = [:]
    /// RANGE=THISANDFUTURE overrides, in time order.
    var future: [FutureOverride] = []
    /// Their absolute triggers and snoozes, which ring once, for their instance.
    var singles: [Firing] = []
  }

  /// The overrides of a master, read against its parts, and the warnings reading them gave.
  mutating func overrides(_ overrides: [ICalComponent], of master: MasterParts, uid: String)
    -> (Overrides, [SchedulerWarning])
  {
    warnings = []
    let placed = master.placed
    var table: [RecurrenceID: (start: CalendarTimes.Placed, template: InstanceTemplate)] = [:]
    var future: [FutureOverride] = []
    var singles: [Firing] = []
    for override in overrides {
      guard let idProperty = override.property(uppercased: "RECURRENCE-ID"),
        let idValue = DateTimeValue(property: idProperty),
        let recurrenceID = recurrenceID(of: idValue)
      else {
        warn(override, uid, "RECURRENCE-ID cannot be read; the override is ignored")
        continue
      }
      let startValue =
        override.property(uppercased: "DTSTART").flatMap(DateTimeValue.init(property:)) ?? idValue
      guard let overrideStart = times.place(startValue) else {
        warn(override, uid, "the override's time zone is unknown; the override is ignored")
        continue
      }
      let lastAck = mozillaLastAck(of: override)
      let overrideTemplate = self.template(
        override, uid: uid, placed: overrideStart, lastAck: lastAck)
      table[recurrenceID] = (overrideStart, overrideTemplate)
      if !overrideTemplate.cancelled {
        singles += singleFirings(
          override, origin: master.origin, template: overrideTemplate, placed: overrideStart,
          recurrenceID: recurrenceID, lastAck: lastAck)
      }
      if idProperty.parameter(uppercased: "RANGE")?.asciiUppercased == "THISANDFUTURE" {
        // Later instances move by the same wall-clock amount and take the override's properties.
        let original: LocalDateTime
        switch recurrenceID {
        case .instant(let instant): original = placed.zone.local(at: instant)
        case .date(let date): original = LocalDateTime(date, .midnight)
        }
        let moved = placed.zone.local(at: overrideStart.instant)
        future.append(
          FutureOverride(
            from: placed.zone.instant(for: original),
            shift: moved.secondsSince1970 - original.secondsSince1970, template: overrideTemplate))
      }
    }
    return (
      Overrides(table: table, future: future.sorted { $0.from < $1.from }, singles: singles),
      warnings
    )
  }
}
