import Foundation
import ICalendar

/// Component trees in the shape `AlarmExporter` (in AlarmCal, which this target cannot import)
/// builds, from the same ICalendar constructors: a VCALENDAR with its four properties, a
/// VTIMEZONE per zone from ``VTimezoneLibrary``, and per alarm a VEVENT with a VALARM. Keep it in
/// step with `AlarmExporter.event(for:start:)`; `ExportTests` pins the exporter's own output.
enum ExportShape {
  /// What the exporter writes of one alarm.
  struct Event {
    var id: String
    var label: String
    var sound: String?
    /// nil: a one-shot `at`; empty: rings once at a time of day; else the weekdays.
    var days: Set<Weekday>?
    var start: LocalDateTime
    var zone: String
    var enabled = true
    var snooze = true
    var snoozeMinutes = 9
  }

  /// The VEVENT and VALARM of one alarm.
  static func event(_ event: Event, stamp: String = "20261202T080000Z") -> ICalComponent {
    var vevent = ICalComponent("VEVENT")
    vevent.add(.text("UID", event.id))
    vevent.add(ICalProperty("DTSTAMP", stamp))
    vevent.add(DateTimeValue.zoned(event.start, tzid: event.zone).property("DTSTART"))
    if let days = event.days {
      if days.isEmpty {
        vevent.add(ICalProperty("X-ALARMCAL-RINGS", "ONCE"))
      } else {
        let codes = days.sorted().map(\.icalCode).joined(separator: ",")
        vevent.add(ICalProperty("RRULE", "FREQ=WEEKLY;BYDAY=\(codes)"))
      }
    }
    if !event.label.isEmpty { vevent.add(.text("SUMMARY", event.label)) }
    vevent.add(ICalProperty("TRANSP", "TRANSPARENT"))
    var valarm = ICalComponent("VALARM")
    valarm.add(ICalProperty("ACTION", event.enabled ? "AUDIO" : "NONE"))
    valarm.add(ICalProperty("TRIGGER", ICalDuration.zero.description))
    if let sound = event.sound {
      valarm.add(ICalProperty("ATTACH", sound, parameters: [ICalParameter("VALUE", "URI")]))
    }
    valarm.add(ICalProperty("X-ALARMCAL-SNOOZE", event.snooze ? "TRUE" : "FALSE"))
    valarm.add(
      ICalProperty(
        "X-ALARMCAL-SNOOZE-INTERVAL", ICalDuration(seconds: event.snoozeMinutes * 60).description))
    vevent.components.append(valarm)
    return vevent
  }

  /// The VCALENDAR holding `events`, with a VTIMEZONE for each zone they use.
  static func calendar(_ events: [Event]) -> ICalComponent {
    let start = LocalDateTime(
      LocalDate(daysSince1970: 20_422), LocalTime.midnight)  // 2025-12-01
    let zones = Set(events.map(\.zone)).sorted().compactMap {
      VTimezoneLibrary.vtimezone(for: $0, from: start)
    }
    return ICalComponent(
      "VCALENDAR",
      properties: [
        ICalProperty("VERSION", "2.0"), .text("PRODID", "-//alarmcal//alarmcal 0.1//EN"),
        ICalProperty("CALSCALE", "GREGORIAN"), .text("X-WR-CALNAME", "Alarms"),
      ],
      components: zones + events.map { event($0) })
  }

  /// The alarms of an alarm file (alarmcal's records or an iOS app's), read loosely: enough of
  /// each record for the shape of its event; DTSTART is the record's time on 2026-12-03.
  static func events(fromAlarmFile data: Data) throws -> [Event] {
    let root = try JSONSerialization.jsonObject(with: data)
    let fileZone = (root as? [String: Any])?["timeZone"] as? String ?? "Europe/Berlin"
    let records =
      (root as? [[String: Any]]) ?? ((root as? [String: Any])?["alarms"] as? [[String: Any]])
      ?? []
    let weekdays: [String: Weekday] = [
      "mon": .monday, "tue": .tuesday, "wed": .wednesday, "thu": .thursday, "fri": .friday,
      "sat": .saturday, "sun": .sunday,
    ]
    let sundayFirst: [Weekday] = [
      .sunday, .monday, .tuesday, .wednesday, .thursday, .friday, .saturday,
    ]
    let day = LocalDate(daysSince1970: 20_790)  // 2026-12-03
    return records.enumerated().map { index, record in
      var days: Set<Weekday>? = []
      if let names = record["repeat"] as? [String] {
        days = Set(names.compactMap { weekdays[$0] })
      } else if let flags = record["repeatDays"] as? [Bool] {
        days = Set(zip(sundayFirst, flags).filter(\.1).map(\.0))
      }
      var start = LocalDateTime(day, clockTime(record["time"] ?? record["alarmTime"]))
      if let at = record["at"] as? String {
        days = nil
        let digits = at.filter(\.isNumber).map { Int(String($0)) ?? 0 }
        let number = { (range: Range<Int>) in range.reduce(0) { $0 * 10 + digits[$1] } }
        if digits.count >= 12,
          let date = LocalDate(year: number(0..<4), month: number(4..<6), day: number(6..<8))
        {
          start = LocalDateTime(
            date, LocalTime(secondsSinceMidnight: number(8..<10) * 3600 + number(10..<12) * 60))
        }
      }
      let id = record["id"] ?? record["creatTime"]
      let sound = (record["sound"] as? String).flatMap { $0.isEmpty ? nil : $0 }
      return Event(
        id: id.map { "\($0)" } ?? "alarm-\(index)",
        label: (record["label"] ?? record["name"]) as? String ?? "Alarm", sound: sound,
        days: days, start: start, zone: record["timeZone"] as? String ?? fileZone,
        enabled: (record["enabled"] ?? record["isEnabled"]) as? Bool ?? true,
        snooze: (record["snooze"] ?? record["snoozeEnabled"]) as? Bool ?? true,
        snoozeMinutes: record["snoozeMinutes"] as? Int ?? 9)
    }
  }

  private static func clockTime(_ value: Any?) -> LocalTime {
    let parts = ((value as? String) ?? "07:00").split(separator: ":").compactMap { Int($0) }
    guard parts.count >= 2 else { return LocalTime.midnight }
    return LocalTime(secondsSinceMidnight: parts[0] * 3600 + parts[1] * 60)
  }
}
