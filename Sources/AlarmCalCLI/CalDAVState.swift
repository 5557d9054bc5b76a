import Foundation

/// What push and pull remember of a calendar collection for one local file, kept next to it in
/// `.NAME.caldav.json` (written atomically): each resource's href, UID, ETag and a digest of the
/// text alarmcal would send for it, and the collection's sync token. Keyed by collection URL,
/// so one file can be pushed to several calendars.
struct CalDAVState: Codable, Equatable {
  /// One resource on the server as last seen.
  struct Resource: Codable, Equatable {
    /// The UID of its components.
    var uid: String
    /// Its ETag when last written or read.
    var etag: String
    /// FNV-1a 64 of the text alarmcal would send for it (so an unchanged one is not sent).
    var digest: String
    /// Whether alarmcal put the `X-ALARMCAL-LIST` mark on it.
    var marked: Bool
    /// Its text as the server gave it (pull only: an incremental pull rebuilds the file from it).
    var data: String?
  }

  /// What is known of one collection.
  struct Collection: Codable, Equatable {
    /// The token from the last pull's sync-collection or PROPFIND, if the server offers one.
    var syncToken: String?
    /// The resources by href path (percent-encoded, as the server names them).
    var resources: [String: Resource] = [:]
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

  /// The state stored for `file`, or an empty one (also when unreadable: then everything is
  /// treated as never seen, and conflicts, not overwrites, follow).
  static func load(for file: String) -> CalDAVState {
    guard let data = FileManager.default.contents(atPath: path(for: file)),
      let state = try? JSONDecoder().decode(CalDAVState.self, from: data)
    else { return CalDAVState() }
    return state
  }

  /// Writes the state for `file` atomically.
  func save(for file: String) throws(AtomicFile.WriteError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let bytes = (try? encoder.encode(self)).map { Array($0) } ?? []
    try AtomicFile.write(bytes, to: Self.path(for: file), as: .state)
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
