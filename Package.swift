// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "alarmcal",
  products: [
    .library(name: "ICalendar", targets: ["ICalendar"]),
    .library(name: "AlarmCal", targets: ["AlarmCal"]),
    .library(name: "CalDAV", targets: ["CalDAV"]),
    .library(name: "AlarmCalCLI", targets: ["AlarmCalCLI"]),
    .executable(name: "alarmcal", targets: ["alarmcal"]),
  ],
  targets: [
    .systemLibrary(
      name: "CLibical",
      pkgConfig: "libical",
      providers: [.apt(["libical-dev"])]
    ),
    .target(name: "ICalendar", dependencies: ["CLibical"]),
    .target(name: "AlarmCal", dependencies: ["ICalendar"]),
    .target(name: "CalDAV", dependencies: ["ICalendar"]),
    .target(name: "AlarmCalCLI", dependencies: ["AlarmCal", "CalDAV", "ICalendar"]),
    .executableTarget(name: "alarmcal", dependencies: ["AlarmCalCLI"]),
    // libical's own reader, printer and recurrence iterator: the references tests hold
    // alarmcal's Swift ones to. No product uses it.
    .target(
      name: "LibicalReference",
      dependencies: ["ICalendar", "CLibical"],
      path: "Tests/LibicalReference"
    ),
    .testTarget(
      name: "ICalendarTests",
      dependencies: ["ICalendar", "LibicalReference"],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(
      name: "AlarmCalTests",
      dependencies: ["AlarmCal", "ICalendar", "LibicalReference"],
      resources: [.copy("Fixtures")]
    ),
    // Real Radicale and Xandikos servers on loopback for the CalDAV tests. No product uses it.
    .target(
      name: "CalDAVTestServers",
      dependencies: ["CalDAV"],
      path: "Tests/CalDAVTestServers",
      exclude: ["hostile_server.py", "scripted_server.py"]
    ),
    .testTarget(
      name: "CalDAVTests",
      dependencies: ["CalDAV", "CalDAVTestServers", "ICalendar", "alarmcal"]
    ),
    .testTarget(
      name: "AlarmCalCLITests",
      dependencies: ["AlarmCalCLI", "alarmcal", "CalDAVTestServers"],
      resources: [.copy("Fixtures")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
