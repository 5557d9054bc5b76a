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
  /// VTODO with its VALARMs, each VTIMEZONE once; and the UID each resource holds (its first,
  /// should it hold several, which RFC 4791 §4.1 does not allow).
  static func joined(_ resources: [(path: String, text: String)], collection: URL)
    throws(UnreadableResource) -> (bytes: [UInt8], uidOfPath: [String: String])
  {
    var calendars: [ICalComponent] = []
    var uidOfPath: [String: String] = [:]
    for (path, text) in resources.sorted(by: { $0.path < $1.path }) {
      let read = try Self.calendars(of: text, path: path, collection: collection)
      calendars += read
      uidOfPath[path] =
        read.flatMap(\.components).lazy
        .compactMap { $0.propertyValue(uppercased: "UID") }.first
    }
    let joined = CalendarResources.join(calendars)
    var printer = ICalendarPrinter()
    for calendar in joined { printer.write(calendar) }
    return (printer.takeBytes(), uidOfPath)
  }

  /// The calendars of the resource at `path` of `collection`, whose text is `text`.
  static func calendars(of text: String, path: String, collection: URL)
    throws(UnreadableResource) -> [ICalComponent]
  {
    do {
      return try ICalendarReader.read(Array(crlf(text).utf8))
    } catch {
      throw UnreadableResource(message: "\(collection.absoluteString)\(path): \(error)")
    }
  }

  /// Text with CRLF line ends (XML hands calendar-data over with LF).
  static func crlf(_ text: String) -> String {
    text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
  }
}
