import CalDAV
import Foundation
import ICalendar

/// What push and pull remember of a calendar collection for one local file, kept next to it in
/// `.NAME.caldav.json` (written atomically): each resource's href, UID, ETag and a digest of the
/// text alarmcal would send for it (so push and pull tell a local change), and the
/// collection's sync token with the paths it does not cover. Keyed by collection URL,
/// so one file can be pushed to several calendars.
struct CalDAVState: Codable, Equatable {
  /// One resource on the server as last seen.
  struct Resource: Codable, Equatable {
    /// The UID of its components.
    var uid: String
    /// Its ETag when last written or read; empty (or unusable) when the server gave none, so
    /// it counts as changed on the server: never overwritten, never deleted.
    var etag: String
    /// FNV-1a 64 of the text alarmcal would send for it (so an unchanged one is not sent).
    var digest: String
    /// Whether alarmcal put the `X-ALARMCAL-LIST` mark on it.
    var marked: Bool
    /// Its text as the server gave it, in state files older than the merging pull (which reads
    /// the file itself, and writes nil here): still the base of a resource the file lacks.
    var data: String?
    /// The list (`--list`) whose push created, wrote or adopted it; nil when it was only
    /// pulled, and in state files older than this field. Only a resource of this list with
    /// its ETag unchanged on the server may go with `--delete-missing`.
    var list: String? = nil
    /// The values push sent of the properties it keeps while the rest of the resource is
    /// unchanged (DTSTAMP, COMPLETED, a once-ringing alarm's DTSTART, whose date alone is put
    /// back), by name;
    /// nil when it was only pulled, and in state files older than this field.
    var kept: [String: String]? = nil
  }

  /// What is known of one collection.
  struct Collection: Codable, Equatable {
    /// The token from the last pull's sync-collection or PROPFIND, or the one a push took before
    /// its first write, if the server offers one.
    var syncToken: String?
    /// The resources by href path (percent-encoded, as the server names them).
    var resources: [String: Resource] = [:]
    /// Paths whose server copy at ``syncToken`` may differ from what ``resources`` records
    /// (changed, added or removed by another client before a push took the token): the next
    /// incremental pull reads them besides the token's changes.
    var pending: [String]? = nil
    /// The moments and zone the last push exported at (recorded by every push, used for a JSON
    /// alarm list), so pull exports the list as that push did and tells a record changed here
    /// by its digest; nil before a first push, and in state files older than this field.
    var listExport: ListExport? = nil
  }

  /// What a JSON alarm list's export depends on besides its records (`push --now`, DTSTAMP,
  /// `--tz`).
  struct ListExport: Codable, Equatable {
    /// `--now`, in seconds since 1970.
    var now: Int64
    /// The DTSTAMP, in seconds since 1970.
    var timestamp: Int64
    /// The zone of records that name none.
    var zone: String

    /// The DTSTAMP value the export writes.
    var stamp: String {
      DateTimeValue.utc(Instant(secondsSince1970: timestamp).utc).icalString
    }
  }

  /// The collections by URL.
  var collections: [String: Collection] = [:]

  /// Where the state of `file` lives: `.NAME.caldav.json` in its folder.
  static func path(for file: String) -> String {
    let url = URL(fileURLWithPath: file)
    return url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).caldav.json"
    ).path
  }

  /// Where the state of the list `list` lives when it is named (`--list`): `.NAME.list.caldav.json`
  /// in the folder of `file`, the name made safe for a file name, so a dated copy of the list
  /// (`alarms-2026-12-08.json`) has the state of the one before it; else ``path(for:)``.
  static func path(for file: String, list: String?) -> String {
    guard let list else { return path(for: file) }
    var safe = ""
    for scalar in list.unicodeScalars {
      let unsafe = scalar == "/" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F
      safe.unicodeScalars.append(unsafe ? "_" : scalar)
    }
    // A file name holds 255 bytes; the rest of this one takes 18.
    while safe.utf8.count > 200 { safe.removeLast() }
    return URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(
      ".\(safe).list.caldav.json"
    ).path
  }

  /// Where the state of `file` under `list` is read from: the list's own state file, else (the
  /// first time a list is named) the state file of `file`.
  static func readPath(for file: String, list: String?) -> String {
    let own = path(for: file, list: list)
    guard list != nil, !FileManager.default.fileExists(atPath: own),
      FileManager.default.fileExists(atPath: path(for: file))
    else { return own }
    return path(for: file)
  }

  /// Why a state file cannot be used.
  struct LoadError: Error {
    let message: String
  }

  /// The state stored for `file`; an empty one when there is no state file. A file that is
  /// not the JSON alarmcal writes is an error: read as empty, it would make resources seen
  /// before look new.
  static func load(for file: String, list: String? = nil) throws(LoadError) -> CalDAVState {
    let path = readPath(for: file, list: list)
    // A link or other non-regular file is refused before it is read, as it is for writing.
    do {
      try AtomicFile.checkState(path)
    } catch {
      throw LoadError(message: error.message)
    }
    guard FileManager.default.fileExists(atPath: path) else { return CalDAVState() }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw LoadError(message: "\(path): cannot read this state file")
    }
    do {
      return try JSONDecoder().decode(CalDAVState.self, from: data)
    } catch DecodingError.dataCorrupted {
      throw LoadError(
        message: "\(path): not JSON, so no state alarmcal wrote; move it away to start afresh")
    } catch {
      throw LoadError(
        message:
          "\(path): not the state alarmcal writes (\(Self.location(of: error))); move it away to start afresh"
      )
    }
  }

  /// The state of `collection` in this file; an error naming the first resource it records
  /// outside the collection (an href from a hostile answer, or an edited file): push would
  /// send credentials and writes there.
  func collection(_ collection: URL, file: String, list: String? = nil) throws(LoadError)
    -> Collection
  {
    let known = collections[collection.absoluteString] ?? Collection()
    let scope = CollectionScope(collection)
    for key in known.resources.keys.sorted() where scope?.member(key) == nil {
      throw LoadError(
        message:
          "\(Self.readPath(for: file, list: list)): resource \(key) is not inside \(collection.absoluteString); nothing sent"
      )
    }
    return known
  }

  /// Where a decoding error was found, as a JSON path.
  private static func location(of error: any Error) -> String {
    let path: [any CodingKey]
    switch error as? DecodingError {
    case .keyNotFound(let key, let context): path = context.codingPath + [key]
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      path = context.codingPath
    default: return "unexpected content"
    }
    let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    return "at \(text.isEmpty ? "the top" : text)"
  }

  /// Writes the state for `file` atomically.
  func save(for file: String, list: String? = nil) throws(AtomicFile.WriteError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let bytes = (try? encoder.encode(self)).map { Array($0) } ?? []
    try AtomicFile.write(bytes, to: Self.path(for: file, list: list), as: .state)
  }

  /// FNV-1a 64 of `bytes` in hex: enough to tell a changed resource from an unchanged one.
  static func digest(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    return String(hash, radix: 16) + "-" + String(bytes.count)
  }
}
