import CalDAV
import Foundation
import ICalendar

extension PushCommand {
  /// One push under way: it reads the server, asks ``SyncPlan`` what to do, does it, and
  /// records what was done in `known`.
  struct Run {
    let collection: URL
    let list: String
    var known: CalDAVState.Collection
    let session: CalDAVSession
    let context: ToolContext
    var tally = Tally()
    /// The DTSTAMP an alarm list's export writes in this push (from `--now`, or
    /// `SOURCE_DATE_EPOCH`): a resource that carries it was made by this push, and only such
    /// a resource keeps what was last sent (a file's own values are sent as they are).
    let exportStamp: String

    init(
      collection: URL, list: String, known: CalDAVState.Collection, session: CalDAVSession,
      exportStamp: String, context: ToolContext
    ) {
      self.collection = collection
      self.list = list
      self.known = known
      self.session = session
      self.exportStamp = exportStamp
      self.context = context
    }

    /// What the plan needs of one local resource besides its key, and where it goes.
    struct Outgoing {
      let resource: CalendarResource
      let path: String
      let url: URL
      let body: [UInt8]
      let digest: String
      let marked: Bool
      /// The values of ``Run/keptNames(of:)`` in `body`.
      let kept: [String: String]?
    }

    mutating func push(_ resources: [CalendarResource], deleteMissing: Bool, overwrite: Bool)
      throws(DAVError)
    {
      guard let scope = CollectionScope(collection) else { return }
      // The token before anything is read or written: a change another client makes from now
      // on is in the next pull's sync-collection report, one made before is in the listing.
      let token = (try? session.syncToken(of: collection)) ?? nil
      var listing: [String: String] = [:]
      var hrefOf: [String: String] = [:]
      for member in try session.members(of: collection) {
        listing[member.url.path] = member.etag
        hrefOf[member.url.path] = member.url.path(percentEncoded: true)
      }
      // Paths compared percent-decoded: servers encode `@` and the like differently.
      var records: [String: SyncPlan.Record] = [:]
      for (path, entry) in known.resources {
        guard let key = scope.member(path)?.path else { continue }
        hrefOf[key] = path
        records[key] = SyncPlan.Record(
          uid: entry.uid, etag: entry.etag, digest: entry.digest, list: entry.list)
      }
      var outgoing: [String: Outgoing] = [:]
      var local: [SyncPlan.Local] = []
      for (resource, path) in zip(resources, hrefs(for: resources, in: collection, known: known)) {
        // The state's paths were checked when it was read; the others are `<UID>.ics`.
        guard let url = scope.member(path) else { continue }
        let entry = known.resources[path]
        let mark = entry?.marked ?? true
        let (body, digest, kept) = Self.stable(
          mark ? marked(resource, list: list) : resource, entry, madeAt: exportStamp)
        let key = url.path
        if hrefOf[key] == nil { hrefOf[key] = path }
        outgoing[key] = Outgoing(
          resource: resource, path: hrefOf[key] ?? path, url: url, body: body, digest: digest,
          marked: mark, kept: kept)
        local.append(SyncPlan.Local(key: key, uid: resource.uid, bytes: body, digest: digest))
      }
      var serverTexts: [String: String] = [:]
      let unknown = SyncPlan.unrecorded(local: local, records: records, listing: listing)
      if !unknown.isEmpty {
        let urls = unknown.compactMap { outgoing[$0]?.url }
        for object in try session.calendarObjects(at: urls, in: collection) {
          if let data = object.data { serverTexts[object.url.path] = data }
        }
      }
      let actions = SyncPlan.actions(
        local: local, records: records, listing: listing, serverTexts: serverTexts, list: list,
        deleteMissing: deleteMissing, overwrite: overwrite)
      var written: Set<String> = []
      defer {
        remember(token: token, listing: listing, hrefOf: hrefOf, written: written, scope: scope)
      }
      for action in actions {
        if let key = try perform(action, outgoing: outgoing, hrefOf: hrefOf, scope: scope) {
          written.insert(key)
        }
      }
    }

    /// Does one action of the plan; gives the key of what it wrote on the server, if it did.
    private mutating func perform(
      _ action: SyncPlan.Action, outgoing: [String: Outgoing], hrefOf: [String: String],
      scope: CollectionScope
    ) throws(DAVError) -> String? {
      switch action {
      case .keep(let key, let claim):
        tally.unchanged += 1
        if claim, let path = hrefOf[key] { known.resources[path]?.list = list }
      case .adopt(let key, let etag):
        guard let item = outgoing[key] else { return nil }
        tally.unchanged += 1
        record(item, etag: etag)
      case .create(let key):
        guard let item = outgoing[key] else { return nil }
        return try write(item, replacing: nil) ? key : nil
      case .replace(let key, let etag):
        guard let item = outgoing[key] else { return nil }
        return try write(item, replacing: etag) ? key : nil
      case .delete(let key, let etag):
        guard let path = hrefOf[key], let url = scope.member(path) else { return nil }
        let uid = known.resources[path]?.uid ?? path
        switch try session.delete(url, etag: etag) {
        case .conflict:
          conflict(uid, url, "changed on the server while deleting; kept")
        case .refused(let refusal):
          refused(uid, url, refusal)
        case .done:
          tally.deleted += 1
          known.resources[path] = nil
          return key
        }
      case .forget(let key):
        if let path = hrefOf[key] { known.resources[path] = nil }
      case .conflict(let key, let uid, let why):
        let url = outgoing[key]?.url ?? hrefOf[key].flatMap { scope.member($0) } ?? collection
        conflict(uid, url, Self.reason(why))
      }
      return nil
    }

    /// The bytes to send of `resource`, their digest, and the values of its
    /// ``keptNames(of:)`` in them. A
    /// resource made by this push (its DTSTAMP is `stamp`) that differs from what was last
    /// sent in those values alone is sent with the values `entry` records, which is what was
    /// sent: unchanged, so an alarm list exported again at a later `--now` sends nothing. A
    /// once-ringing alarm thus keeps the date its first push gave it until anything else of
    /// it changes; then it rings at its next time after this `--now`. Any other resource is
    /// sent as it is, and keeps nothing.
    static func stable(
      _ resource: CalendarResource, _ entry: CalDAVState.Resource?, madeAt stamp: String?
    ) -> (bytes: [UInt8], digest: String, kept: [String: String]?) {
      let bytes = resource.bytes
      guard let stamp, let values = SyncPlan.values(keptNames(of: resource), of: resource),
        values["DTSTAMP"] == stamp
      else { return (bytes, CalDAVState.digest(bytes), nil) }
      if let entry, let recorded = entry.kept, Set(recorded.keys) == Set(values.keys),
        let before = SyncPlan.restoring(recorded, datesOnly: ["DTSTART"], in: resource)
      {
        let restored = before.bytes
        let digest = CalDAVState.digest(restored)
        if digest == entry.digest { return (restored, digest, recorded) }
      }
      return (bytes, CalDAVState.digest(bytes), values)
    }

    /// What a push keeps of what it last sent: DTSTAMP (when the copy was made, RFC 5545
    /// §3.8.7.2) and COMPLETED, which an alarm list's export takes from `--now`, and the
    /// DTSTART of an alarm marked `X-ALARMCAL-RINGS:ONCE` (the export dates it at its next
    /// ring after `--now`).
    static func keptNames(of resource: CalendarResource) -> [String] {
      let once = resource.calendar.components.contains {
        $0.name == "VEVENT" && $0.propertyValue(uppercased: "X-ALARMCAL-RINGS") == "ONCE"
          && !$0.hasProperty(uppercased: "RRULE") && !$0.hasProperty(uppercased: "RDATE")
      }
      return ["DTSTAMP", "COMPLETED"] + (once ? ["DTSTART"] : [])
    }

    /// PUTs one resource; whether it was written.
    private mutating func write(_ item: Outgoing, replacing etag: String?) throws(DAVError)
      -> Bool
    {
      switch try session.put(item.body, at: item.url, replacing: etag) {
      case .conflict:
        if etag == nil, let written = sentAlready(item) {
          tally.new += 1
          record(item, etag: written)
          return true
        }
        conflict(
          item.resource.uid, item.url,
          "changed on the server since it was read; not overwritten (pull first, or push --overwrite to replace the server's copy)"
        )
        return false
      case .refused(let refusal):
        refused(item.resource.uid, item.url, refusal)
        return false
      case .done(let newETag):
        if etag == nil { tally.new += 1 } else { tally.changed += 1 }
        // No ETag even when asked again: recorded as unknown, so the next change is a conflict.
        record(item, etag: newETag ?? "")
        return true
      }
    }

    /// The ETag of the server's copy of `item` when it is what was sent (as
    /// ``SyncPlan/canonical(_:)`` compares them): a create retried after a lost answer meets
    /// its own first attempt, whose 412 is then that write. Nil when it differs or cannot be
    /// read.
    private func sentAlready(_ item: Outgoing) -> String? {
      guard let objects = try? session.calendarObjects(at: [item.url], in: collection),
        let copy = objects.first(where: { $0.url.path == item.url.path }),
        let data = copy.data,
        SyncPlan.canonical(Array(data.utf8)) == SyncPlan.canonical(item.body)
      else { return nil }
      return copy.etag
    }

    private mutating func record(_ item: Outgoing, etag: String) {
      known.resources[item.path] = CalDAVState.Resource(
        uid: item.resource.uid, etag: etag, digest: item.digest, marked: item.marked, data: nil,
        list: list, kept: item.kept)
    }

    /// Keeps `token` (taken before the listing) with the paths whose server copy then differs
    /// from the record: added, changed or removed by another client, or left by a conflict or
    /// refusal. What this push wrote is in the token's changes with the ETag it recorded.
    private mutating func remember(
      token: String?, listing: [String: String], hrefOf: [String: String], written: Set<String>,
      scope: CollectionScope
    ) {
      known.syncToken = token
      guard token != nil else {
        known.pending = nil
        return
      }
      var pending: Set<String> = []
      for (key, etag) in listing where !written.contains(key) {
        guard let path = hrefOf[key] else { continue }
        let recorded = known.resources[path].flatMap { EntityTag.usable($0.etag) }
        if recorded == nil || recorded != EntityTag.usable(etag) { pending.insert(path) }
      }
      for path in known.resources.keys {
        guard let key = scope.member(path)?.path, !written.contains(key) else { continue }
        if listing[key] == nil { pending.insert(path) }
      }
      known.pending = pending.isEmpty ? nil : pending.sorted()
    }

    /// The words of a conflict the plan found.
    static func reason(_ conflict: SyncPlan.Conflict) -> String {
      switch conflict {
      case .noETag:
        return
          "its ETag was never given, so a change on the server cannot be ruled out; not overwritten"
      case .differsOnServer:
        return
          "exists on the server with other content but was not pushed or pulled here; not overwritten (pull first, or push --overwrite to replace the server's copy)"
      case .changedBeforeDelete:
        return "changed on the server since this list wrote it (or no ETag); kept"
      }
    }

    private mutating func conflict(_ name: String, _ url: URL, _ why: String) {
      tally.conflicts.append(name)
      context.report.error("conflict: \(name) (\(url.absoluteString)): \(why)")
    }

    private mutating func refused(_ name: String, _ url: URL, _ refusal: WriteRefusal) {
      tally.refused.append(name)
      context.report.error(
        "refused: \(WriteRefusal.escaped(name)) (\(url.absoluteString)): \(refusal.line)")
    }
  }
}
