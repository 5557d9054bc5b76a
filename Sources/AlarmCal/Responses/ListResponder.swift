import ICalendar

/// Writes snoozes and dismissals into an alarm list (JSON), as ``FiringResponder`` does into
/// iCalendar: only the record of the alarm or task that rang changes, in its `acknowledgedAt` and
/// `snoozedUntil` members, and every other byte of the list stays as it was.
///
/// A firing is found by the id `upcoming` prints for the list: that of the calendar `convert`
/// exports from it at `now`. Values are written as alarmcal writes them, UTC date-times
/// (`"2027-03-29T07:36:00Z"`); a member that is missing is added after the record's last one,
/// spaced as the record spaces its members.
public enum ListResponder {
  /// Writes `response` to the firing whose id is `id` into `bytes`, the alarm list `file`
  /// (times without a zone in `zone`).
  ///
  /// The firing must have rung, as for ``FiringResponder/respond(_:toFiring:in:file:now:zone:)``.
  /// A snooze sets `acknowledgedAt` (unless it is already later, RFC 9074 §6.1) and
  /// `snoozedUntil`; a dismissal sets `acknowledgedAt` and removes `snoozedUntil`. Either
  /// removes `snoozeUid`: the snooze it named is gone, and the new one's UID is derived.
  public static func respond(
    _ response: AlarmResponse, toFiring id: String, in bytes: [UInt8], file: String,
    now: Instant, zone: TimeZoneRules
  ) throws(ResponseError) -> WrittenResponse {
    let list = try read(bytes, file: file, zone: zone)
    let firing = try search(id: id, in: list, file: file, now: now, zone: zone)
    return try respond(
      response, to: firing, in: bytes, list: list, file: file, now: now, zone: zone)
  }

  /// Writes `response` to `firing`, found in the export of `list` (read from `bytes`, the
  /// alarm list `file`), as ``respond(_:toFiring:in:file:now:zone:)`` does.
  static func respond(
    _ response: AlarmResponse, to firing: Firing, in bytes: [UInt8], list: AlarmList,
    file: String, now: Instant, zone: TimeZoneRules
  ) throws(ResponseError) -> WrittenResponse {
    let id = firing.id
    try FiringResponder.checkTimes(of: response, to: firing, file: file, now: now)
    let outline = JSONOutline(bytes: bytes)
    let records = ListRecords(bytes)
    let found: (record: Range<Int>, acknowledgedAt: Instant?)?
    if firing.component == "VTODO" {
      found = list.tasks.firstIndex { $0.id == firing.uid }.flatMap { index in
        records?.tasks[safe: index].map { ($0, list.tasks[index].acknowledgedAt) }
      }
    } else {
      found = list.alarms.firstIndex { $0.id == firing.uid }.flatMap { index in
        records?.alarms[safe: index].map { ($0, list.alarms[index].acknowledgedAt) }
      }
    }
    guard let found else {
      throw ResponseError(message: "\(file): no record in the list rings firing \(id)")
    }
    let edited = edit(
      found.record, in: outline, acknowledgedAt: found.acknowledgedAt, response: response,
      now: now)
    var snooze: Firing?
    if case .snooze(let until) = response, let after = try? read(edited, file: file, zone: zone) {
      let calendar = try exported(after, file: file, now: now)
      snooze = FiringResponder.snoozeFiring(
        in: calendar, file: file, at: until, of: firing, zone: zone)
    }
    return WrittenResponse(bytes: edited, firing: firing, snooze: snooze)
  }

  /// The list, or every problem in it, one line each, as `convert` prints them.
  static func read(_ bytes: [UInt8], file: String, zone: TimeZoneRules)
    throws(ResponseError) -> AlarmList
  {
    let reader = AlarmFileReader(fileName: file, defaultTimeZone: zone.identifier)
    switch reader.readList(bytes) {
    case .success(let list): return list
    case .failure(let failure):
      throw ResponseError(
        message: failure.problems.map(\.description).joined(separator: "\n"), isUnreadable: true)
    }
  }

  /// The calendar `convert` exports from `list` at `now`.
  static func exported(_ list: AlarmList, file: String, now: Instant)
    throws(ResponseError) -> [UInt8]
  {
    do {
      return try AlarmExporter(now: now, timestamp: now).bytes(list.alarms, tasks: list.tasks)
    } catch {
      throw ResponseError(message: "\(file): \(error)", isUnreadable: true)
    }
  }

  /// The firing whose id is `id` in the list's export at `now`, as ``firing(in:file:now:find:)``
  /// finds it.
  private static func search(
    id: String, in list: AlarmList, file: String, now: Instant, zone: TimeZoneRules
  ) throws(ResponseError) -> Firing {
    try firing(in: list, file: file, now: now) { calendar throws(ResponseError) in
      try FiringResponder.search(id: id, in: calendar, file: file, now: now, zone: zone)
    }
  }

  /// The firing `find` finds in the list's export at `now`. A one-shot alarm of a time of day
  /// that rang in the day before `now` is exported at its next ring then, so when `find`
  /// finds none, or one still to ring, the export a day earlier is searched too, and a firing
  /// found there that rang by `now` is taken; else the first answer stands.
  static func firing(
    in list: AlarmList, file: String, now: Instant,
    find: ([UInt8]) throws(ResponseError) -> Firing
  ) throws(ResponseError) -> Firing {
    let calendar = try exported(list, file: file, now: now)
    let found: Firing
    do {
      found = try find(calendar)
    } catch {
      if let earlier = try? rangEarlier(in: list, file: file, now: now, find: find) {
        return earlier
      }
      throw error
    }
    if found.trigger > now,
      let earlier = try? rangEarlier(in: list, file: file, now: now, find: find)
    {
      return earlier
    }
    return found
  }

  /// The firing `find` finds in the export a day before `now`, when it rang by `now`.
  private static func rangEarlier(
    in list: AlarmList, file: String, now: Instant,
    find: ([UInt8]) throws(ResponseError) -> Firing
  ) throws(ResponseError) -> Firing? {
    let calendar = try exported(list, file: file, now: now.adding(seconds: -86_400))
    let found = try find(calendar)
    return found.trigger <= now ? found : nil
  }

  /// The list with the response written into the record at `range`, whose acknowledgement
  /// is `acknowledgedAt`.
  private static func edit(
    _ range: Range<Int>, in outline: JSONOutline, acknowledgedAt: Instant?,
    response: AlarmResponse, now: Instant
  ) -> [UInt8] {
    let members = outline.members(ofObjectAt: range.lowerBound)
    var set: [(key: String, value: Instant)] = []
    // RFC 9074 §6.1 never moves an acknowledgement back.
    if (acknowledgedAt.map { $0 < now }) ?? true { set.append(("acknowledgedAt", now)) }
    var removed: Set<String> = ["snoozeUid"]
    switch response {
    case .snooze(let until): set.append(("snoozedUntil", until))
    case .dismiss: removed.insert("snoozedUntil")
    }
    var edits = TextEdits(outline.bytes)
    var inserted: [UInt8] = []
    for (key, value) in set {
      var text: [UInt8] = []
      JSONWriter.appendString(value.description, to: &text)
      if let member = members.first(where: { $0.key == key }) {
        edits.replace(member.valueRange, with: text)
      } else {
        inserted += separator(of: members, in: outline, objectStart: range.lowerBound)
        JSONWriter.appendString(key, to: &inserted)
        inserted += colon(of: members, in: outline)
        inserted += text
      }
    }
    for run in runs(of: members.indices.filter { removed.contains(members[$0].key) }) {
      if run.lowerBound > 0 {
        // With the comma before it: `, "key": value`.
        edits.replace(
          members[run.lowerBound - 1].valueRange
            .upperBound..<members[run.upperBound - 1]
            .valueRange.upperBound, with: [])
      } else if run.upperBound < members.count {
        // The first members: up to the next key.
        edits.replace(
          members[0].keyRange.lowerBound..<members[run.upperBound].keyRange.lowerBound, with: [])
      }
    }
    if !inserted.isEmpty, let last = members.last {
      edits.replace(last.valueRange.upperBound..<last.valueRange.upperBound, with: inserted)
    }
    return edits.applied()
  }

  /// What goes before a member added after the last: the comma and spacing between the
  /// record's last two members, or for a record of one member a comma and the spacing before
  /// it.
  private static func separator(
    of members: [JSONOutline.Member], in outline: JSONOutline, objectStart: Int
  ) -> [UInt8] {
    guard members.count >= 2 else {
      let first = members.first?.keyRange.lowerBound ?? objectStart + 1
      return [UInt8(ascii: ",")] + outline.bytes[(objectStart + 1)..<first]
    }
    let previous = members[members.count - 2].valueRange.upperBound
    return Array(outline.bytes[previous..<members[members.count - 1].keyRange.lowerBound])
  }

  /// What the record writes between a key and its value: `": "` without the quote, or `":"`.
  private static func colon(of members: [JSONOutline.Member], in outline: JSONOutline)
    -> [UInt8]
  {
    guard let last = members.last else { return Array(": ".utf8) }
    return Array(outline.bytes[last.keyRange.upperBound..<last.valueRange.lowerBound])
  }

  /// Consecutive indices gathered into ranges.
  private static func runs(of indices: [Int]) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    for index in indices {
      if let last = runs.last, last.upperBound == index {
        runs[runs.count - 1] = last.lowerBound..<(index + 1)
      } else {
        runs.append(index..<(index + 1))
      }
    }
    return runs
  }
}

extension Array {
  /// The element at `index`, or nil outside the array.
  fileprivate subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
