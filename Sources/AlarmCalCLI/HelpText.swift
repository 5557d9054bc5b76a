/// The help texts, each printed whole by `--help`/`help COMMAND` and asserted word for word.
enum HelpText {
  static let version = "alarmcal 0.1.0"

  static let tool = """
    alarmcal: move alarms between clock apps and calendars.

    Usage: alarmcal <command> [options]

    Commands:
      convert   Convert an alarm list to iCalendar (.ics) or an .ics file to an alarm list.
      help      Show help for a command.

    Options:
      -h, --help     Show this help.
      --version      Show the version.

    Run 'alarmcal help <command>' for a command's options.

    """

  static let convert = """
    Usage: alarmcal convert INPUT [-o OUTPUT] [--to ics|json] [--tz ZONE] [--now ISO-8601] [--strict]

    Convert an alarm list (JSON) to iCalendar, or an iCalendar file to an alarm list.

    Arguments:
      INPUT              The file to read; '-' reads standard input. Its kind comes from the
                         extension (.json, .ics), else from the content.

    Options:
      -o, --output FILE  Where to write; '-' or no option writes to standard output. The file is
                         replaced atomically and never the input itself.
      --to ics|json      The output kind (default: from the output's extension, else the other kind).
      --tz ZONE          IANA zone for alarms and floating times that name none
                         (default: the system zone).
      --now ISO-8601     The moment to export for: each alarm starts at its first ring at or
                         after it (default: now). DTSTAMP is SOURCE_DATE_EPOCH when set, else
                         this moment.
      --strict           Exit 1 and write nothing when import cannot keep something.
      -h, --help         Show this help.

    Exit status: 0 done, 1 --strict found losses, 64 usage error, 65 unusable input data,
    66 missing input, 74 write error.

    """
}
