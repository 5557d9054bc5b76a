import ICalendar

/// A notification of a `plan` request, as the device delivered it: the request's identifier
/// and the moment it was delivered. It names the firing a snooze or dismissal answers.
///
/// A one-shot request's identifier is its firing's id. A repeating request's is the weekly id
/// of its alarm, repeat, weekday and wall-clock time in the plan's zone
/// (``FiringIDSeed/weeklyID(repeatIndex:weekday:time:)``): it stands for every firing of that
/// alarm and repeat at that weekday and time. The firing answered is the latest the request
/// stands for at or before the delivery, so a late delivery answers the firing it was late for.
public struct DeliveredRequest: Sendable {
  /// The request's identifier, as the plan wrote it.
  public let identifier: String
  /// When the notification was delivered.
  public let delivered: Instant
  /// The plan's zone: a repeating request's weekday and time are read in it, and it is the
  /// zone of the file's times that have none.
  public let zone: TimeZoneRules

  /// How far back from the delivery each step of the search reaches: the nearest firings
  /// first, then ``FiringResponder/lookbackSeconds``.
  static let searchSteps: [Int64] = [
    60, 3_600, 86_400, 8 * 86_400, 31 * 86_400, FiringResponder.lookbackSeconds,
  ]

  /// A request delivered at `delivered`, planned in `zone`.
  public init(identifier: String, delivered: Instant, zone: TimeZoneRules) {
    self.identifier = identifier
    self.delivered = delivered
    self.zone = zone
  }

  /// Writes `response` to the firing this delivery answers into `bytes`, the text of `file`:
  /// an alarm list (JSON) when `isList`, else iCalendar. `now` is when the person answered, as
  /// for ``FiringResponder/respond(_:toFiring:in:file:now:zone:)``.
  public func respond(
    _ response: AlarmResponse, in bytes: [UInt8], file: String, isList: Bool, now: Instant
  ) throws(ResponseError) -> WrittenResponse {
    guard isList else {
      let firing = try firing(inCalendar: bytes, file: file)
      return try FiringResponder.respond(
        response, to: firing, in: bytes, file: file, now: now, zone: zone)
    }
    let list = try ListResponder.read(bytes, file: file, zone: zone)
    let firing = try firing(inList: list, file: file)
    return try ListResponder.respond(
      response, to: firing, in: bytes, list: list, file: file, now: now, zone: zone)
  }

  /// The firing this delivery answers in an alarm list: in its export at the delivery, or a
  /// day before (a one-shot alarm of a time of day that rang is exported at its next ring).
  func firing(inList list: AlarmList, file: String) throws(ResponseError) -> Firing {
    try ListResponder.firing(in: list, file: file, now: delivered) {
      calendar throws(ResponseError) in
      try firing(inCalendar: calendar, file: file)
    }
  }

  /// The firing this delivery answers in iCalendar text `bytes`: the latest the request stands
  /// for at or before the delivery, among at most ``FiringResponder/searchLimit`` firings.
  public func firing(inCalendar bytes: [UInt8], file: String) throws(ResponseError) -> Firing {
    let schedule = try FiringResponder.schedule(of: bytes, file: file, zone: zone)
    let wanted = identifier.asciiUppercased
    let result = FiringResponder.search(
      in: schedule, backFrom: delivered, steps: Self.searchSteps, takingLatest: true,
      matches: { stands(for: $0, wanted: wanted) })
    switch result {
    case .found(let firing):
      return firing
    case .stopped(let searchedFrom):
      throw ResponseError(
        message:
          "\(file): no firing of request \(identifier) from \(searchedFrom) to its delivery at \(delivered), and a search stops after \(FiringResponder.searchLimit) firings"
      )
    case .later(let later):
      // A request that first rings after the delivery is found to say so.
      throw ResponseError(
        message:
          "\(file): request \(identifier) first rings at \(later.trigger), after its delivery at \(delivered)"
      )
    case .none:
      throw ResponseError(
        message:
          "\(file): unknown request \(identifier): no firing or repeating request has it in the year before or after \(delivered)"
      )
    }
  }

  /// Whether the request whose identifier is `wanted` (upper case) stands for `firing`: it is
  /// the firing's id, or the weekly id of the firing's weekday and time in ``zone``.
  func stands(for firing: Firing, wanted: String) -> Bool {
    if firing.id.description == wanted { return true }
    guard !firing.isSnooze else { return false }
    let local = zone.local(at: firing.trigger)
    let weekly = firing.idSeed.weeklyID(
      repeatIndex: firing.repeatIndex, weekday: local.date.weekday, time: local.time)
    return weekly.description == wanted
  }
}
