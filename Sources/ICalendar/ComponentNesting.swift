/// How deeply components may nest: the one bound every reader of components enforces.
///
/// iCalendar itself needs three levels (VCALENDAR, VEVENT, VALARM; VTIMEZONE, STANDARD) and
/// RFC 9073 and RFC 7953 add one or two more. A file nesting thousands of levels is hostile:
/// libical and any recursive walk of the tree would exhaust the stack on it.
public enum ComponentNesting {
  /// The deepest nesting read: a BEGIN inside this many open components is refused.
  public static let maximumDepth = 32

  /// The error for a BEGIN on `line` that would open one level too many.
  public static func tooDeep(line: Int) -> ICalendarSyntaxError {
    ICalendarSyntaxError(
      line: line,
      message: "components nested deeper than \(maximumDepth) levels; this is not a calendar")
  }
}
