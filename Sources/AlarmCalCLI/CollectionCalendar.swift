import CalDAV
import Foundation
import ICalendar

/// A CalDAV collection's resources read as calendar text: what `pull`, `upcoming --url` and a
/// pull into a list share.
enum CollectionCalendar {
  /// A resource that is not iCalendar text.
  struct UnreadableResource: Error {
    let message: String
  }

  /// The resources' texts (path, text), read in path order, as one calendar: each VEVENT and
  /// VTODO with its VALARMs, each VTIMEZONE once; and the path that holds each UID.
  static func joined(_ resources: [(path: String, text: String)], collection: URL)
    throws(UnreadableResource) -> (bytes: [UInt8], pathOfUID: [String: String])
  {
    var calendars: [ICalComponent] = []
    var pathOfUID: [String: String] = [:]
    for (path, text) in resources.sorted(by: { $0.path < $1.path }) {
      do {
        let read = try ICalendarReader.read(Array(crlf(text).utf8))
        calendars += read
        for member in read.flatMap(\.components) {
          if let uid = member.propertyValue(uppercased: "UID") { pathOfUID[uid] = path }
        }
      } catch {
        throw UnreadableResource(message: "\(collection.absoluteString)\(path): \(error)")
      }
    }
    let joined = CalendarResources.join(calendars)
    var printer = ICalendarPrinter()
    for calendar in joined { printer.write(calendar) }
    return (printer.takeBytes(), pathOfUID)
  }

  /// Text with CRLF line ends (XML hands calendar-data over with LF).
  static func crlf(_ text: String) -> String {
    text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
  }
}
