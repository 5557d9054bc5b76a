import ICalendar

/// The edits one snooze or dismissal makes to the component that holds the alarm.
struct ResponseWriter {
  private(set) var edits: TextEdits
  let now: Instant
  let firing: Firing
  let place: AlarmPlace

  init(bytes: [UInt8], now: Instant, firing: Firing, place: AlarmPlace) {
    edits = TextEdits(bytes)
    self.now = now
    self.firing = firing
    self.place = place
  }

  /// Properties of the alarm that rang that its snooze does not copy: what identifies it, when
  /// it rings, and its acknowledgement.
  private static let notCopied: Set<String> = [
    "UID", "TRIGGER", "REPEAT", "DURATION", "ACKNOWLEDGED", "RELATED-TO", "X-WR-ALARMUID",
    "X-EVOLUTION-ALARM-UID", "X-MOZ-LASTACK", "X-APPLE-DEFAULT-ALARM",
  ]

  /// The id `convert` gives the alarm when it imports the file (`UID`, `UID#2` for the second
  /// alarm, `UID#<recurrence id>` for an instance without its series), so the UID a snooze
  /// adds is the one `convert` would export the alarm with.
  private var importedID: String {
    var id = firing.uid
    if place.item.hasProperty(uppercased: "RECURRENCE-ID"), let instance = firing.recurrenceID {
      id += "#\(instance.text)"
    }
    if let position = Int(firing.alarm.key.dropFirst()), position > 0 { id += "#\(position + 1)" }
    return id
  }

  /// RFC 9074: ACKNOWLEDGED on the alarm that rang (§6.1), and for a snooze a new sibling
  /// VALARM with its own UID, an absolute UTC trigger and `RELATED-TO;RELTYPE=SNOOZE` naming the
  /// alarm (§7). Snoozing or dismissing removes the alarm's pending snoozes, so a snooze of a
  /// snooze replaces it (§7, step 3.2). For an instance of a series the alarm is the master's,
  /// and ACKNOWLEDGED covers only firings up to now, so later instances still ring; the snooze
  /// has an absolute trigger, which rings once, not per instance (RFC 5545 §3.8.6.3).
  mutating func writeRFC9074(_ response: AlarmResponse) {
    let item = place.item
    let rang = place.valarm
    // The alarm a snooze's firing belongs to is the one it snoozes.
    var alarm = rang
    if let snoozeOf = firing.snoozeOf {
      alarm = item.components.first {
        $0.name == "VALARM" && AlarmComponent.uid(of: $0) == snoozeOf
      }
    }
    var alarmUID = firing.snoozeOf
    if let alarm {
      if let uid = AlarmComponent.uid(of: alarm) {
        alarmUID = uid
        // Apple's X-WR-ALARMUID alone: the same value as an RFC 9074 UID (§4), which the
        // snooze's RELATED-TO names for clients that know only the RFC.
        if !alarm.hasProperty(uppercased: "UID") { insert(.text("UID", uid), into: alarm) }
      } else {
        let uid = AlarmIdentifier.alarmUID(forAlarm: importedID)
        alarmUID = uid
        insert(.text("UID", uid), into: alarm)
      }
      acknowledge(alarm)
    }
    for valarm in item.components where valarm.name == "VALARM" {
      let snoozeOf = AlarmComponent.snoozeOf(valarm)
      let pending = snoozeOf != nil && snoozeOf == alarmUID
      if let range = valarm.sourceRange,
        pending || valarm.sourceRange == rang?.sourceRange && firing.isSnooze
      {
        edits.removeComponent(range)
      }
    }
    if case .snooze(let until) = response, let source = alarm ?? rang,
      let itemRange = item.sourceRange
    {
      let uid = AlarmIdentifier.snoozeUID(ofAlarm: alarmUID ?? firing.uid, until: until)
      let copied = source.properties.compactMap { property -> Range<Int>? in
        guard !Self.notCopied.contains(property.name), let offset = property.sourceOffset else {
          return nil
        }
        return edits.contentLine(at: offset)
      }
      var trailing = [
        ICalProperty(
          "TRIGGER", Self.utcText(until), parameters: [ICalParameter("VALUE", "DATE-TIME")])
      ]
      if let alarmUID {
        trailing.append(
          .text("RELATED-TO", alarmUID, parameters: [ICalParameter("RELTYPE", "SNOOZE")]))
      }
      edits.insertComponent(
        "VALARM", leading: [.text("UID", uid)], copying: copied, trailing: trailing,
        before: edits.endLine(of: itemRange))
    }
    stamp(item)
  }

  /// Thunderbird's way, on the series' master as Thunderbird does (it never makes an override
  /// for a snooze): `X-MOZ-LASTACK` now; a snooze as `X-MOZ-SNOOZE-TIME` (one instance of a
  /// series: `X-MOZ-SNOOZE-TIME-<microseconds of its RECURRENCE-ID>`), which a dismissal
  /// removes; `X-MOZ-GENERATION` one up.
  mutating func writeThunderbird(_ response: AlarmResponse) {
    let item = place.item
    let master =
      item.hasProperty(uppercased: "RECURRENCE-ID")
      ? place.calendar.components.first {
        $0.name == item.name && $0.propertyValue(uppercased: "UID") == firing.uid
          && !$0.hasProperty(uppercased: "RECURRENCE-ID")
      } ?? item : item
    let lastAck = ICalProperty("X-MOZ-LASTACK", Self.utcText(now))
    set(lastAck, in: master)
    let isSeries =
      master.hasProperty(uppercased: "RRULE") || master.hasProperty(uppercased: "RDATE")
    var snoozeName = AlarmComponent.mozillaSnoozeTime
    if place.valarm == nil, let offset = firing.alarm.sourceOffset,
      let property = item.properties.first(where: { $0.sourceOffset == offset })
    {
      snoozeName = property.name
    } else if isSeries, let recurrenceID = firing.recurrenceID {
      snoozeName = AlarmComponent.mozillaSnoozeTime(ofInstanceAt: recurrenceID.sortKey)
    }
    switch response {
    case .snooze(let until): set(ICalProperty(snoozeName, Self.utcText(until)), in: master)
    case .dismiss:
      if let offset = master.properties.first(where: { $0.name == snoozeName })?.sourceOffset {
        edits.replaceLine(at: offset, with: [])
      }
    }
    if let generation = master.property(uppercased: "X-MOZ-GENERATION"),
      let offset = generation.sourceOffset, let count = Int(generation.value)
    {
      edits.replaceLine(at: offset, with: [ICalProperty("X-MOZ-GENERATION", "\(count + 1)")])
    }
    stamp(master)
    if master.sourceRange != item.sourceRange {
      set(lastAck, in: item)
      stamp(item)
    }
  }

  /// ACKNOWLEDGED now, or kept when it is later already (RFC 9074 §6.1 never moves it back).
  private mutating func acknowledge(_ alarm: ICalComponent) {
    if let existing = alarm.property(uppercased: "ACKNOWLEDGED"),
      case .utc(let local)? = DateTimeValue(property: existing), Instant(utc: local) >= now
    {
      return
    }
    set(ICalProperty("ACKNOWLEDGED", Self.utcText(now)), in: alarm)
  }

  /// DTSTAMP now, and LAST-MODIFIED now where there is one: the component changed (RFC 5545
  /// §3.8.7.2, §3.8.7.3). SEQUENCE stays: no organizer revised the event (§3.8.7.4).
  private mutating func stamp(_ component: ICalComponent) {
    set(ICalProperty("DTSTAMP", Self.utcText(now)), in: component)
    if let modified = component.property(uppercased: "LAST-MODIFIED")?.sourceOffset {
      edits.replaceLine(at: modified, with: [ICalProperty("LAST-MODIFIED", Self.utcText(now))])
    }
  }

  /// Replaces the first property of this name, or adds it after the component's properties.
  private mutating func set(_ property: ICalProperty, in component: ICalComponent) {
    if let offset = component.property(uppercased: property.name)?.sourceOffset {
      edits.replaceLine(at: offset, with: [property])
    } else {
      insert(property, into: component)
    }
  }

  private mutating func insert(_ property: ICalProperty, into component: ICalComponent) {
    if let offset = edits.afterProperties(of: component) {
      edits.insert([property], before: offset)
    }
  }

  /// `YYYYMMDDTHHMMSSZ`.
  private static func utcText(_ instant: Instant) -> String {
    DateTimeValue.utc(instant.utc).icalString
  }
}
