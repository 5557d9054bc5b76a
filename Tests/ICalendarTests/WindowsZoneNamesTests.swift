import Foundation
import Testing

@testable import ICalendar

@Suite struct WindowsZoneNamesTests {
  @Test(
    "a well-known Windows name maps to CLDR's IANA id",
    arguments: [
      ("W. Europe Standard Time", "Europe/Berlin"),
      ("Romance Standard Time", "Europe/Paris"),
      ("GMT Standard Time", "Europe/London"),
      ("Greenwich Standard Time", "Atlantic/Reykjavik"),
      ("FLE Standard Time", "Europe/Kiev"),  // CLDR keeps the older spelling of Kyiv
      ("Russian Standard Time", "Europe/Moscow"),
      ("Eastern Standard Time", "America/New_York"),
      ("Central Standard Time", "America/Chicago"),
      ("Mountain Standard Time", "America/Denver"),
      ("US Mountain Standard Time", "America/Phoenix"),  // Arizona: no daylight saving
      ("Pacific Standard Time", "America/Los_Angeles"),
      ("Pacific Standard Time (Mexico)", "America/Tijuana"),
      ("E. South America Standard Time", "America/Sao_Paulo"),
      ("Tokyo Standard Time", "Asia/Tokyo"),
      ("China Standard Time", "Asia/Shanghai"),
      ("India Standard Time", "Asia/Calcutta"),  // not Asia/Kolkata: CLDR's canonical id
      ("Nepal Standard Time", "Asia/Katmandu"),
      ("AUS Eastern Standard Time", "Australia/Sydney"),
      ("New Zealand Standard Time", "Pacific/Auckland"),
      ("UTC", "Etc/UTC"),
      ("Dateline Standard Time", "Etc/GMT+12"),  // Etc/ signs are inverted: this is UTC-12
      ("UTC+12", "Etc/GMT-12"),
    ]
  )
  func wellKnownName(windowsName: String, identifier: String) {
    #expect(WindowsZoneNames.ianaIdentifier(forWindowsName: windowsName) == identifier)
  }

  @Test(
    "a name that is not a Windows zone gives nil",
    arguments: [
      "",
      "   ",
      "\"\"",
      "Mars Standard Time",
      "W. Europe",
      "Europe/Berlin",  // an IANA id is not a Windows name
      "W. Europe Daylight Time",
      "(UTC+01:00) Atlantis",
      "(GMT+02.00) Athens / Beirut / Istanbul / Minsk",  // cities since split across zones
    ]
  )
  func unknownName(name: String) {
    #expect(WindowsZoneNames.ianaIdentifier(forWindowsName: name) == nil)
  }

  @Test(
    "case, surrounding whitespace and quotes are ignored",
    arguments: [
      ("w. europe standard time", "Europe/Berlin"),
      ("EASTERN STANDARD TIME", "America/New_York"),
      ("  Tokyo Standard Time\n", "Asia/Tokyo"),
      ("\"Pacific Standard Time\"", "America/Los_Angeles"),
      (" 'GMT Standard Time' ", "Europe/London"),
      ("\"utc\"", "Etc/UTC"),
      ("\"(UTC+13:00) Nuku'alofa\"", "Pacific/Tongatapu"),  // the inner quote stays
    ]
  )
  func foldedName(name: String, identifier: String) {
    #expect(WindowsZoneNames.ianaIdentifier(forWindowsName: name) == identifier)
  }

  @Test(
    "a Windows display name maps like its zone name",
    arguments: [
      ("(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "Europe/Berlin"),
      ("(UTC-05:00) Eastern Time (US & Canada)", "America/New_York"),
      ("(UTC) Coordinated Universal Time", "Etc/UTC"),
      ("(UTC+00:00) Dublin, Edinburgh, Lisbon, London", "Europe/London"),
      ("(UTC+05:30) Chennai, Kolkata, Mumbai, New Delhi", "Asia/Calcutta"),
      ("(utc+09:00) osaka, sapporo, tokyo", "Asia/Tokyo"),
      // Older Outlook spellings, as real exports carry them.
      ("(GMT+01.00) Amsterdam / Berlin / Bern / Rome / Stockholm / Vienna", "Europe/Berlin"),
      ("(GMT+01.00) Belgrade / Bratislava / Budapest / Ljubljana / Prague", "Europe/Budapest"),
      ("(GMT+01.00) Brussels / Copenhagen / Madrid / Paris", "Europe/Paris"),
      ("(GMT+01.00) Sarajevo / Skopje / Warsaw / Zagreb", "Europe/Warsaw"),
      ("(GMT-08.00) Pacific Time (US & Canada)", "America/Los_Angeles"),
      ("(GMT-01.00) Azores", "Atlantic/Azores"),
      ("(GMT+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "Europe/Berlin"),
    ]
  )
  func displayName(name: String, identifier: String) {
    #expect(WindowsZoneNames.ianaIdentifier(forWindowsName: name) == identifier)
  }

  @Test("the table holds every territory 001 mapping of CLDR's file")
  func tableSize() {
    #expect(WindowsZoneNames.ianaIdentifierByWindowsName.count == 139)
    #expect(WindowsZoneNames.windowsNameByDisplayName.count == 139)
  }

  @Test("every Windows name maps to itself exactly and when folded")
  func everyWindowsName() {
    for (windowsName, identifier) in WindowsZoneNames.ianaIdentifierByWindowsName {
      #expect(WindowsZoneNames.ianaIdentifier(forWindowsName: windowsName) == identifier)
      #expect(
        WindowsZoneNames.ianaIdentifier(forWindowsName: windowsName.uppercased()) == identifier,
        "\(windowsName)")
    }
  }

  @Test("every display name belongs to a Windows name in the table, one to one")
  func everyDisplayName() {
    let table = WindowsZoneNames.ianaIdentifierByWindowsName
    let displayed = WindowsZoneNames.windowsNameByDisplayName.values
    #expect(displayed.filter { table[$0] == nil }.isEmpty)
    #expect(Set(displayed) == Set(table.keys))
  }

  @Test("no two names collide once case and quotes are ignored")
  func foldedNamesAreDistinct() {
    let names =
      WindowsZoneNames.ianaIdentifierByWindowsName.count
      + WindowsZoneNames.windowsNameByDisplayName.count
    #expect(WindowsZoneNames.ianaIdentifierByFoldedName.count == names)
  }

  @Test("every IANA id in the table is known to Foundation on this machine")
  func everyIdentifierIsKnown() {
    let unknown = Set(WindowsZoneNames.ianaIdentifierByWindowsName.values)
      .filter { TimeZone(identifier: $0) == nil }
      .sorted()
    #expect(unknown.isEmpty, "unknown to Foundation: \(unknown.joined(separator: ", "))")
  }
}
