/// Reading a file in two passes: each calendar's own properties and zones first, then its
/// children in pieces.
extension ICalendarReader {
  /// The top-level components of `bytes` with only their own properties and their VTIMEZONE
  /// children (the times a calendar's events are read in), and how many children each has;
  /// nil when ``read(_:)`` would throw. Much cheaper than a full read: lines other than BEGIN
  /// and END are passed over unread outside what is kept.
  package static func calendarsAndZones(_ bytes: [UInt8]) -> CalendarOutline? {
    guard ByteSearch.firstOffset(of: 0, in: bytes, from: 0) == bytes.count else { return nil }
    var builder = TreeBuilder(
      bytes: bytes, lint: false, scope: .calendarsAndZones)
    builder.run()
    guard builder.tooDeepAt == nil, !builder.roots.isEmpty else { return nil }
    return CalendarOutline(
      roots: builder.roots, childStarts: builder.childStarts)
  }

  /// Reads children `range` of top-level component `root` of `outline` (read from `bytes`)
  /// whole, handing each to `visit` as it is complete, in file order: the same components a
  /// full read gives, so that a large calendar can be read in pieces at once
  /// (``ParallelWork``).
  package static func children(
    _ range: Range<Int>, of root: Int, in outline: CalendarOutline, bytes: [UInt8],
    visit: (_ child: consuming ICalComponent) -> Void
  ) {
    guard !range.isEmpty else { return }
    withoutActuallyEscaping(visit) { visit in
      var builder = TreeBuilder(
        bytes: bytes, inside: outline.roots[root],
        from: outline.childStarts[root][range.lowerBound],
        children: range.count,
        visit: visit)
      builder.run()
    }
  }
}

/// The top-level components of a file with their own properties and VTIMEZONEs only
/// (``ICalendarReader/calendarsAndZones(_:)``).
package struct CalendarOutline: Sendable {
  /// The top-level components.
  package let roots: [ICalComponent]
  /// Where each child of each top-level component begins.
  let childStarts: [[ChildStart]]
  /// How many children each top-level component has (kept or not).
  package var childCounts: [Int] { childStarts.map(\.count) }

  /// The children of the top-level components in runs to read at once
  /// (``ICalendarReader/children(_:of:in:bytes:visit:)``), in file order: each component's
  /// children in runs of about equal length, at least `minimum` long unless the component has
  /// fewer, and about four runs per processor in all, so that no processor waits long for
  /// another.
  package func pieces(minimum: Int = 1_000) -> [(root: Int, children: Range<Int>)] {
    let total = childCounts.reduce(0, +)
    let length = ParallelWork.runs(of: total, minimum: minimum).first?.count ?? 1
    var pieces: [(root: Int, children: Range<Int>)] = []
    for (root, count) in childCounts.enumerated() where count > 0 {
      let runs = max(1, count / length)
      for run in 0..<runs {
        pieces.append((root, (count * run / runs)..<(count * (run + 1) / runs)))
      }
    }
    return pieces
  }
}

/// Where a child of a top-level component begins: its BEGIN line.
struct ChildStart: Sendable {
  /// The offset of the line's first byte.
  let offset: Int
  /// The line's number (1-based).
  let line: Int
}
