/// One RRULE with its compiled plans, kept for reuse by
/// ``RecurrenceIterator/init(plans:start:isDate:until:workLimit:)``: the iterators of every
/// series that uses the rule with the same UNTIL and day defaults (``StartDefaults``) share one
/// plan, so a calendar of many series with few distinct rules compiles each once and holds it
/// once.
public struct RecurrencePlans: Sendable {
  private struct Key: Hashable {
    let isDate: Bool
    let untilKey: Int?
    let defaults: StartDefaults
  }

  /// The rule.
  public let rule: RecurrenceRule
  private var plans: [Key: RecurrenceIterator.Plan] = [:]

  /// The rule, with no plan compiled yet.
  public init(rule: RecurrenceRule) {
    self.rule = rule
  }

  /// How many distinct plans were compiled.
  public var count: Int { plans.count }

  mutating func plan(isDate: Bool, untilKey: Int?, defaults: StartDefaults)
    -> RecurrenceIterator.Plan
  {
    let key = Key(isDate: isDate, untilKey: untilKey, defaults: defaults.days)
    if let known = plans[key] { return known }
    let plan = RecurrenceIterator.Plan(
      rule: rule, defaults: key.defaults, isDate: isDate, untilKey: untilKey)
    plans[key] = plan
    return plan
  }
}
