/// The help texts, each printed whole by `--help`/`help COMMAND` and asserted word for word.
enum HelpText {
  static let version = "alarmcal 0.1.0"

  static let tool = """
    alarmcal: move alarms between clock apps and calendars.

    Usage: alarmcal <command> [options]

    Commands:
      convert   Convert an alarm list to iCalendar (.ics) or an .ics file to an alarm list.
      upcoming  List when the alarms in .ics files go off.
      plan      The notifications an app schedules (within iOS's 64) to ring them.
      validate  Check .ics files and report every problem with its line and column.
      snooze    Snooze a firing that rang: write it into its .ics file (RFC 9074).
      dismiss   Stop a firing that rang: write it into its .ics file (RFC 9074).
      calendars List the calendars a CalDAV server offers.
      push      Put the alarms of files into a CalDAV calendar, one resource per UID.
      pull      Write a CalDAV calendar as one .ics file (incremental with sync-collection).
      help      Show help for a command.

    Options:
      -h, --help     Show this help.
      --version      Show the version.

    Run 'alarmcal help <command>' for a command's options.

    """

  static let convert = """
    Usage: alarmcal convert INPUT [-o OUTPUT] [--to ics|json] [--shape alarmcal|ios] [--tz ZONE] [--now ISO-8601] [--strict] [--max-file-size SIZE]

    Convert an alarm list (JSON) to iCalendar, or an iCalendar file to an alarm list.

    Arguments:
      INPUT              The file to read; '-' reads standard input. Its kind comes from the
                         extension (.json, .ics), else from the content.

    Options:
      -o, --output FILE  Where to write; '-' or no option writes to standard output. The file is
                         replaced atomically and never the input itself.
      --to ics|json      The output kind (default: from the output's extension, else the other kind).
      --shape alarmcal|ios
                         JSON output's record shape: alarmcal's (default), or the iOS app's
                         (alarmTime, name, repeatDays, sound, snoozeEnabled, isEnabled,
                         creatTime; tasks as the to-do app's dictionary keyed by UUID), with
                         a warning for each field that shape cannot hold.
      --tz ZONE          IANA zone for alarms and floating times that name none
                         (default: the system zone).
      --now ISO-8601     The moment to export for: each alarm starts at its first ring at or
                         after it (default: now). DTSTAMP is SOURCE_DATE_EPOCH when set, else
                         this moment.
      --strict           Exit 1 and write nothing when import cannot keep something.
      --max-file-size SIZE
                         Refuse inputs larger than SIZE bytes (K, M, G: powers of 1,024;
                         default 256M).
      -h, --help         Show this help.

    Exit status: 0 done, 1 --strict found losses, 64 usage error, 65 unusable input data,
    66 missing input, 74 write error.

    """

  static let upcoming = """
    Usage: alarmcal upcoming FILE... | --url COLLECTION_URL [--from ISO] [--to ISO] [--limit N] [--tz ZONE] [--now ISO] [--format text|json|ndjson] [--include-acknowledged] [--include-due] [--max-file-size SIZE] [--max-instances N]

    List the alarm firings of one or more .ics files in time order: every VALARM of every
    instance (RRULE, RDATE, EXDATE, RECURRENCE-ID overrides), with time zones and DST per
    RFC 5545 and acknowledgements per RFC 9074.

    Arguments:
      FILE                    An .ics file, or an alarm list (JSON, any accepted record shape),
                              planned as 'convert' would export it at --now; '-' reads
                              standard input.

    Options:
      --url URL               Also read a CalDAV calendar collection, as 'alarmcal pull'
                              would write it (nothing is kept on disk); with --user and
                              --password-file as for 'alarmcal pull'.
      --from ISO              The window's start (default: --now). Firings with
                              from <= trigger < to are listed.
      --to ISO                The window's end; without --limit, every firing up to it.
      --limit N               At most N firings (default 10 without --to). iOS keeps only the
                              64 soonest pending notifications: --limit 64 fills that budget.
      --tz ZONE               IANA zone for floating and all-day times and for display
                              (default: the system zone).
      --now ISO               The present moment (default: now), for --from and "in 2h 05m".
      --format text|json|ndjson
                              A table for people (default), one JSON array, or one JSON
                              object per line.
      --include-acknowledged  Also list firings covered by ACKNOWLEDGED or X-MOZ-LASTACK.
      --include-due           Also list the DUE of open tasks that have no VALARM (action
                              DUE); completed tasks never ring.
      --max-file-size SIZE    Refuse files larger than SIZE bytes (K, M, G: powers of 1,024;
                              default 256M).
      --max-instances N       Look at most N recurrence instances (candidates a rule tries)
                              per component (default 1000000); a component that needs more
                              is cut off there with a warning.
      -h, --help              Show this help.

    JSON fields: trigger (UTC), local (in --tz, with offset), uid, component (VEVENT or VTODO),
    recurrenceId (the instance's original start in UTC, YYYY-MM-DD for all-day, null if it does
    not recur), eventStart (UTC), summary, action (DUE for a deadline), repeat (0, or k for the
    k-th REPEAT), acknowledged, alarmUid (the VALARM's UID, null if none), isSnooze (true for
    a snooze's firing), snoozeOf (the UID of the alarm a snooze belongs to, else null), sound
    (the alarm's sound, null for the default), snooze (whether it offers Snooze),
    snoozeMinutes (the snooze's length), as in an alarm list's record, file, id
    (stable across runs and machines, and across snoozes and dismissals of other firings;
    usable as a notification request id).

    Exit status: 0 done, 1 a file could not be read (the others are still listed), 64 usage error.

    """

  static let snooze = """
    Usage: alarmcal snooze FILE (--id FIRING_ID | --request ID --delivered ISO) (--minutes N | --until ISO) [--now ISO] [--tz ZONE]

    Snooze a firing that has rung, as a clock app's "Snooze" button does, and write it into
    FILE (RFC 9074 §7): the alarm that rang gets ACKNOWLEDGED (now) and a UID if it had none,
    and a new VALARM with its own UID, RELATED-TO;RELTYPE=SNOOZE and an absolute UTC trigger
    rings at the snooze's end. Snoozing a snooze replaces it. For an instance of a series the
    alarm is the master's; later instances still ring. A file Thunderbird wrote gets
    X-MOZ-LASTACK and X-MOZ-SNOOZE-TIME instead, as Thunderbird writes them. Only the
    component that holds the alarm changes; every other byte stays.

    Arguments:
      FILE               The .ics file, edited in place (atomically; its permissions kept).

    Options:
      --id FIRING_ID     The firing's id, as 'alarmcal upcoming' lists it.
      --request ID       Instead of --id: a 'plan' request's identifier; with --delivered,
                         the latest firing it stands for at or before the delivery.
      --delivered ISO    When the request's notification was delivered.
      --minutes N        Ring again N minutes after --now (clock apps offer 5, 30, 60).
      --until ISO        Ring again at this moment (read in --tz without an offset).
      --now ISO          The present moment (default: now); the firing must have rung by then.
      --tz ZONE          IANA zone for floating times and --until, and the plan's zone for
                         --request (default: the system zone).
      -h, --help         Show this help.

    Prints "snoozed ID until TIME; the snooze rings as SNOOZE_ID".
    Exit status: 0 done, 1 no such firing (or it has not rung yet), 64 usage error,
    65 unusable input data, 66 missing input, 74 write error, 75 the file was being
    edited by another program (nothing was written; try again).

    """

  static let dismiss = """
    Usage: alarmcal dismiss FILE (--id FIRING_ID | --request ID --delivered ISO) [--now ISO] [--tz ZONE]

    Stop a firing that has rung, as a clock app's "Stop" button does, and write it into FILE
    (RFC 9074 §6.1): the alarm gets ACKNOWLEDGED (now) and its pending snoozes are removed.
    For an instance of a series, later instances still ring. A file Thunderbird wrote gets
    X-MOZ-LASTACK, and its X-MOZ-SNOOZE-TIME for the firing is removed. Only the component
    that holds the alarm changes; every other byte stays.

    Arguments:
      FILE               The .ics file, edited in place (atomically; its permissions kept).

    Options:
      --id FIRING_ID     The firing's id, as 'alarmcal upcoming' lists it (a snooze's too).
      --request ID       Instead of --id: a 'plan' request's identifier; with --delivered,
                         the latest firing it stands for at or before the delivery.
      --delivered ISO    When the request's notification was delivered.
      --now ISO          The present moment (default: now); the firing must have rung by then.
      --tz ZONE          IANA zone for floating times, and the plan's zone for --request
                         (default: the system zone).
      -h, --help         Show this help.

    Prints "dismissed ID".
    Exit status: 0 done, 1 no such firing (or it has not rung yet), 64 usage error,
    65 unusable input data, 66 missing input, 74 write error, 75 the file was being
    edited by another program (nothing was written; try again).

    """
}
