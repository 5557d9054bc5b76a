import AlarmCalCLI
import Foundation

let status = Tool.run(
  arguments: Array(CommandLine.arguments.dropFirst()),
  environment: ProcessInfo.processInfo.environment
)
exit(status.rawValue)
