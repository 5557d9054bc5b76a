/// A whole file as `validate` reads it.
public struct ICalendarDocument: Sendable {
  /// The top-level components (none when the nesting went too deep to be a calendar).
  public let components: [ICalComponent]
  /// The problems in content lines, in file order.
  public let findings: [LineFinding]
  /// The problems with BEGIN and END lines and with lines outside every component, in the
  /// order met.
  public let structure: [StructureProblem]
  /// Where the first content line that could be read starts; nil when none could.
  public let firstLine: SourcePosition?
  /// Where the file's bytes lie, to place the parts of a property.
  public let source: SourceMap
}

/// A problem with how components nest, where it was met.
public struct StructureProblem: Equatable, Sendable {
  /// What is wrong; names are as written in the file.
  public enum Kind: Equatable, Sendable {
    /// `END:name` closes nothing: no component is open.
    case endWithoutBegin(name: String)
    /// `END:name` names neither the open component `open` (BEGIN on `openLine`) nor any
    /// component around it; it closes `open` all the same.
    case mismatchedEnd(name: String, open: String, openLine: Int)
    /// `BEGIN:name` is never closed; `closedBy` is the END of an outer component that closed
    /// it (its name and line), nil when the data ended first.
    case neverClosed(name: String, closedBy: (name: String, line: Int)?)
    /// A BEGIN nested deeper than ``ComponentNesting/maximumDepth``; reading stopped there.
    case tooDeep
    /// A property outside every component (its name).
    case outsideComponent(name: String)

    /// Equal in kind and in every name and line they carry.
    public static func == (a: Kind, b: Kind) -> Bool {
      switch (a, b) {
      case (.endWithoutBegin(let x), .endWithoutBegin(let y)): x == y
      case (.mismatchedEnd(let x1, let x2, let x3), .mismatchedEnd(let y1, let y2, let y3)):
        x1 == y1 && x2 == y2 && x3 == y3
      case (.neverClosed(let x, let xc), .neverClosed(let y, let yc)):
        x == y && xc?.name == yc?.name && xc?.line == yc?.line
      case (.tooDeep, .tooDeep): true
      case (.outsideComponent(let x), .outsideComponent(let y)): x == y
      default: false
      }
    }
  }

  /// What is wrong.
  public let kind: Kind
  /// Where: the name of the BEGIN or END line, or the value of a mismatched END.
  public let position: SourcePosition
}
