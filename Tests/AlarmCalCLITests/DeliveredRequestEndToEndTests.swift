import Foundation
import Testing

/// `snooze` and `dismiss --request ID --delivered ISO` with the real binary: the firing a
/// delivered notification of a `plan` request rang for.
///
/// The list: "wake" rings Monday to Friday at 07:00 in Berlin, "dentist" once on Wednesday
/// 2027-03-24 at 15:10. Berlin is on CET (+01:00) until 2027-03-28, so Monday 2027-03-22's
/// wake-up rings at 06:00Z and Tuesday's at 06:00Z the next day; the dentist at 14:10Z.
@Suite struct DeliveredRequestEndToEndTests {
  static let list = """
    {"timeZone": "Europe/Berlin", "alarms": [
      {"id": "wake", "time": "07:00", "repeat": ["mon", "tue", "wed", "thu", "fri"],
       "label": "Wake", "sound": "Radar", "snooze": true, "snoozeMinutes": 9},
      {"id": "dentist", "at": "2027-03-24T15:10", "label": "Dentist", "snooze": false}]}
    """
  /// Sunday noon, before any of them rings.
  static let planNow = "2027-03-21T12:00:00Z"
  static let mondayWake = "2027-03-22T06:00:00Z"
  static let dentist = "2027-03-24T14:10:00Z"
  static let zone = ["--tz", "Europe/Berlin"]

  /// A fresh folder with the list, and its export to .ics at ``planNow``.
  private func files() throws -> (list: String, calendar: String) {
    let folder = try temporaryFolder()
    let list = folder.appendingPathComponent("alarms.json").path
    try Data(Self.list.utf8).write(to: URL(fileURLWithPath: list))
    let calendar = folder.appendingPathComponent("alarms.ics").path
    let result = try runBinary(["convert", list, "-o", calendar, "--now", Self.planNow])
    #expect(result.status == 0, "\(result.stderr)")
    return (list, calendar)
  }

  /// The identifiers of `file`'s plan at ``planNow``: Monday's repeating request of the
  /// wake-up (weekday 2 as `Calendar` counts, 07:00) and the dentist's one-shot request.
  private func requests(of file: String) throws -> (monday: String, dentist: String) {
    let result = try runBinary(["plan", file, "--now", Self.planNow] + Self.zone)
    #expect(result.status == 0, "\(result.stderr)")
    let plan = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let requests = try #require(plan["requests"] as? [[String: Any]])
    let monday = try #require(
      requests.first { request in
        let trigger = request["trigger"] as? [String: Any]
        return trigger?["repeats"] as? Bool == true
          && trigger?["dateComponents"] as? [String: Int]
            == ["weekday": 2, "hour": 7, "minute": 0, "second": 0]
      })
    let dentist = try #require(requests.first { $0["title"] as? String == "Dentist" })
    return (
      try #require(monday["identifier"] as? String), try #require(dentist["identifier"] as? String)
    )
  }

  /// The id `upcoming` gives the firing of `file` at `trigger` (the only one then).
  private func firingID(_ file: String, at trigger: String) throws -> String {
    let firings = try upcomingFirings(file, now: Self.planNow, limit: 20, zone: "Europe/Berlin")
    let matching = firings.filter { $0["trigger"] as? String == trigger }
    #expect(matching.count == 1)
    return try #require(matching.first?["id"] as? String)
  }

  @Test("Monday's repeating request delivered on time dismisses that morning's firing")
  func repeatingOnTime() throws {
    let (_, calendar) = try files()
    let monday = try requests(of: calendar).monday
    let expected = try firingID(calendar, at: Self.mondayWake)
    let result = try runBinary(
      [
        "dismiss", calendar, "--request", monday, "--delivered", Self.mondayWake,
        "--now", "2027-03-22T06:00:30Z",
      ] + Self.zone)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "dismissed \(expected)\n")
    #expect(try fileText(calendar).contains("ACKNOWLEDGED:20270322T060030Z\r\n"))
  }

  @Test("delivered 3 hours late, a snooze still answers that morning's firing")
  func repeatingLate() throws {
    let (_, calendar) = try files()
    let monday = try requests(of: calendar).monday
    let expected = try firingID(calendar, at: Self.mondayWake)
    let result = try runBinary(
      [
        "snooze", calendar, "--request", monday, "--delivered", "2027-03-22T09:00:00Z",
        "--now", "2027-03-22T09:00:10Z", "--minutes", "9",
      ] + Self.zone)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.hasPrefix(
        "snoozed \(expected) until 2027-03-22T09:09:10Z; the snooze rings as "))
    let text = try fileText(calendar)
    #expect(text.contains("ACKNOWLEDGED:20270322T090010Z\r\n"))
    #expect(text.contains("RELTYPE=SNOOZE"))
    #expect(text.contains("TRIGGER;VALUE=DATE-TIME:20270322T090910Z\r\n"))
  }

  @Test("Monday's request delivered on Tuesday answers Monday's firing, not Tuesday's")
  func repeatingKeepsItsWeekday() throws {
    let (_, calendar) = try files()
    let monday = try requests(of: calendar).monday
    let expected = try firingID(calendar, at: Self.mondayWake)
    let result = try runBinary(
      [
        "dismiss", calendar, "--request", monday, "--delivered", "2027-03-23T06:01:00Z",
        "--now", "2027-03-23T06:01:00Z",
      ] + Self.zone)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "dismissed \(expected)\n")
  }

  @Test("a one-shot request's identifier is its firing's id")
  func oneShot() throws {
    let (_, calendar) = try files()
    let dentist = try requests(of: calendar).dentist
    #expect(try firingID(calendar, at: Self.dentist) == dentist)
    let result = try runBinary(
      [
        "dismiss", calendar, "--request", dentist, "--delivered", "2027-03-24T14:10:02Z",
        "--now", "2027-03-24T14:12:00Z",
      ] + Self.zone)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "dismissed \(dentist)\n")
    #expect(try fileText(calendar).contains("ACKNOWLEDGED:20270324T141200Z\r\n"))
  }

  @Test("an unknown request, or one delivered before it first rings, is one error line")
  func refusals() throws {
    let (_, calendar) = try files()
    let before = try fileText(calendar)
    let unknown = "00000000-0000-8000-8000-000000000000"
    let missing = try runBinary(
      ["dismiss", calendar, "--request", unknown, "--delivered", Self.mondayWake] + Self.zone)
    #expect(missing.status == 1)
    #expect(
      missing.stderr
        == "alarmcal dismiss: error: \(calendar): unknown request \(unknown): no firing or repeating request has it in the year before or after \(Self.mondayWake)\n"
    )
    // Ten minutes before the dentist's one-shot rings.
    let dentist = try requests(of: calendar).dentist
    let early = try runBinary(
      [
        "dismiss", calendar, "--request", dentist, "--delivered", "2027-03-24T14:00:00Z",
        "--now", "2027-03-24T14:30:00Z",
      ] + Self.zone)
    #expect(early.status == 1)
    #expect(
      early.stderr
        == "alarmcal dismiss: error: \(calendar): request \(dentist) first rings at \(Self.dentist), after its delivery at 2027-03-24T14:00:00Z\n"
    )
    #expect(try fileText(calendar) == before)
  }

  @Test(
    "--request needs --delivered and excludes --id",
    arguments: [
      (["--request", "X"], "--request needs --delivered (when it was delivered)"),
      (["--delivered", "2027-03-22T06:00:00Z"], "--delivered needs --request"),
      (
        ["--request", "X", "--delivered", "2027-03-22T06:00:00Z", "--id", "X"],
        "--request cannot be used with --id"
      ),
    ])
  func usage(options: [String], message: String) throws {
    let (_, calendar) = try files()
    let result = try runBinary(["dismiss", calendar] + options)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("alarmcal dismiss: error: \(message)\n"))
  }

  @Test("in an alarm list, a late delivery and a one-shot write the records' members")
  func list() throws {
    let (list, _) = try files()
    let (monday, dentist) = try requests(of: list)
    let expected = try firingID(list, at: Self.mondayWake)
    let late = try runBinary(
      [
        "snooze", list, "--request", monday, "--delivered", "2027-03-22T09:00:00Z",
        "--now", "2027-03-22T09:00:10Z", "--minutes", "9",
      ] + Self.zone)
    #expect(late.status == 0, "\(late.stderr)")
    #expect(late.stdout.hasPrefix("snoozed \(expected) until 2027-03-22T09:09:10Z"))
    var text = try fileText(list)
    #expect(
      text.contains(
        #""snoozeMinutes": 9, "acknowledgedAt": "2027-03-22T09:00:10Z", "snoozedUntil": "2027-03-22T09:09:10Z"}"#
      ))
    #expect(try firingID(list, at: Self.dentist) == dentist)
    let once = try runBinary(
      [
        "dismiss", list, "--request", dentist, "--delivered", Self.dentist,
        "--now", "2027-03-24T14:11:00Z",
      ] + Self.zone)
    #expect(once.status == 0, "\(once.stderr)")
    #expect(once.stdout == "dismissed \(dentist)\n")
    text = try fileText(list)
    #expect(
      text.contains(#""snooze": false, "acknowledgedAt": "2027-03-24T14:11:00Z"}"#))
  }
}
