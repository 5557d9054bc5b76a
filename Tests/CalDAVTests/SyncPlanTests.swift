import CalDAV
import Testing

/// The push decision without a server: changes on either side, a missing ETag, lost state.
struct SyncPlanTests {
  typealias Local = SyncPlan.Local
  typealias Record = SyncPlan.Record

  static func local(_ key: String, _ text: String) -> Local {
    Local(key: key, uid: key, bytes: Array(text.utf8), digest: "d-\(text)")
  }

  static func plan(
    _ local: [Local], records: [String: Record] = [:], listing: [String: String] = [:],
    texts: [String: String] = [:], deleteMissing: Bool = false, overwrite: Bool = false
  ) -> [SyncPlan.Action] {
    SyncPlan.actions(
      local: local, records: records, listing: listing, serverTexts: texts, list: "alarms",
      deleteMissing: deleteMissing, overwrite: overwrite)
  }

  @Test("new: created; unchanged: kept (claimed only while the server has the recorded ETag)")
  func newAndUnchanged() {
    let records = [
      "/c/a.ics": Record(uid: "a", etag: "\"1\"", digest: "d-A"),
      "/c/b.ics": Record(uid: "b", etag: "\"1\"", digest: "d-B"),
    ]
    let actions = Self.plan(
      [Self.local("/c/a.ics", "A"), Self.local("/c/b.ics", "B"), Self.local("/c/n.ics", "N")],
      records: records, listing: ["/c/a.ics": "\"1\"", "/c/b.ics": "\"2\""])
    #expect(
      actions == [
        .keep(key: "/c/a.ics", claim: true), .keep(key: "/c/b.ics", claim: false),
        .create(key: "/c/n.ics"),
      ])
  }

  @Test("changed here: replaced over the recorded ETag, so the server's 412 tells its change")
  func changedLocally() {
    let records = ["/c/a.ics": Record(uid: "a", etag: "\"1\"", digest: "d-old")]
    #expect(
      Self.plan([Self.local("/c/a.ics", "A")], records: records, listing: ["/c/a.ics": "\"1\""])
        == [.replace(key: "/c/a.ics", etag: "\"1\"")])
    // Changed on both sides: still the recorded ETag (the server refuses it) ...
    #expect(
      Self.plan([Self.local("/c/a.ics", "A")], records: records, listing: ["/c/a.ics": "\"7\""])
        == [.replace(key: "/c/a.ics", etag: "\"1\"")])
    // ... unless --overwrite: then the server's current one.
    #expect(
      Self.plan(
        [Self.local("/c/a.ics", "A")], records: records, listing: ["/c/a.ics": "\"7\""],
        overwrite: true) == [.replace(key: "/c/a.ics", etag: "\"7\"")])
    // Recorded, gone from the server: created again.
    #expect(
      Self.plan([Self.local("/c/a.ics", "A")], records: records) == [.create(key: "/c/a.ics")])
  }

  @Test("a recorded ETag that is empty or broken: a conflict, never an unconditional write")
  func missingETag() {
    for etag in ["", "x", "\"a\nb\""] {
      let records = ["/c/a.ics": Record(uid: "a", etag: etag, digest: "d-old")]
      #expect(
        Self.plan([Self.local("/c/a.ics", "A")], records: records, listing: ["/c/a.ics": "\"1\""])
          == [.conflict(key: "/c/a.ics", uid: "/c/a.ics", .noETag)])
    }
    // --overwrite with no usable ETag on the server either.
    #expect(
      Self.plan(
        [Self.local("/c/a.ics", "A")], listing: ["/c/a.ics": ""], texts: ["/c/a.ics": "B"],
        overwrite: true) == [.conflict(key: "/c/a.ics", uid: "/c/a.ics", .noETag)])
  }

  @Test("lost state: the server's equal copy is adopted, a different one is a conflict")
  func lostState() {
    let local = [
      Self.local("/c/a.ics", "BEGIN:VCALENDAR\r\nSUMMARY:a long line\r\nEND:VCALENDAR\r\n"),
      Self.local("/c/b.ics", "B"), Self.local("/c/c.ics", "C"),
    ]
    let listing = ["/c/a.ics": "\"1\"", "/c/b.ics": "\"2\"", "/c/c.ics": "\"3\""]
    #expect(
      SyncPlan.unrecorded(local: local, records: [:], listing: listing)
        == ["/c/a.ics", "/c/b.ics", "/c/c.ics"])
    // As XML hands it over: LF, folded; c's text was not given.
    let texts = [
      "/c/a.ics": "BEGIN:VCALENDAR\nSUMMARY:a lon\n g line\nEND:VCALENDAR", "/c/b.ics": "other",
    ]
    #expect(
      Self.plan(local, listing: listing, texts: texts) == [
        .adopt(key: "/c/a.ics", etag: "\"1\""),
        .conflict(key: "/c/b.ics", uid: "/c/b.ics", .differsOnServer),
        .conflict(key: "/c/c.ics", uid: "/c/c.ics", .differsOnServer),
      ])
    #expect(
      Self.plan(local, listing: listing, texts: texts, overwrite: true) == [
        .adopt(key: "/c/a.ics", etag: "\"1\""), .replace(key: "/c/b.ics", etag: "\"2\""),
        .replace(key: "/c/c.ics", etag: "\"3\""),
      ])
  }

  @Test("--delete-missing: only this list's records, unchanged on the server since")
  func deleteMissing() {
    let records = [
      "/c/gone.ics": Record(uid: "gone", etag: "\"1\"", digest: "x", list: "alarms"),
      "/c/mine.ics": Record(uid: "mine", etag: "\"1\"", digest: "x", list: "alarms"),
      "/c/edited.ics": Record(uid: "edited", etag: "\"1\"", digest: "x", list: "alarms"),
      "/c/other.ics": Record(uid: "other", etag: "\"1\"", digest: "x", list: "other"),
      "/c/pulled.ics": Record(uid: "pulled", etag: "\"1\"", digest: "x"),
    ]
    let listing = [
      "/c/mine.ics": "\"1\"", "/c/edited.ics": "\"2\"", "/c/other.ics": "\"1\"",
      "/c/pulled.ics": "\"1\"",
    ]
    #expect(Self.plan([], records: records, listing: listing).isEmpty)
    #expect(
      Self.plan([], records: records, listing: listing, deleteMissing: true) == [
        .conflict(key: "/c/edited.ics", uid: "edited", .changedBeforeDelete),
        .forget(key: "/c/gone.ics"), .delete(key: "/c/mine.ics", etag: "\"1\""),
      ])
  }

  @Test("normalised text: line ends, folding and the final line end do not count")
  func normalised() {
    let crlf = Array("A:1\r\nB:long\r\n  value\r\n".utf8)
    let lf = Array("A:1\nB:long\n\tvalue".utf8)
    #expect(SyncPlan.normalized(crlf) == Array("A:1\nB:long value".utf8))
    #expect(SyncPlan.normalized(lf) == Array("A:1\nB:longvalue".utf8))
    #expect(SyncPlan.normalized(crlf) != SyncPlan.normalized(Array("A:2\r\n".utf8)))
    // Radicale and Xandikos reorder a component's lines; the meaning stays.
    let sent =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:1\r\nBEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:PT0S\r\nEND:VALARM\r\nSUMMARY:x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    let stored =
      "BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nSUMMARY:x\nDTSTAMP:1\nUID:a\nBEGIN:VALARM\nTRIGGER:PT0S\nACTION:AUDIO\nEND:VALARM\nEND:VEVENT\nEND:VCALENDAR"
    #expect(SyncPlan.canonical(Array(sent.utf8)) == SyncPlan.canonical(Array(stored.utf8)))
    // A line moved into another component is a change.
    let moved = stored.replacingOccurrences(of: "SUMMARY:x\n", with: "").replacingOccurrences(
      of: "ACTION:AUDIO\n", with: "ACTION:AUDIO\nSUMMARY:x\n")
    #expect(SyncPlan.canonical(Array(sent.utf8)) != SyncPlan.canonical(Array(moved.utf8)))
  }
}
