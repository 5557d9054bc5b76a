import CalDAV
import Foundation
import ICalendar

extension PullCommand {
  /// The resources of the file pulled into before, split as push splits them: which of them
  /// changed since they were last pulled or pushed (their digest, taken as push takes it, is
  /// not the recorded one), and which no record names (added here).
  struct LocalCopy {
    /// The resources by UID.
    var byUID: [String: CalendarResource] = [:]
    /// The recorded paths whose resource this file changed.
    var changed: Set<String> = []
    /// The resources no record names, in file order.
    var added: [CalendarResource] = []

    /// The copy in `file`; an empty one when there is no file. A file that cannot be read or
    /// split is a failure: writing over it would lose what it holds.
    static func read(
      _ file: String, known: CalDAVState.Collection, maximumBytes: Int, context: ToolContext
    ) throws(CommandFailure) -> LocalCopy {
      var copy = LocalCopy()
      guard FileManager.default.fileExists(atPath: file) else { return copy }
      let bytes: [UInt8]
      do {
        bytes = try InputFile.read(file, maximumBytes: maximumBytes, context: context)
      } catch {
        throw CommandFailure(.noInput, error.message)
      }
      if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
        return copy
      }
      if let failure = InputFile.checkUTF8(bytes) {
        throw CommandFailure(.badData, "\(file):\(failure.line): not UTF-8 text; not overwritten")
      }
      let resources: [CalendarResource]
      do {
        resources = try CalendarResources.split(try ICalendarReader.read(bytes))
      } catch let error as ICalendarSyntaxError {
        throw CommandFailure(.badData, "\(file):\(error.line): \(error.message); not overwritten")
      } catch {
        throw CommandFailure(.badData, "\(file): \(error); not overwritten")
      }
      var pathOfUID: [String: String] = [:]
      for (path, entry) in known.resources where !entry.uid.isEmpty { pathOfUID[entry.uid] = path }
      for resource in resources {
        copy.byUID[resource.uid] = resource
        guard let path = pathOfUID[resource.uid], let entry = known.resources[path] else {
          copy.added.append(resource)
          continue
        }
        if pushedDigest(resource, entry) != entry.digest { copy.changed.insert(path) }
      }
      return copy
    }

    /// The digest push would record for `resource` sent under `entry`; `stamp`: the DTSTAMP
    /// of the list export that made it (push then sends the values it kept,
    /// ``PushCommand/Run/stable(_:_:madeAt:)``).
    static func pushedDigest(
      _ resource: CalendarResource, _ entry: CalDAVState.Resource, madeAt stamp: String? = nil
    ) -> String {
      let sent = entry.marked ? PushCommand.marked(resource, list: entry.list ?? "") : resource
      return PushCommand.Run.stable(sent, entry, madeAt: stamp).digest
    }
  }

  /// One pull: reads what changed on the server, merges it with the local copy (a local change
  /// that was not pushed is kept; one the server changed too is a conflict) and records it.
  struct Merge {
    let collection: URL
    var known: CalDAVState.Collection
    let local: LocalCopy
    /// Which side a resource changed here and on the server takes; nil: this file's, and a
    /// conflict is reported.
    var keep: Keep? = nil
    /// Whether the resources the local copy lacks need no text of their own (a JSON list keeps
    /// other items of the collection out): they are not read again on every pull.
    var othersStayOut = false
    /// The server's text of each path read now.
    var texts: [String: String] = [:]
    /// The conflict lines to print.
    var conflicts: [String] = []
    /// The lines that say how a conflict was settled by ``keep``.
    var settled: [String] = []

    /// Writes what was settled (notes) and what conflicts (errors: the exit status is 1).
    func report(_ report: Report) {
      for line in settled { report.note(line) }
      for line in conflicts { report.error(line) }
    }
    /// The paths (of ``texts``) where the server's version replaced a change made here.
    var replacedHere: Set<String> = []
    /// The paths of conflicts whose server copy is newer than the record: the next pull reads
    /// them again (its token no longer names them), so `--keep` can settle them then.
    private var unsettled: [String] = []
    /// The paths whose file text is the local copy's.
    private var kept: Set<String> = []
    /// Local changes to resources the server deleted: kept in the file with no record.
    private var orphans: [CalendarResource] = []

    init(collection: URL, known: CalDAVState.Collection, local: LocalCopy) {
      self.collection = collection
      self.known = known
      self.local = local
    }

    /// The local resource recorded at `path`.
    private func localResource(at path: String) -> CalendarResource? {
      known.resources[path].flatMap { local.byUID[$0.uid] }
    }

    /// Reads the changes since the token (or everything) and applies them to ``known``; gives
    /// the summary line.
    mutating func read(_ session: CalDAVSession) throws(DAVError) -> String {
      if let token = known.syncToken,
        let changes = try session.changes(in: collection, since: token)
      {
        var wanted: [String] = known.pending ?? []
        for object in changes.changed {
          let path = object.url.path(percentEncoded: true)
          let recorded = known.resources[path].flatMap { EntityTag.usable($0.etag) }
          // This client's own write (a push's) comes back with the ETag it recorded.
          if recorded == nil || recorded != EntityTag.usable(object.etag) { wanted.append(path) }
        }
        var removed = Set(changes.removed.map { $0.path(percentEncoded: true) })
        // A server may leave out of its report a resource made and deleted since the token
        // (Xandikos does, for one a push wrote): the listing says what is still there.
        let listed = Set(
          try session.members(of: collection).map { $0.url.path(percentEncoded: true) })
        for path in known.resources.keys where !listed.contains(path) { removed.insert(path) }
        // A resource with no local text to stand for it is read again.
        for (path, entry) in known.resources
        where !othersStayOut && localResource(at: path) == nil && entry.data == nil
          && !removed.contains(path)
        {
          wanted.append(path)
        }
        let urls = Set(wanted).sorted().compactMap { CollectionScope(collection)?.member($0) }
        let fetched = try session.calendarObjects(at: urls, in: collection)
        let got = Set(fetched.map { $0.url.path(percentEncoded: true) })
        var gone = removed
        for url in urls where !got.contains(url.path(percentEncoded: true)) {
          gone.insert(url.path(percentEncoded: true))
        }
        let removedCount = gone.filter { known.resources[$0] != nil }.count
        for path in gone.sorted() { drop(path) }
        for object in fetched { take(object) }
        known.syncToken = changes.token
        known.pending = unsettled.isEmpty ? nil : unsettled.sorted()
        return "pulled: \(fetched.count) changed, \(removedCount) removed (sync-collection)\n"
      }
      // The token first: a change made during the read is then fetched again next time.
      let token = try session.syncToken(of: collection)
      let objects = try session.calendarObjects(in: collection)
      let got = Set(objects.map { $0.url.path(percentEncoded: true) })
      for path in known.resources.keys.sorted() where !got.contains(path) { drop(path) }
      for object in objects { take(object) }
      known.syncToken = token
      known.pending = unsettled.isEmpty ? nil : unsettled.sorted()
      return "pulled: \(objects.count) resources (full read)\n"
    }

    /// The server no longer has `path`: it goes, unless this file changed it.
    private mutating func drop(_ path: String) {
      guard let entry = known.resources[path] else { return }
      known.resources[path] = nil
      if local.changed.contains(path), let resource = local.byUID[entry.uid] {
        if keep == .server {
          replacedHere.insert(path)
          settle(entry.uid, path, "deleted on the server; removed here too (--keep server)")
          return
        }
        orphans.append(resource)
        if keep == .local {
          settle(
            entry.uid, path, "deleted on the server; this file's version is kept (--keep local)")
          return
        }
        conflict(
          entry.uid, path,
          "changed here and deleted on the server; this file's version is kept ('push' sends it again)"
        )
      }
    }

    /// The server's `object`: taken, unless this file changed it (a conflict too when the
    /// server changed it since).
    private mutating func take(_ object: CalendarObject) {
      let path = object.url.path(percentEncoded: true)
      let old = known.resources[path]
      let unchanged =
        old.map { EntityTag.usable($0.etag) != nil && $0.etag == object.etag } == true
      if let old, local.changed.contains(path), unchanged || keep != .server {
        if !unchanged, keep == .local {
          // This file's version stays, based on the server's: push sends it over this ETag.
          known.resources[path]?.etag = object.etag
          settle(
            old.uid, path, "changed on the server too; this file's version is kept (--keep local)")
        } else if !unchanged {
          unsettled.append(path)
          conflict(
            old.uid, path,
            "changed here and on the server; this file's version is kept (pull --keep local keeps it for push to send, pull --keep server takes the server's)"
          )
        }
        return
      }
      guard let data = object.data else { return }
      if let old, local.changed.contains(path) {
        replacedHere.insert(path)
        settle(old.uid, path, "changed here too; the server's version is taken (--keep server)")
      }
      texts[path] = data
      known.resources[path] = CalDAVState.Resource(
        uid: old?.uid ?? "", etag: object.etag, digest: "",
        marked: unchanged ? (old?.marked ?? false) : false, data: nil,
        list: unchanged ? old?.list : nil)
    }

    private mutating func settle(_ uid: String, _ path: String, _ how: String) {
      let url = CollectionScope(collection)?.member(path)?.absoluteString ?? path
      settled.append("settled: \(WriteRefusal.escaped(uid)) (\(url)): \(how)")
    }

    private mutating func conflict(_ uid: String, _ path: String, _ why: String) {
      let url = CollectionScope(collection)?.member(path)?.absoluteString ?? path
      conflicts.append("conflict: \(WriteRefusal.escaped(uid)) (\(url)): \(why)")
    }

    /// The merged calendar's bytes: the server's text of each path read now, the local copy's
    /// of the others, then the resources added here; the records' UIDs and digests are set
    /// from it (a kept local change keeps the digest and ETag it was based on, so push sends
    /// it over that ETag).
    mutating func write() throws(CollectionCalendar.UnreadableResource) -> [UInt8] {
      var parts: [(path: String, calendars: [ICalComponent])] = []
      var serverUIDs: [String: String] = [:]
      for (path, entry) in known.resources.sorted(by: { $0.key < $1.key }) {
        if let text = texts[path] {
          let read = try CollectionCalendar.calendars(of: text, path: path, collection: collection)
          parts.append((path, read))
          for member in read.flatMap(\.components) {
            if let uid = member.propertyValue(uppercased: "UID") { serverUIDs[uid] = path }
          }
        } else if let resource = local.byUID[entry.uid] {
          kept.insert(path)
          parts.append((path, [resource.calendar]))
        } else if let data = entry.data {
          parts.append(
            (path, try CollectionCalendar.calendars(of: data, path: path, collection: collection)))
        }
      }
      var added = orphans.map(\.calendar)
      for resource in local.added {
        guard let path = serverUIDs[resource.uid] else {
          added.append(resource.calendar)  // new here, not pushed yet
          continue
        }
        let theirs = texts[path].map { SyncPlan.canonical(Array($0.utf8)) }
        if theirs == SyncPlan.canonical(resource.bytes) { continue }
        // Two versions, neither based on the other: this file's is kept, the server's is read
        // again by the next pull.
        parts.removeAll { $0.path == path }
        known.resources[path] = nil
        known.pending = (known.pending ?? []) + [path]
        added.append(resource.calendar)
        conflict(
          resource.uid, path,
          "exists on the server with other content but was not pulled here; this file's version is kept (push --overwrite replaces the server's copy)"
        )
      }
      let joined = CalendarResources.join(parts.flatMap(\.calendars) + added)
      var printer = ICalendarPrinter()
      for calendar in joined { printer.write(calendar) }
      let bytes = printer.takeBytes()
      try recordDigests(of: bytes, parts: parts)
      return bytes
    }

    /// Sets each record's UID and digest from the written `bytes` (made of `parts`, by path):
    /// what push would send for each resource, so an unchanged one is not sent again.
    private mutating func recordDigests(
      of bytes: [UInt8], parts: [(path: String, calendars: [ICalComponent])]
    ) throws(CollectionCalendar.UnreadableResource) {
      var pathOfUID: [String: String] = [:]
      for (path, calendars) in parts {
        for member in calendars.flatMap(\.components) {
          if let uid = member.propertyValue(uppercased: "UID") { pathOfUID[uid] = path }
        }
      }
      let again: [CalendarResource]
      do {
        again = try CalendarResources.split(try ICalendarReader.read(bytes))
      } catch {
        throw CollectionCalendar.UnreadableResource(
          message: "\(collection.absoluteString): \(error)")
      }
      for resource in again {
        guard let path = pathOfUID[resource.uid], let entry = known.resources[path] else {
          continue
        }
        known.resources[path]?.uid = resource.uid
        known.resources[path]?.data = nil
        if kept.contains(path) && local.changed.contains(path) { continue }
        known.resources[path]?.digest = LocalCopy.pushedDigest(resource, entry)
      }
    }
  }
}
