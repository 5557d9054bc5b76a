import ICalendar

/// What one push does, decided in one place and without a server: from the resources as they
/// would be sent, what was recorded of the collection, and the server's listing, the list of
/// writes to make and conflicts to report. Keys are resource paths as the caller compares them
/// (percent-decoded), the same in all three inputs.
public enum SyncPlan {
  /// One resource as it would be sent.
  public struct Local: Equatable, Sendable {
    /// Its path.
    public var key: String
    /// Its UID.
    public var uid: String
    /// The bytes that would be sent.
    public var bytes: [UInt8]
    /// The digest recorded for those bytes.
    public var digest: String

    /// Creates a local resource.
    public init(key: String, uid: String, bytes: [UInt8], digest: String) {
      self.key = key
      self.uid = uid
      self.bytes = bytes
      self.digest = digest
    }
  }

  /// One resource as last written or read.
  public struct Record: Equatable, Sendable {
    /// Its UID.
    public var uid: String
    /// Its ETag then; empty or unusable when the server gave none.
    public var etag: String
    /// The digest of the bytes written or read then.
    public var digest: String
    /// The list whose push created, wrote or adopted it; nil when it was only pulled.
    public var list: String?

    /// Creates a record.
    public init(uid: String, etag: String, digest: String, list: String? = nil) {
      self.uid = uid
      self.etag = etag
      self.digest = digest
      self.list = list
    }
  }

  /// Why a resource is left alone and reported.
  public enum Conflict: Equatable, Sendable {
    /// The server has it, changed in ways alarmcal cannot rule out: its ETag was never given.
    case noETag
    /// The server has it with other content, and nothing records it as read or written here.
    case differsOnServer
    /// `--delete-missing`: changed on the server since this list wrote it (or no ETag).
    case changedBeforeDelete
  }

  /// One step of a push.
  public enum Action: Equatable, Sendable {
    /// Nothing to send; `claim` when the list may record it as its own (the server still has
    /// the recorded ETag).
    case keep(key: String, claim: Bool)
    /// The server has it, equal to what would be sent: recorded as this list's, nothing sent.
    case adopt(key: String, etag: String)
    /// PUT with `If-None-Match: *`.
    case create(key: String)
    /// PUT with `If-Match: etag`.
    case replace(key: String, etag: String)
    /// DELETE with `If-Match: etag`.
    case delete(key: String, etag: String)
    /// The record names a resource the server no longer has: dropped.
    case forget(key: String)
    /// Left alone and reported.
    case conflict(key: String, uid: String, Conflict)
  }

  /// The keys of local resources the server has and no record names: the server's text of
  /// each is needed (``actions(local:records:listing:serverTexts:list:deleteMissing:overwrite:)``
  /// adopts those equal to what would be sent).
  public static func unrecorded(
    local: [Local], records: [String: Record], listing: [String: String]
  ) -> [String] {
    local.filter { records[$0.key] == nil && listing[$0.key] != nil }.map(\.key)
  }

  /// The actions of a push, in order: one per local resource, then (with `deleteMissing`) one
  /// per record of `list` no local resource has, by key.
  ///
  /// - An unchanged resource (digest as recorded) the server has is kept.
  /// - One the server lacks is created.
  /// - A changed one is replaced over the recorded ETag (the server's 412 then tells a change
  ///   there), or with `overwrite` over the listing's; without a usable ETag it is a conflict.
  /// - One the server has and nothing records is adopted when `serverTexts` holds it equal to
  ///   the local bytes (as ``canonical(_:)`` compares them); otherwise a conflict, or with
  ///   `overwrite` replaced over the listing's ETag. A list mark on the server grants nothing.
  /// - `deleteMissing`: a record of `list` that no local resource has is deleted when the
  ///   listing still shows its recorded ETag, forgotten when the server lacks it, else a
  ///   conflict.
  public static func actions(
    local: [Local], records: [String: Record], listing: [String: String],
    serverTexts: [String: String], list: String, deleteMissing: Bool, overwrite: Bool
  ) -> [Action] {
    var actions: [Action] = []
    for resource in local {
      let key = resource.key
      let record = records[key]
      guard let current = listing[key] else {
        actions.append(.create(key: key))
        continue
      }
      if let record, record.digest == resource.digest {
        actions.append(.keep(key: key, claim: EntityTag.usable(record.etag) == current))
        continue
      }
      if record == nil, let text = serverTexts[key],
        canonical(Array(text.utf8)) == canonical(resource.bytes)
      {
        actions.append(.adopt(key: key, etag: current))
        continue
      }
      let base = overwrite ? current : record?.etag
      guard record != nil || overwrite else {
        actions.append(.conflict(key: key, uid: resource.uid, .differsOnServer))
        continue
      }
      guard let etag = EntityTag.usable(base) else {
        actions.append(.conflict(key: key, uid: resource.uid, .noETag))
        continue
      }
      actions.append(.replace(key: key, etag: etag))
    }
    guard deleteMissing else { return actions }
    let kept = Set(local.map(\.key))
    for (key, record) in records.sorted(by: { $0.key < $1.key })
    where record.list == list && !kept.contains(key) {
      guard let current = listing[key] else {
        actions.append(.forget(key: key))
        continue
      }
      guard let recorded = EntityTag.usable(record.etag), recorded == current else {
        actions.append(.conflict(key: key, uid: record.uid, .changedBeforeDelete))
        continue
      }
      actions.append(.delete(key: key, etag: recorded))
    }
    return actions
  }

  /// The values of `names` on the one event, to-do or journal of `resource` (the first
  /// property of each name; a name it lacks is left out): what a push keeps of what it sent
  /// while the rest is unchanged. Nil when the resource holds more or fewer than one.
  public static func values(_ names: [String], of resource: CalendarResource) -> [String: String]? {
    guard let object = soleObject(of: resource) else { return nil }
    var values: [String: String] = [:]
    for name in names {
      if let value = resource.calendar.components[object].propertyValue(uppercased: name) {
        values[name] = value
      }
    }
    return values
  }

  /// `resource` with `values` put back on its one event, to-do or journal: each property named
  /// there takes that value, except that one named in `datesOnly` takes only its date (the
  /// first eight characters) and keeps its own time. Nil when the resource holds more or fewer
  /// than one object, or its object lacks one of the properties, or a date does not fit.
  public static func restoring(
    _ values: [String: String], datesOnly: Set<String> = [], in resource: CalendarResource
  ) -> CalendarResource? {
    guard let object = soleObject(of: resource) else { return nil }
    var copy = resource
    var properties = copy.calendar.components[object].properties
    for (name, value) in values {
      guard let index = properties.firstIndex(where: { $0.name == name }) else { return nil }
      if datesOnly.contains(name) {
        let own = properties[index].value
        guard let date = datePart(value), datePart(own) != nil else { return nil }
        properties[index].value = date + own.dropFirst(8)
      } else {
        properties[index].value = value
      }
    }
    copy.calendar.components[object].properties = properties
    return copy
  }

  /// The first eight characters of a DATE or DATE-TIME value, when they are digits.
  private static func datePart(_ value: String) -> String? {
    let date = value.prefix(8)
    guard date.count == 8, date.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return String(date)
  }

  /// The index of the one event, to-do or journal among the resource's components.
  private static func soleObject(of resource: CalendarResource) -> Int? {
    let objects = resource.calendar.components.indices.filter {
      CalendarResources.objectKinds.contains(resource.calendar.components[$0].name)
    }
    return objects.count == 1 ? objects[0] : nil
  }

  /// iCalendar text as servers may store it unchanged in meaning: line ends, folding and the
  /// order of content lines within a component (Radicale and Xandikos reorder properties) do
  /// not count, nor does DTSTAMP, which says when a copy was made (RFC 5545 §3.8.7.2), not
  /// what it holds, nor how a TRIGGER's or DURATION's length is written (a day counts as 24
  /// hours, as servers that store a length as seconds keep it). Each component becomes its
  /// BEGIN line, its sorted lines and children, and its END line.
  public static func canonical(_ bytes: [UInt8]) -> String {
    let text = String(decoding: normalized(bytes), as: UTF8.self)
    var open: [(name: String, lines: [String])] = [("", [])]
    for piece in text.split(separator: "\n", omittingEmptySubsequences: true) {
      let line = String(piece)
      let upper = line.uppercased()
      if upper.hasPrefix("BEGIN:") {
        open.append((String(upper.dropFirst(6)), []))
      } else if upper.hasPrefix("END:"), open.count > 1 {
        let block = open.removeLast()
        let whole = ["BEGIN:" + block.name] + block.lines.sorted() + ["END:" + block.name]
        open[open.count - 1].lines.append(whole.joined(separator: "\n"))
      } else if !upper.hasPrefix("DTSTAMP:") && !upper.hasPrefix("DTSTAMP;") {
        open[open.count - 1].lines.append(durationInSeconds(line))
      }
    }
    while open.count > 1 {
      let block = open.removeLast()
      open[open.count - 1].lines += ["BEGIN:" + block.name] + block.lines
    }
    return open[0].lines.sorted().joined(separator: "\n")
  }

  /// A TRIGGER or DURATION line with its duration as seconds (a day as 86,400): Xandikos
  /// stores `PT0S` as `P0D` and `PT60M` as `PT1H`. Other lines unchanged.
  private static func durationInSeconds(_ line: String) -> String {
    let name = line.prefix { $0 != ";" && $0 != ":" }.uppercased()
    guard name == "TRIGGER" || name == "DURATION" else { return line }
    var quoted = false
    for index in line.indices {
      let character = line[index]
      if character == "\"" { quoted.toggle() }
      guard character == ":", !quoted else { continue }
      guard let duration = ICalDuration(String(line[line.index(after: index)...])) else {
        return line
      }
      return line[..<index] + ":" + String(duration.signedDays * 86_400 + duration.signedSeconds)
        + "s"
    }
    return line
  }

  /// iCalendar text with LF line ends, folded lines joined and trailing line ends dropped: how
  /// a server's copy is compared with what would be sent.
  public static func normalized(_ bytes: [UInt8]) -> [UInt8] {
    var lines: [UInt8] = []
    lines.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n")
      {
        index += 1
        continue
      }
      if byte == UInt8(ascii: "\n"), index + 1 < bytes.count,
        bytes[index + 1] == UInt8(ascii: " ") || bytes[index + 1] == UInt8(ascii: "\t")
      {
        index += 2
        continue
      }
      lines.append(byte)
      index += 1
    }
    while lines.last == UInt8(ascii: "\n") { lines.removeLast() }
    return lines
  }
}
