#!/usr/bin/env python3
"""The benchmarks' workloads done with the Python library recurring-ical-events (r-i-e).

Usage: rie_firings.py FILE --from ISO [--to ISO] [--first N] [--print] [--tz ZONE]

Parses FILE with icalendar (every VCALENDAR in it) and asks r-i-e (>= 3.8) for the alarm
firings with `recurring_ical_events.of(calendar, components=["VALARM"])`:
  - without --first, `.between(from, to)`: every firing with from <= trigger < to, in the order
    r-i-e yields them (series by series, not sorted), the W2 and W3 workloads;
  - with --first N, the N earliest firings at or after --from (and before --to, optional
    then), the W1 workload: `.between()` over consecutive windows from --from, a day first,
    doubling while too few firings turn up, each window sorted by (trigger, UID). This is what
    r-i-e's own ordered iterator `.after(from)` does inside, but `.after()` drops a firing whose
    (UID, RECURRENCE-ID, trigger) equals one already yielded: two VALARMs of one instance with
    the same TRIGGER (the generator makes some) would count once, where alarmcal and
    `.between()` count two.
--print writes "<UTC trigger> <UID>" per firing to stdout; the count always goes to stderr as
"firings N". Floating and all-day triggers are read in --tz (default UTC).

Exit status: 0 done, 64 usage error, 65 the file cannot be parsed, 66 it cannot be read,
70 r-i-e raised an error (3.8.2 does on an all-day event with a TRIGGER that has a time part,
like the generator's "mixed" birthdays with TRIGGER:-PT15H: it computes the trigger as a date
and then refuses to set it; ics-query's --tz sidesteps that).
"""
import argparse
import datetime as dt
import sys
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

UTC = dt.timezone.utc


class Parser(argparse.ArgumentParser):
    """argparse with the project's usage exit status, 64."""

    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"error: {message}", file=sys.stderr)
        sys.exit(64)


def parse_instant(text):
    """2026-12-02T08:00:00Z (or a date, midnight UTC) as an aware datetime."""
    value = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def trigger_of(component, zone):
    """The UTC trigger of one r-i-e result: its parent component with the one VALARM."""
    when = component.subcomponents[0]["TRIGGER"].dt
    if not isinstance(when, dt.datetime):
        when = dt.datetime.combine(when, dt.time())
    if when.tzinfo is None:
        when = when.replace(tzinfo=zone)
    return when.astimezone(UTC)


def between(calendars, opts, start, end):
    """(trigger, UID) of every firing with start <= trigger < end, in r-i-e's order."""
    for calendar in calendars:
        query = recurring_ical_events.of(calendar, components=["VALARM"])
        for component in query.between(start, end):
            yield trigger_of(component, opts.zone), str(component.get("UID", ""))


def first(calendars, opts):
    """The first --first firings at or after --from (and before --to, if given), in order:
    `.between()` over consecutive windows from --from, a day first, doubling while a window
    brings fewer than are missing; each window's firings sorted by (trigger, UID)."""
    start, span, found = opts.start, dt.timedelta(days=1), 0
    horizon = opts.end or dt.datetime(9999, 12, 31, tzinfo=UTC)
    while found < opts.first and start < horizon:
        end = min(start + span, horizon)
        for item in sorted(between(calendars, opts, start, end))[:opts.first - found]:
            found += 1
            yield item
        start, span = end, span * 2


def main():
    """Parses the options, reads the file, counts (and prints) the firings."""
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("file")
    parser.add_argument("--from", dest="start", type=parse_instant, required=True)
    parser.add_argument("--to", dest="end", type=parse_instant)
    parser.add_argument("--first", type=int)
    parser.add_argument("--print", action="store_true")
    parser.add_argument("--tz", default="UTC", help="zone of floating and all-day times")
    opts = parser.parse_args()
    if opts.first is not None and opts.first <= 0:
        parser.error("--first wants a positive whole number")
    if opts.end is None and opts.first is None:
        parser.error("--to is required without --first")
    opts.zone = ZoneInfo(opts.tz)
    try:
        with open(opts.file, "rb") as file:
            text = file.read()
    except OSError as error:
        print(f"error: {opts.file}: {error.strerror}", file=sys.stderr)
        return 66
    try:
        calendars = icalendar.Calendar.from_ical(text, multiple=True)
    except ValueError as error:
        print(f"error: {opts.file}: {error}", file=sys.stderr)
        return 65
    count = 0
    out = sys.stdout
    found = (between(calendars, opts, opts.start, opts.end) if opts.first is None
             else first(calendars, opts))
    try:
        for trigger, uid in found:
            count += 1
            if opts.print:
                out.write(f"{trigger:%Y-%m-%dT%H:%M:%SZ} {uid}\n")
    except Exception as error:  # r-i-e and icalendar raise many kinds; report, don't hide
        out.flush()
        print(f"error: recurring-ical-events failed after {count} firings: "
              f"{type(error).__name__}: {error}", file=sys.stderr)
        return 70
    out.flush()
    print(f"firings {count}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
