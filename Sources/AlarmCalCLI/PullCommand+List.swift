import AlarmCal
import CalDAV
import Foundation
import ICalendar

extension PullCommand {
  /// A pull into a JSON alarm list: the server's changes to the list's alarms are written into
  /// their records, in each record's own shape; the calendar's other items stay out.
  ///
  /// Which resources are the list's: those whose UID is the id of one of its alarms (the UID
  /// push exports it with). A record changed here is told as push tells it: the list is
  /// exported at the moments and zone the last push recorded (``CalDAVState/ListExport``), and
  /// a resource's digest, taken as push takes it, is not the recorded one.
  struct ListPull {
    let options: Options
    var state: CalDAVState
    var known: CalDAVState.Collection

    /// Whether `file` is (or is to be) a JSON alarm list: its name ends in `.json`, or, with no
    /// telling name, it holds JSON.
    static func isList(_ file: String) -> Bool {
      if let format = ConvertCommand.Format(pathExtension: file) { return format == .json }
      guard let handle = FileHandle(forReadingAtPath: file) else { return false }
      defer { try? handle.close() }
      return AlarmListInput.isList(InputFile.readBytes(from: handle, upTo: 4096), file: file)
    }

    /// The zone of the system, for a list no push recorded one for.
    private static var systemZone: String {
      SystemZone.rules.identifier
    }

    /// The list's name: `--list`, else the file's name without extension (as push names it).
    private var listName: String {
      options.namedList
        ?? URL(fileURLWithPath: options.output).deletingPathExtension().lastPathComponent
    }

    /// The list in the output file; nil when there is none yet, or only white space. A list
    /// that cannot be read is a failure: writing over it would lose what it holds.
    private func readList(zone: String, context: ToolContext) throws(CommandFailure)
      -> AlarmListFile?
    {
      let file = options.output
      guard FileManager.default.fileExists(atPath: file) else { return nil }
      let bytes: [UInt8]
      do {
        bytes = try InputFile.read(file, maximumBytes: options.maximumBytes, context: context)
      } catch {
        throw CommandFailure(.noInput, error.message)
      }
      if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return nil }
      switch AlarmListFile.read(bytes, file: file, zone: zone) {
      case .success(let read): return read
      case .failure(let failure):
        throw CommandFailure(.badData, lines: failure.lines.map { "\($0); not overwritten" })
      }
    }

    mutating func run(context: ToolContext) throws(CommandFailure) -> ExitCode {
      let file = options.output
      let seconds = Int64(context.clock().timeIntervalSince1970.rounded(.down))
      let export =
        known.listExport
        ?? CalDAVState.ListExport(
          now: seconds, timestamp: seconds, zone: Self.systemZone)
      let list = try readList(zone: export.zone, context: context)
      let local: LocalCopy
      do {
        local = try localCopy(of: list, export: export)
      } catch {
        throw CommandFailure(.badData, "\(file): \(error.message); not overwritten")
      }
      let session = try options.connection.session(context: context)
      let collection = options.connection.collectionURL
      var merge = Merge(collection: collection, known: known, local: local)
      merge.keep = options.keep
      merge.othersStayOut = list != nil
      let summary: String
      do {
        summary = try merge.read(session)
      } catch {
        throw CalDAVConnection.failure(error)
      }
      let written: Written
      do {
        if let list {
          written = try merged(list, with: &merge, export: export)
        } else {
          written = try fresh(from: &merge, seconds: seconds)
        }
      } catch {
        throw CommandFailure(.badData, error.message)
      }
      state.collections[collection.absoluteString] = merge.known
      do {
        try AtomicFile.write(written.bytes, to: file)
        try state.save(for: file, list: options.namedList)
      } catch {
        throw CommandFailure(.ioError, error.message)
      }
      for line in written.warnings { context.report.warning(line) }
      merge.report(context.report)
      context.standardOutput.write(summary)
      if written.outside > 0 {
        let noun = written.outside == 1 ? "item in the calendar is" : "items in the calendar are"
        context.standardOutput.write("\(written.outside) \(noun) not in this list\n")
      }
      return merge.conflicts.isEmpty ? .success : .problemsFound
    }

    /// The list's new bytes, how many of the calendar's items stay out of it, and warnings.
    struct Written {
      var bytes: [UInt8]
      var outside: Int
      var warnings: [String] = []
    }

    /// The list in `bytes` exported as push exports it at the moments of `export`, split as
    /// push splits it.
    private func resources(ofList bytes: [UInt8], export: CalDAVState.ListExport)
      throws(CollectionCalendar.UnreadableResource) -> [CalendarResource]
    {
      let calendar: [UInt8]
      switch AlarmListInput.calendarBytes(
        bytes, file: options.output, zone: TimeZoneRules(identifier: export.zone) ?? .utc,
        now: Instant(secondsSince1970: export.now),
        timestamp: Instant(secondsSince1970: export.timestamp), warnings: nil)
      {
      case .success(let exported): calendar = exported
      case .failure(let failure):
        throw CollectionCalendar.UnreadableResource(message: failure.lines.joined(separator: "; "))
      }
      do {
        return try CalendarResources.split(try ICalendarReader.read(calendar))
      } catch {
        throw CollectionCalendar.UnreadableResource(message: "\(error)")
      }
    }

    /// The list's resources, and which of them changed here since the last push or pull.
    private func localCopy(of list: AlarmListFile?, export: CalDAVState.ListExport)
      throws(CollectionCalendar.UnreadableResource) -> LocalCopy
    {
      var copy = LocalCopy()
      guard let list else { return copy }
      var pathOfUID: [String: String] = [:]
      for (path, entry) in known.resources where !entry.uid.isEmpty { pathOfUID[entry.uid] = path }
      for resource in try resources(ofList: list.bytes, export: export) {
        copy.byUID[resource.uid] = resource
        guard let path = pathOfUID[resource.uid], let entry = known.resources[path] else {
          copy.added.append(resource)
          continue
        }
        if LocalCopy.pushedDigest(resource, entry, madeAt: export.stamp) != entry.digest {
          copy.changed.insert(path)
        }
      }
      return copy
    }

    /// The UIDs of the resources `calendars` split into.
    private static func uids(in calendars: [ICalComponent]) -> [String] {
      ((try? CalendarResources.split(calendars)) ?? []).map(\.uid)
    }

    /// The existing list with the server's changes to its alarms and tasks written in.
    private mutating func merged(
      _ list: AlarmListFile, with merge: inout Merge, export: CalDAVState.ListExport
    ) throws(CollectionCalendar.UnreadableResource) -> Written {
      let collection = options.connection.collectionURL
      let importer = AlarmImporter(
        fileName: collection.absoluteString, defaultTimeZone: export.zone,
        now: Instant(secondsSince1970: export.now))
      let index = Self.offsets(list.alarms.map(\.id))
      let taskIndex = list.taskRecords.isEmpty ? [:] : Self.offsets(list.tasks.map(\.id))
      var edits: [Int: AlarmListFile.Edit<Alarm>] = [:]
      var taskEdits: [Int: AlarmListFile.Edit<ToDo>] = [:]
      var warnings: [String] = []
      for (path, text) in merge.texts.sorted(by: { $0.key < $1.key }) {
        guard let calendars = try? ICalendarReader.read(Array(CollectionCalendar.crlf(text).utf8)),
          let uid = Self.uids(in: calendars).first
        else { continue }
        merge.known.resources[path]?.uid = uid
        guard index[uid] != nil || taskIndex[uid] != nil else { continue }
        let imported: ImportResult
        do {
          imported = try importer.importAlarms(from: calendars)
        } catch {
          throw CollectionCalendar.UnreadableResource(
            message: "\(collection.absoluteString)\(path): \(error)")
        }
        let found = Self.change(
          of: uid, in: imported, list: list, alarmAt: index[uid], taskAt: taskIndex[uid])
        if let warning = found.warning { warnings.append(warning) }
        guard let change = found.change, !Self.keptAsNeverPulled(uid, at: path, in: &merge)
        else { continue }
        switch change {
        case .task(let offset, let theirs): taskEdits[offset] = .replace(theirs)
        case .alarm(let offset, let theirs):
          // Never a silent loss: what the record's shape cannot hold of the server's version.
          let unheld = list.omissions(ofRecord: offset, for: theirs)
          if !unheld.isEmpty { warnings.append(Self.unheld(uid, unheld)) }
          edits[offset] = .replace(theirs)
        }
      }
      // An item of this list the server no longer has leaves it, unless changed here and kept.
      for (path, entry) in known.resources where merge.known.resources[path] == nil {
        if merge.local.changed.contains(path) && merge.keep != .server { continue }
        if let offset = index[entry.uid] { edits[offset] = .remove }
        if let offset = taskIndex[entry.uid] { taskEdits[offset] = .remove }
      }
      let bytes = try list.edited(edits, tasks: taskEdits)
      try record(bytes, in: &merge, export: export)
      // A removed item's resource is no longer recorded, so it counts neither way.
      let inList = Set(list.alarms.map(\.id)).union(list.tasks.map(\.id))
      let outside = merge.known.resources.values.filter { !inList.contains($0.uid) }.count
      return Written(bytes: bytes, outside: outside, warnings: warnings)
    }

    /// Whether the list's version of `uid` is kept because it was added here and never pulled:
    /// two versions, neither based on the other, so a conflict (unless `--keep server`).
    private static func keptAsNeverPulled(_ uid: String, at path: String, in merge: inout Merge)
      -> Bool
    {
      guard merge.local.added.contains(where: { $0.uid == uid }) && merge.keep != .server
      else { return false }
      merge.known.resources[path] = nil
      merge.known.pending = (merge.known.pending ?? []) + [path]
      merge.conflicts.append(
        "conflict: \(WriteRefusal.escaped(uid)) (\(merge.collection.absoluteString)): exists on the server with other content but was not pulled here; this list's version is kept (push --overwrite replaces the server's copy)"
      )
      return true
    }

    /// A record of the list (by its index) that the server's version changes.
    private enum ServerChange {
      case alarm(Int, Alarm)
      case task(Int, ToDo)
    }

    /// Each id's position in `ids`.
    private static func offsets(_ ids: [String]) -> [String: Int] {
      var offsets: [String: Int] = [:]
      for (offset, id) in ids.enumerated() { offsets[id] = offset }
      return offsets
    }

    /// The server's version of the list's record `uid` (the task at `taskAt`, else the alarm
    /// at `alarmAt`) when it differs from the record; a warning when `imported` lacks it.
    private static func change(
      of uid: String, in imported: ImportResult, list: AlarmListFile, alarmAt: Int?,
      taskAt: Int?
    ) -> (change: ServerChange?, warning: String?) {
      if let offset = taskAt {
        guard let theirs = imported.tasks.first(where: { $0.id == uid }) else {
          return (nil, notKept(uid, kind: "task"))
        }
        return (theirs == list.tasks[offset] ? nil : .task(offset, theirs), nil)
      }
      guard let offset = alarmAt else { return (nil, nil) }
      guard let theirs = imported.alarms.first(where: { $0.id == uid }) else {
        return (nil, notKept(uid, kind: "alarm"))
      }
      guard list.holds(theirs, atRecord: offset) else { return (.alarm(offset, theirs), nil) }
      // Nothing the record can hold differs; what it cannot is still said, never lost silently.
      let unheld =
        theirs == list.alarms[offset] ? [] : list.omissions(ofRecord: offset, for: theirs)
      return (nil, unheld.isEmpty ? nil : Self.unheld(uid, unheld))
    }

    /// The warning for what the record of `uid` cannot hold of the server's version.
    private static func unheld(_ uid: String, _ notes: [String]) -> String {
      notes.map { "\(WriteRefusal.escaped(uid)): the server's version \($0)" }
        .joined(separator: "; ")
    }

    /// The warning for a resource of this list whose server version holds no such item.
    private static func notKept(_ uid: String, kind: String) -> String {
      "\(WriteRefusal.escaped(uid)): the server's version is no \(kind); this list's record is kept"
    }

    /// A new list in alarmcal's shape of the calendar's alarms.
    private mutating func fresh(from merge: inout Merge, seconds: Int64)
      throws(CollectionCalendar.UnreadableResource) -> Written
    {
      let collection = options.connection.collectionURL
      let export = CalDAVState.ListExport(
        now: seconds, timestamp: seconds, zone: Self.systemZone)
      let texts = merge.texts.map { (path: $0.key, text: $0.value) }
      let joined = try CollectionCalendar.joined(texts, collection: collection)
      for (path, uid) in joined.uidOfPath { merge.known.resources[path]?.uid = uid }
      let imported: ImportResult
      do {
        imported = try AlarmImporter(
          fileName: collection.absoluteString, defaultTimeZone: export.zone,
          now: Instant(secondsSince1970: seconds)
        ).importAlarms(fromUTF8: joined.bytes)
      } catch {
        throw CollectionCalendar.UnreadableResource(message: "\(error)")
      }
      let bytes = AlarmFileWriter.bytes(imported.alarms, tasks: imported.tasks)
      try record(bytes, in: &merge, export: export)
      let inList = Set(imported.alarms.map(\.id)).union(imported.tasks.map(\.id))
      let outside = merge.known.resources.values.filter { !inList.contains($0.uid) }.count
      return Written(bytes: bytes, outside: outside)
    }

    /// Records the digest push would send for each alarm of the written list `list` (a change kept
    /// here keeps the digest and ETag it was based on, so push sends it over that ETag), and
    /// the moments it was exported at.
    private func record(
      _ list: [UInt8], in merge: inout Merge, export: CalDAVState.ListExport
    ) throws(CollectionCalendar.UnreadableResource) {
      var pathOfUID: [String: String] = [:]
      for (path, entry) in merge.known.resources where !entry.uid.isEmpty {
        pathOfUID[entry.uid] = path
      }
      for resource in try resources(ofList: list, export: export) {
        guard let path = pathOfUID[resource.uid], let entry = merge.known.resources[path] else {
          continue
        }
        merge.known.resources[path]?.data = nil
        merge.known.resources[path]?.list = listName
        if merge.texts[path] == nil && merge.local.changed.contains(path) { continue }
        merge.known.resources[path]?.digest = LocalCopy.pushedDigest(
          resource, entry, madeAt: export.stamp)
      }
      merge.known.listExport = export
    }
  }
}
