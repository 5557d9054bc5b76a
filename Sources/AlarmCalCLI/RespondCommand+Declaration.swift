/// The declarations of `alarmcal snooze` and `alarmcal dismiss`.
extension RespondCommand {
  static func declaration(_ kind: Kind) -> CommandDeclaration {
    switch kind {
    case .snooze:
      CommandDeclaration(
        "snooze",
        abstract: "Snooze a firing that rang: write it into its .ics file (RFC 9074).",
        discussion: """
          Snooze a firing that has rung, as a clock app's "Snooze" button does, and write it into
          FILE (RFC 9074 §7): the alarm that rang gets ACKNOWLEDGED (now) and a UID if it had none,
          and a new VALARM with its own UID, RELATED-TO;RELTYPE=SNOOZE and an absolute UTC trigger
          rings at the snooze's end. Snoozing a snooze replaces it. For an instance of a series the
          alarm is the master's; later instances still ring. A file Thunderbird wrote gets
          X-MOZ-LASTACK and X-MOZ-SNOOZE-TIME instead, as Thunderbird writes them. Only the
          component that holds the alarm changes; every other byte stays.
          """,
        arguments: [file],
        options: target + [
          OptionDeclaration(
            "minutes", .count,
            help: "Ring again N minutes after --now (clock apps offer 5, 30, 60)."),
          OptionDeclaration(
            "until", .instant, help: "Ring again at this moment (read in --tz without an offset)."
          ),
        ] + SharedOptions.time + SharedOptions.input,
        oneOf: [naming, [["minutes"], ["until"]]],
        epilogue: """
          One of --minutes and --until is needed. The firing must have rung by --now.

          Prints "snoozed ID until TIME; the snooze rings as SNOOZE_ID".
          """,
        exitStatuses: exitStatuses)
    case .dismiss:
      CommandDeclaration(
        "dismiss",
        abstract: "Stop a firing that rang: write it into its .ics file (RFC 9074).",
        discussion: """
          Stop a firing that has rung, as a clock app's "Stop" button does, and write it into FILE
          (RFC 9074 §6.1): the alarm gets ACKNOWLEDGED (now) and its pending snoozes are removed.
          For an instance of a series, later instances still ring. A file Thunderbird wrote gets
          X-MOZ-LASTACK, and its X-MOZ-SNOOZE-TIME for the firing is removed. Only the component
          that holds the alarm changes; every other byte stays.
          """,
        arguments: [file],
        options: target + SharedOptions.time + SharedOptions.input,
        oneOf: [naming],
        epilogue: """
          The firing must have rung by --now.

          Prints "dismissed ID".
          """,
        exitStatuses: exitStatuses)
    }
  }

  private static let file = ArgumentDeclaration(
    "FILE",
    help:
      "The .ics file or alarm list (JSON), edited in place (atomically; its permissions kept).")

  /// The firing is named by `--id`, or by `--request` with `--delivered`.
  private static let naming = [["id"], ["request", "delivered"]]

  /// How the firing is named: `--id`, or `--request` with `--delivered`.
  private static let target = [
    OptionDeclaration(
      "id", .text, placeholder: "FIRING_ID",
      help: "The firing's id, as 'alarmcal upcoming' lists it (a snooze's too)."),
    OptionDeclaration(
      "request", .text, placeholder: "ID",
      help:
        "Instead of --id: a 'plan' request's identifier; with --delivered, the latest firing it stands for at or before the delivery. --tz is then the plan's zone."
    ),
    OptionDeclaration(
      "delivered", .instant, help: "When the request's notification was delivered."),
  ]

  private static let exitStatuses = [
    ExitStatus(.success), ExitStatus(.problemsFound, "no such firing (or it has not rung yet)"),
    ExitStatus(.usage), ExitStatus(.badData), ExitStatus(.noInput), ExitStatus(.ioError),
    ExitStatus(.temporaryFailure),
    ExitStatus(
      .noPermission, "FILE may not be edited (read-only, not a regular file, other hard links)"),
  ]
}
