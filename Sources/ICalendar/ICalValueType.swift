/// A value type of RFC 5545 §3.3, as a `VALUE` parameter names it.
public enum ICalValueType: String, CaseIterable, Sendable {
  case binary = "BINARY"
  case boolean = "BOOLEAN"
  case calAddress = "CAL-ADDRESS"
  case date = "DATE"
  case dateTime = "DATE-TIME"
  case duration = "DURATION"
  case float = "FLOAT"
  case integer = "INTEGER"
  case period = "PERIOD"
  case recur = "RECUR"
  case text = "TEXT"
  case time = "TIME"
  case uri = "URI"
  case utcOffset = "UTC-OFFSET"
}
