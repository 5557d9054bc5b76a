import AlarmCal
import Foundation
import ICalendar
import Testing

@Suite struct AlarmFileReaderTests {
  private func read(_ json: String, zone: String = "Europe/Berlin") -> Result<
    [Alarm], AlarmFileProblems
  > {
    AlarmFileReader(fileName: "alarms.json", defaultTimeZone: zone).read(Array(json.utf8))
  }

  private func problems(_ json: String) -> [String] {
    guard case .failure(let failure) = read(json) else { return ["(no problem)"] }
    return failure.problems.map(\.description)
  }

  @Test(
    "labels are trimmed and CR becomes LF exactly as Foundation's trimming and replacing do, fast path or not",
    arguments: [
      "Wake", "a", "Wake up\r\nnow", "a\rb", " padded ", "\u{00A0}nbsp", "nbsp\u{00A0}",
      "x\u{2028}", "\u{3000}ideo", "é", "Café", "tab\t", "\nlead", "two\n\nlines", "🕰",
    ])
  func labels(label: String) throws {
    let escaped = label.unicodeScalars.map {
      $0.value < 0x20 ? String(format: "\\u%04X", $0.value) : String($0)
    }.joined()
    let json = #"{"alarms": [{"time": "07:00", "label": "\#(escaped)"}]}"#
    let alarm = try #require(try read(json).get().first)
    let expected = label.replacingOccurrences(of: "\r\n", with: "\n")
      .replacingOccurrences(of: "\r", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(alarm.label == expected)
  }

  @Test("the sample alarm list reads with file-level and per-alarm zones")
  func sample() throws {
    let bytes = try [UInt8](Data(contentsOf: samplesFolder.appendingPathComponent("alarms.json")))
    let alarms = try AlarmFileReader(fileName: "alarms.json", defaultTimeZone: "UTC").read(bytes)
      .get()
    #expect(alarms.count == 10)
    let work = try #require(alarms.first)
    #expect(
      work.schedule
        == .time(
          LocalTime(hour: 6, minute: 30)!,
          repeat: [.monday, .tuesday, .wednesday, .thursday, .friday]))
    #expect(work.label == "Work")
    #expect(work.sound == "Radar")
    #expect(work.timeZone == "Europe/Berlin")
    #expect(alarms.contains { $0.timeZone == "America/New_York" })
    #expect(alarms.contains { !$0.enabled })
    #expect(alarms.contains { if case .at = $0.schedule { true } else { false } })
  }

  @Test("every field takes its clock-app default")
  func defaults() throws {
    let alarms = try read(#"{"alarms":[{"id":"a","time":"07:00"}]}"#, zone: "Asia/Tokyo").get()
    #expect(
      alarms == [
        Alarm(
          id: "a", schedule: .time(LocalTime(hour: 7, minute: 0)!, repeat: []), label: "Alarm",
          sound: nil, snooze: true, snoozeMinutes: 9, enabled: true, timeZone: "Asia/Tokyo")
      ])
  }

  @Test("the iOS app record shape reads unchanged, repeatDays Sunday first")
  func appRecords() throws {
    let json = #"""
      {"alarms":[{"alarmTime":"07:30","name":"Wake up","repeatDays":[true,false,false,false,false,false,true],"sound":"Radar","snoozeEnabled":false,"isEnabled":true,"creatTime":"2025-03-14 07:02:11"}]}
      """#
    let alarms = try read(json).get()
    #expect(
      alarms == [
        Alarm(
          id: "2025-03-14 07:02:11",
          schedule: .time(LocalTime(hour: 7, minute: 30)!, repeat: [.sunday, .saturday]),
          label: "Wake up", sound: "Radar", snooze: false, enabled: true, timeZone: "Europe/Berlin")
      ])
    let bytes = try [UInt8](
      Data(contentsOf: samplesFolder.appendingPathComponent("ios-alarms.json")))
    let sample = try AlarmFileReader(fileName: "ios-alarms.json", defaultTimeZone: "UTC").read(
      bytes
    ).get()
    #expect(sample.count == 4)
  }

  @Test("alarms without an id get the same derived UUID on every run, distinct for twins")
  func derivedIDs() throws {
    let json = #"{"alarms":[{"time":"07:00"},{"time":"07:00"},{"time":"08:00"}]}"#
    let first = try read(json).get().map(\.id)
    let second = try read(json).get().map(\.id)
    #expect(first == second)
    #expect(Set(first).count == 3)
    #expect(first.allSatisfy { $0.count == 36 && $0.split(separator: "-").count == 5 })
  }

  @Test(
    "each bad field gets one message naming file, alarm and field",
    arguments: [
      (
        #"{"alarms":[{"id":"a","time":"25:00","label":"Gym"}]}"#,
        #"alarms.json: alarm 1 ("Gym"): time "25:00" is not a valid HH:mm time"#
      ),
      (
        #"{"alarms":[{"id":"a","time":"7:60"}]}"#,
        #"alarms.json: alarm 1 ("Alarm"): time "7:60" is not a valid HH:mm time"#
          .replacingOccurrences(of: #" ("Alarm")"#, with: "")
      ),
      (
        #"{"alarms":[{"id":"a","time":"07:00","repeat":["mon","funday"]}]}"#,
        #"alarms.json: alarm 1: repeat: "funday" is not a weekday name (mon, tue, wed, thu, fri, sat, sun) or number (1 = Sunday ... 7 = Saturday)"#
      ),
      (
        #"{"alarms":[{"id":"a","time":"07:00","repeat":["mon","mon"]}]}"#,
        #"alarms.json: alarm 1: repeat: "mon" is listed twice"#
      ),
      (
        #"{"alarms":[{"id":"a","at":"2026-02-30T07:00"}]}"#,
        #"alarms.json: alarm 1: at "2026-02-30T07:00" is not a valid local date-time (YYYY-MM-DDTHH:mm)"#
      ),
      (
        #"{"alarms":[{"id":"a","time":"07:00","at":"2026-12-24T07:00"}]}"#,
        #"alarms.json: alarm 1: has both "time" and "at"; a one-shot reminder uses "at" alone"#
      ),
      (
        #"{"alarms":[{"id":"a"}]}"#,
        #"alarms.json: alarm 1: needs either "time" (with "repeat") or "at""#
      ),
      (  // almost the app's record: one line saying what it lacks, not one per field
        #"[{"date":"07:30","name":"Wake up","repeatDays":[false,true,true,true,true,true,false],"snoozeEnabled":true,"isEnabled":true,"creatTime":"2025-03-14 07:02:11"}]"#,
        #"alarms.json: alarm 1 ("Wake up"): needs "alarmTime"; "date" is not a field of an app alarm record"#
      ),
      (
        #"{"alarms":[{"id":"a","when":"07:30","label":"Gym"}]}"#,
        #"alarms.json: alarm 1 ("Gym"): needs either "time" (with "repeat") or "at"; "when" is not a field of an alarm"#
      ),
      (
        #"{"alarms":[{"id":"a","at":"2026-12-24T07:00","repeat":["mon"]}]}"#,
        #"alarms.json: alarm 1: "repeat" cannot be combined with "at" (a one-shot reminder rings once)"#
      ),
      (
        #"{"alarms":[{"id":"a","time":"07:00","snooze":"yes"}]}"#,
        #"alarms.json: alarm 1: snooze must be true or false, not a string"#
      ),
      (
        #"{"alarms":[{"id":"a","time":"07:00","snoozeMinutes":0}]}"#,
        #"alarms.json: alarm 1: snoozeMinutes must be a whole number of minutes from 1 to 60, not 0"#
      ),
      (
        #"{"alarms":[{"id":"a","time":"07:00","timeZone":"Mars/Base"}]}"#,
        #"alarms.json: alarm 1: timeZone "Mars/Base" is not a known IANA time zone"#
      ),
      // A clock time typed as a number is no Foundation Date: named, not read as 00:12:10.
      (
        #"{"alarms":[{"id":"a","alarmTime":730}]}"#,
        #"alarms.json: alarm 1: alarmTime 730 read as a Date (seconds since 2001-01-01T00:00:00Z) is 2001-01-01T00:12:10Z, outside 2001-01-02 to 2100; if it is the clock time 07:30, write it as the string "07:30""#
      ),
      (
        #"{"alarms":[{"id":"a","time":4200000000}]}"#,
        #"alarms.json: alarm 1: time 4200000000 read as a Date (seconds since 2001-01-01T00:00:00Z) is 2134-02-04T02:40:00Z, outside 2001-01-02 to 2100; write the time as a string such as "07:30""#
      ),
      (
        #"{"alarms":[{"id":" a","time":"07:00"}]}"#,
        #"alarms.json: alarm 1: id " a" must be non-empty, without surrounding spaces or control characters"#
      ),
      (
        #"{"alarms":[{"id":"a","time":"07:00"},{"id":"a","time":"08:00"}]}"#,
        #"alarms.json: alarm 2: id "a" is already used by alarm 1"#
      ),
      (
        #"{"alarms":[{"alarmTime":"07:30","repeatDays":[true]}]}"#,
        #"alarms.json: alarm 1: repeatDays must be an array of 7 booleans, Sunday first"#
      ),
      (#"{"alarms":{}}"#, #"alarms.json: "alarms" must be an array, not an object"#),
      (
        #"{"timeZone":"Nowhere","alarms":[]}"#,
        #"alarms.json: timeZone "Nowhere" is not a known IANA time zone"#
      ),
      (#""hello""#, #"alarms.json: the top level must be an object or an array, not a string"#),
      (#"{"alarms":[1]}"#, #"alarms.json: alarm 1: must be an object, not a number"#),
      (
        "{\"alarms\":[}",
        "alarms.json: not valid JSON: line 1, column 12: unexpected character '}'; expected a value"
      ),
    ])
  func badFields(json: String, message: String) {
    #expect(problems(json) == [message])
  }

  @Test("fields alarmcal does not know are kept in order, as they came, with no problem")
  func unknownFieldsKept() throws {
    let json =
      #"[{"alarmTime":"07:30","vibrate":true,"volume":0.8,"creatTime":"c","extra":{"a":[1,null]}}]"#
    let list = try AlarmFileReader(fileName: "a.json", defaultTimeZone: "UTC")
      .readList(Array(json.utf8)).get()
    #expect(list.warnings.isEmpty)
    #expect(
      list.alarms.first?.extraFields == [
        JSONMember("vibrate", .bool(true)), JSONMember("volume", .number("0.8")),
        JSONMember("extra", .object([JSONMember("a", .array([.number("1"), .null]))])),
      ])
  }

  @Test(
    "a field one typing slip away from a known name is kept with a warning",
    arguments: [
      ("lable", "label"), ("snoze", "snooze"), ("alarmTiem", "alarmTime"),
      ("isEnable", "isEnabled"),
      ("timezone", "timeZone"),
    ])
  func nearMissWarned(typed: String, known: String) throws {
    let json = #"{"alarms":[{"id":"a","time":"07:00","\#(typed)":"x"}]}"#
    let list = try AlarmFileReader(fileName: "a.json", defaultTimeZone: "UTC")
      .readList(Array(json.utf8)).get()
    #expect(
      list.warnings.map(\.description) == [
        "a.json: alarm 1: field \"\(typed)\" is not one alarmcal knows; did you mean \"\(known)\"? It is kept as it is"
      ])
    #expect(list.alarms.first?.extraFields == [JSONMember(typed, .string("x"))])
  }

  @Test("a field far from every known name gets no warning")
  func farFieldQuiet() throws {
    let json = #"{"alarms":[{"id":"a","time":"07:00","vibrate":true,"colour":"red"}]}"#
    let list = try AlarmFileReader(fileName: "a.json", defaultTimeZone: "UTC")
      .readList(Array(json.utf8)).get()
    #expect(list.warnings.isEmpty)
  }

  @Test(
    "every name of the repeat field takes every form: booleans, numbers, names",
    arguments: ["repeat", "repeatDays", "weekdays", "repeatWeekdays"])
  func repeatFormsUnderEveryName(key: String) throws {
    let forms = [
      #"[false,true,true,false,false,false,false]"#, #"[2,3]"#, #"["mon","Tue"]"#,
      #"["monday",3]"#,
    ]
    for form in forms {
      let json = #"{"alarms":[{"id":"a","time":"07:00","\#(key)":\#(form)}]}"#
      let alarm = try #require(try read(json).get().first, "\(key) \(form)")
      #expect(
        alarm.schedule
          == .time(LocalTime(secondsSinceMidnight: 7 * 3600), repeat: [.monday, .tuesday]))
    }
  }

  @Test("one run reports every problem, not just the first")
  func everyProblem() {
    let json =
      #"{"alarms":[{"id":"a","time":"24:00","label":"Gym","snooze":1},{"id":"b","at":"tomorrow"}]}"#
    #expect(
      problems(json) == [
        #"alarms.json: alarm 1 ("Gym"): time "24:00" is not a valid HH:mm time"#,
        #"alarms.json: alarm 1 ("Gym"): snooze must be true or false, not a number"#,
        #"alarms.json: alarm 2: at "tomorrow" is not a valid local date-time (YYYY-MM-DDTHH:mm)"#,
      ])
  }

  @Test("labels lose surrounding spaces and CRLF becomes LF, so they survive iCalendar")
  func labelNormalization() throws {
    let alarms = try read(#"{"alarms":[{"id":"a","time":"07:00","label":"  two\r\nlines  "}]}"#)
      .get()
    #expect(alarms.first?.label == "two\nlines")
  }

  @Test("a snooze interval written as 9.0 is the whole number 9, as JSON Schema's integer allows")
  func integralDecimal() throws {
    let alarms = try read(#"{"alarms":[{"id":"a","time":"07:00","snoozeMinutes":9.0}]}"#).get()
    #expect(alarms.first?.snoozeMinutes == 9)
  }

  @Test("the duplicate-id message names the alarm's position in the file, even after a bad alarm")
  func duplicatePositions() {
    let json =
      #"{"alarms":[{"time":"x"},{"id":"a","time":"07:00","label":"one"},{"id":"a","time":"08:00","label":"two"}]}"#
    #expect(
      problems(json) == [
        #"alarms.json: alarm 1: time "x" is not a valid HH:mm time"#,
        #"alarms.json: alarm 3 ("two"): id "a" is already used by alarm 2"#,
      ])
  }
}
