#!/usr/bin/env python3
"""W5 done with the Python library icalendar (>= 6.1): the nearest it has to
`alarmcal validate FILE`, which is reading everything.

Usage: icalendar_parse.py IN.ics

Parses IN.ics with `icalendar.Calendar.from_ical` (every VCALENDAR in it; icalendar's default,
lenient parser, which turns each value into its typed form and keeps in a component's `errors`
the values it could not read), then walks every component (`walk()`) and decodes every
property value (`decoded()`: datetimes, durations, recurrence rules, offsets, texts) and reads
its parameters. Prints "components N" to stdout, and "properties P, parameters Q, errors E"
to stderr, E being the values icalendar could not read. It checks nothing of what alarmcal's rules check
(required and duplicate properties, nesting, DTEND before DTSTART, TZIDs without a VTIMEZONE,
line lengths, ...): Benchmarks/peers/README.md says more.

Exit status: 0 read (whatever the errors), 64 usage error, 65 the file cannot be parsed,
66 it cannot be read.
"""
import sys

import icalendar


def main():
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        print("usage: icalendar_parse.py IN.ics", file=sys.stderr)
        return 64
    path = sys.argv[1]
    try:
        with open(path, "rb") as file:
            text = file.read()
    except OSError as error:
        print(f"error: {path}: {error.strerror}", file=sys.stderr)
        return 66
    try:
        calendars = icalendar.Calendar.from_ical(text, multiple=True)
    except ValueError as error:
        print(f"error: {path}: {error}", file=sys.stderr)
        return 65
    components = properties = parameters = errors = 0
    for calendar in calendars:
        for component in calendar.walk():
            components += 1
            errors += len(component.errors)
            for name, value in component.items():
                component.decoded(name)
                for item in value if isinstance(value, list) else [value]:
                    properties += 1
                    parameters += len(getattr(item, "params", ()))
    print(f"components {components}")
    print(f"properties {properties}, parameters {parameters}, errors {errors}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
