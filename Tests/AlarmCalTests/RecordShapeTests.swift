import AlarmCal
import Foundation
import ICalendar
import Testing

/// The record shapes alarm apps store, each field form read to an exact alarm.
@Suite struct RecordShapeTests {
  private func alarm(_ record: String, zone: String = "Europe/Berlin") throws -> Alarm {
    let result = AlarmFileReader(fileName: "a.json", defaultTimeZone: zone)
      .read(Array("[\(record)]".utf8))
    switch result {
    case .success(let alarms): return try #require(alarms.first)
    case .failure(let problems):
      Issue.record("\(problems.problems.map(\.description))")
      throw problems
    }
  }

  private func problems(_ record: String) -> [String] {
    switch AlarmFileReader(fileName: "a.json", defaultTimeZone: "UTC").read(
      Array("[\(record)]".utf8))
    {
    case .success: ["(no problem)"]
    case .failure(let problems): problems.problems.map(\.description)
    }
  }

  private func time(_ text: String) throws -> LocalTime {
    try #require(AlarmTextFormats.clockTime(text))
  }

  @Test(
    "the label is label or name; the id is id, uuid, identifier or creatTime",
    arguments: [
      (#"{"id":"x1","label":"A","time":"06:00"}"#, "x1", "A"),
      (#"{"uuid":"x2","name":"B","time":"06:00"}"#, "x2", "B"),
      (#"{"identifier":"x3","label":"C","time":"06:00"}"#, "x3", "C"),
      (
        #"{"creatTime":"2025-03-14 07:02:11","name":"D","alarmTime":"06:00"}"#,
        "2025-03-14 07:02:11", "D"
      ),
      (#"{"creatTime":1741935731,"name":"E","alarmTime":"06:00"}"#, "1741935731", "E"),
    ])
  func labelsAndIDs(record: String, id: String, label: String) throws {
    let read = try alarm(record)
    #expect(read.id == id)
    #expect(read.label == label)
  }

  @Test(
    "the time is HH:mm, H:mm, an ISO 8601 date-time or a Foundation Date number",
    arguments: [
      (#"{"time":"06:45"}"#, "06:45"),
      (#"{"time":"6:45"}"#, "06:45"),
      (#"{"alarmTime":"6:45:30"}"#, "06:45:30"),
      // 05:45Z is 06:45 in Berlin in winter.
      (#"{"time":"2026-12-04T05:45:00Z"}"#, "06:45"),
      (#"{"time":"2026-12-04T07:45:00+02:00"}"#, "06:45"),
      (#"{"alarmTime":"2026-12-04T06:45"}"#, "06:45"),
      // 786519900 s after 2001-01-01T00:00:00Z is 2025-12-04T05:45:00Z, 06:45 in Berlin.
      (#"{"alarmTime":786519900}"#, "06:45"),
      (#"{"alarmTime":786519900.75}"#, "06:45"),
    ])
  func times(record: String, expected: String) throws {
    #expect(try alarm(record).schedule == .time(try time(expected), repeat: []))
  }

  @Test(
    "repeat days: 7 booleans (Sunday first), Calendar weekday numbers, or names",
    arguments: [
      (
        #"{"alarmTime":"07:00","repeatDays":[false,true,true,true,true,true,false]}"#,
        [Weekday.monday, .tuesday, .wednesday, .thursday, .friday]
      ),
      (#"{"time":"07:00","repeatWeekdays":[1,7]}"#, [.sunday, .saturday]),
      (#"{"time":"07:00","weekdays":[2,4,6]}"#, [.monday, .wednesday, .friday]),
      (#"{"time":"07:00","weekdays":["Mon","monday","Tue"]}"#, []),
      (#"{"time":"07:00","repeatWeekdays":["Sat","sunday"]}"#, [.saturday, .sunday]),
      (#"{"time":"07:00","repeat":["mon",3]}"#, [.monday, .tuesday]),
    ])
  func repeatDays(record: String, days: [Weekday]) throws {
    if days.isEmpty {
      // Mon and monday are one day, listed twice.
      #expect(problems(record) == [#"a.json: alarm 1: weekdays: "monday" is listed twice"#])
      return
    }
    #expect(try alarm(record).schedule == .time(try time("07:00"), repeat: Set(days)))
  }

  @Test("on/off and snooze: enabled or isEnabled, snooze or snoozeEnabled")
  func switches() throws {
    let own = try alarm(#"{"time":"07:00","enabled":false,"snooze":false}"#)
    let app = try alarm(#"{"alarmTime":"07:00","isEnabled":false,"snoozeEnabled":false}"#)
    for read in [own, app] {
      #expect(read.enabled == false)
      #expect(read.snooze == false)
    }
    #expect(try alarm(#"{"time":"07:00"}"#).enabled)
  }

  @Test("two names of one field are refused, naming both")
  func synonymsTwice() {
    #expect(
      problems(#"{"time":"07:00","label":"A","name":"B"}"#) == [
        #"a.json: alarm 1 ("A"): "label" and "name" are both given; they name the same thing"#
      ])
    #expect(
      problems(#"{"time":"07:00","alarmTime":"08:00"}"#) == [
        #"a.json: alarm 1: "time" and "alarmTime" are both given; they name the same thing"#
      ])
  }

  @Test("bad forms get one message naming the key as written")
  func badForms() {
    #expect(
      problems(#"{"alarmTime":true}"#) == [
        "a.json: alarm 1: alarmTime must be a string or a number, not a boolean"
      ])
    #expect(
      problems(#"{"time":"07:00","repeatWeekdays":[0]}"#) == [
        "a.json: alarm 1: repeatWeekdays: 0 is not a weekday name (mon, tue, wed, thu, fri, sat, sun) or number (1 = Sunday ... 7 = Saturday)"
      ])
    #expect(
      problems(#"{"alarmTime":"noon","name":"N"}"#) == [
        #"a.json: alarm 1 ("N"): alarmTime "noon" is not a valid HH:mm time"#
      ])
  }
}

/// App records survive app shape → .ics → app shape, whichever accepted shape they came in.
@Suite struct AppShapeRoundTripTests {
  private let now = Instant(secondsSince1970: 1_796_198_400)

  /// Generated app records: every weekday pattern in turn, times across the day, sounds,
  /// switches and labels with JSON escapes.
  private func records(_ count: Int) -> [(
    time: String, name: String, days: [Bool], sound: String?, snooze: Bool, enabled: Bool,
    id: String
  )] {
    let names = ["Wake up", "Gym, then \"pick up\" Mia", "Café ☕", "tab\there", "日本語"]
    let sounds: [String?] = ["Radar", nil, "Slow Rise"]
    return (0..<count).map { n in
      let mask = (n * 37) % 128
      return (
        time: String(format: "%02d:%02d", (n * 7) % 24, (n * 13) % 60),
        name: "\(names[n % names.count]) \(n)",
        days: (0..<7).map { mask & (1 << $0) != 0 },
        sound: sounds[n % sounds.count], snooze: n % 2 == 0, enabled: n % 3 != 0,
        id: "2025-03-14 07:\(String(format: "%02d", n % 60)):\(n)"
      )
    }
  }

  private func appJSON(
    _ records: [(
      time: String, name: String, days: [Bool], sound: String?, snooze: Bool, enabled: Bool,
      id: String
    )]
  ) -> [UInt8] {
    let alarms = records.map { record in
      Alarm(
        id: record.id,
        schedule: .time(
          AlarmTextFormats.clockTime(record.time) ?? .midnight,
          repeat: Set(
            zip(
              [Weekday.sunday, .monday, .tuesday, .wednesday, .thursday, .friday, .saturday],
              record.days
            )
            .filter(\.1).map(\.0))),
        label: record.name, sound: record.sound, snooze: record.snooze, enabled: record.enabled,
        timeZone: "Europe/Paris")
    }
    return AlarmFileWriter.appShape(alarms, zone: "Europe/Paris").bytes
  }

  private func throughCalendar(_ json: [UInt8]) throws -> [UInt8] {
    let alarms = try AlarmFileReader(fileName: "a.json", defaultTimeZone: "Europe/Paris").read(json)
      .get()
    let text = try AlarmExporter(now: now, timestamp: now).text(alarms)
    let back = try AlarmImporter(fileName: "a.ics", defaultTimeZone: "Europe/Paris", now: now)
      .importAlarms(fromText: text)
    #expect(back.losses.isEmpty)
    let shaped = AlarmFileWriter.appShape(back.alarms, zone: "Europe/Paris")
    #expect(shaped.omissions.isEmpty)
    return shaped.bytes
  }

  @Test("600 generated app records: app shape → .ics → app shape, byte for byte")
  func generated() throws {
    let json = appJSON(records(600))
    #expect(try throughCalendar(json) == json)
  }

  @Test("the same records in the other shapes come back as the app's records")
  func otherShapes() throws {
    let generated = records(60)
    let expected = appJSON(generated)
    let sundayFirst = ["Sun", "monday", "Tue", "wednesday", "thu", "Fri", "saturday"]
    var shapes: [String] = []
    for variant in 0..<3 {
      var items: [String] = []
      for record in generated {
        let escapedName = String(
          decoding: JSONWriter(style: .compact).string(from: .string(record.name)).utf8,
          as: UTF8.self)
        let sound = record.sound.map { #","sound":"\#($0)""# } ?? ""
        let time = record.time.hasPrefix("0") ? String(record.time.dropFirst()) : record.time
        switch variant {
        case 0:  // alarmcal's names, Calendar weekday numbers, H:mm
          let days = record.days.enumerated().filter(\.1).map { "\($0.offset + 1)" }
          items.append(
            #"{"uuid":"\#(record.id)","label":\#(escapedName),"time":"\#(time)","repeatWeekdays":[\#(days.joined(separator: ","))]\#(sound),"snooze":\#(record.snooze),"enabled":\#(record.enabled)}"#
          )
        case 1:  // identifier, name, weekday names, an ISO date-time
          let days = record.days.enumerated().filter(\.1).map { "\"\(sundayFirst[$0.offset])\"" }
          items.append(
            #"{"identifier":"\#(record.id)","name":\#(escapedName),"alarmTime":"2026-12-04T\#(record.time):00","weekdays":[\#(days.joined(separator: ","))]\#(sound),"snoozeEnabled":\#(record.snooze),"isEnabled":\#(record.enabled)}"#
          )
        default:  // a Foundation Date number in UTC, read in Europe/Paris (UTC+1 in December)
          let parts = record.time.split(separator: ":").compactMap { Int($0) }
          let seconds = 786_499_200 + (parts[0] * 3600 + parts[1] * 60) - 3600
          let days = record.days.map { $0 ? "true" : "false" }
          items.append(
            #"{"creatTime":"\#(record.id)","name":\#(escapedName),"alarmTime":\#(seconds),"repeatDays":[\#(days.joined(separator: ","))]\#(sound),"snoozeEnabled":\#(record.snooze),"isEnabled":\#(record.enabled)}"#
          )
        }
      }
      shapes.append("[" + items.joined(separator: ",") + "]")
    }
    for (variant, json) in shapes.enumerated() {
      #expect(try throughCalendar(Array(json.utf8)) == expected, "shape \(variant)")
    }
  }
}
