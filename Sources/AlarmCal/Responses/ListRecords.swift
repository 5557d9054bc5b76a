/// Where the records of an alarm or task list (JSON) lie in its bytes, in the order
/// ``AlarmFileReader`` reads them: for edits that leave every other byte as it was (`snooze`
/// and `dismiss` on a list, `pull` into one).
public struct ListRecords: Sendable {
  /// Each alarm's record.
  public let alarms: [Range<Int>]
  /// Each task's record: the records of a bare array that are tasks, the `tasks` array, or the
  /// values of a dictionary of tasks.
  public let tasks: [Range<Int>]
  /// Every element of the array that holds the alarms (a bare list's tasks among them), in
  /// order; empty when there is no such array.
  public let alarmArray: [Range<Int>]
  /// Every entry of the container that holds the tasks, in order: the elements of a bare array
  /// or of the `tasks` array, or a dictionary's `"key": value` members. A task's entry is what
  /// leaves the list with it.
  public let taskEntries: [Range<Int>]

  /// The records of `bytes`, a list ``JSONParser`` reads; nil for other JSON.
  public init?(_ bytes: [UInt8]) {
    guard
      let parsed = try? JSONParser(maximumElements: AlarmFileReader.maximumAlarms).parse(bytes)
    else { return nil }
    let outline = JSONOutline(bytes: bytes)
    let root = outline.root
    switch parsed {
    case .array(let items):
      let ranges = outline.elements(ofArrayAt: root)
      guard ranges.count == items.count else { return nil }
      alarmArray = ranges
      taskEntries = ranges
      alarms = zip(ranges, items).filter { !TaskRecordDecoder.isTask($0.1) }.map(\.0)
      tasks = zip(ranges, items).filter { TaskRecordDecoder.isTask($0.1) }.map(\.0)
    case .object:
      let members = outline.members(ofObjectAt: root)
      let array = { (key: String) -> [Range<Int>] in
        members.first { $0.key == key }.map {
          outline.elements(ofArrayAt: $0.valueRange.lowerBound)
        } ?? []
      }
      if parsed["alarms"] == nil, parsed["tasks"] == nil {
        // A to-do app's dictionary of tasks keyed by UUID.
        (alarmArray, alarms, tasks) = ([], [], members.map(\.valueRange))
        taskEntries = members.map { $0.keyRange.lowerBound..<$0.valueRange.upperBound }
      } else {
        alarmArray = array("alarms")
        alarms = alarmArray
        tasks = array("tasks")
        taskEntries = tasks
      }
    default:
      return nil
    }
  }
}
