#!/usr/bin/env python3
"""W4, .ics → alarms, done with the Python library icalendar (>= 6.1): the peer of
`alarmcal convert IN.ics -o OUT.json`.

Usage: icalendar_read.py IN.ics OUT.json [--tz ZONE]

Parses IN.ics with `icalendar.Calendar.from_ical` (every VCALENDAR in it) and writes the alarm
list back in the shape and field order alarmcal writes (docs/formats.md): each
VALARM of a VEVENT becomes one alarm, `id` = UID (`UID#2`, `UID#3`, ... for an event's second
and later alarms), `label` = SUMMARY (empty without one), `time` + `repeat` from DTSTART and
an RRULE of FREQ=WEEKLY with BYDAY (or FREQ=DAILY: every day), `time` with an empty `repeat`
for an event alarmcal marked X-ALARMCAL-RINGS:ONCE, else `at`; `sound` = ATTACH, `snooze` and
`snoozeMinutes` from X-ALARMCAL-SNOOZE and X-ALARMCAL-SNOOZE-INTERVAL (default true and 9),
`enabled` = ACTION is not NONE, `timeZone` = DTSTART's TZID (UTC for a UTC time, --tz for a
floating one; default UTC).

It reads what alarmcal writes and no more: a VALARM whose ACTION is not AUDIO, DISPLAY or
NONE, or whose TRIGGER is not zero, an event without DTSTART or with a DATE start, a
cancelled event and any other RRULE are skipped, each with a line on stderr; EXDATE, RDATE,
RECURRENCE-ID, VTODO, revisions, Windows and prefixed zone names, X-WR-TIMEZONE are not looked
at (alarmcal handles or reports each). The count goes to stderr as "alarms N".

Exit status: 0 done, 64 usage error, 65 the file cannot be parsed, 66 it cannot be read,
74 the output cannot be written.
"""
import argparse
import datetime as dt
import json
import sys

import icalendar

DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
BYDAY = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
RINGING = {"AUDIO", "DISPLAY", "NONE"}


class Parser(argparse.ArgumentParser):
    """argparse with the project's usage exit status, 64."""

    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"error: {message}", file=sys.stderr)
        sys.exit(64)


def clock(moment):
    """"HH:mm", or "HH:mm:ss" when the second is not 0."""
    return f"{moment:%H:%M:%S}" if moment.second else f"{moment:%H:%M}"


def repeat_of(rule):
    """The weekdays of a weekly (or daily) rule without end or interval; None for any other."""
    parts = {key.upper() for key in rule}
    frequency = rule.get("FREQ", [""])[0].upper()
    if parts - {"FREQ", "BYDAY", "WKST"} or frequency not in ("WEEKLY", "DAILY"):
        return None
    days = [str(day).upper() for day in rule.get("BYDAY", [])]
    if any(day not in BYDAY for day in days):  # ordinals (1MO) and the like
        return None
    if frequency == "DAILY" and not days:
        days = BYDAY
    return [DAYS[index] for index in sorted({BYDAY.index(day) for day in days})] or None


def alarms_of(event, floating_zone, skipped):
    """The alarms of one VEVENT, in alarmcal's field order."""
    uid = str(event.get("UID", ""))
    if str(event.get("STATUS", "")).upper() == "CANCELLED":
        skipped.append(f"{uid}: cancelled; the event is skipped")
        return
    if "DTSTART" not in event or not isinstance(event["DTSTART"].dt, dt.datetime):
        skipped.append(f"{uid}: no DTSTART with a time; the event is skipped")
        return
    start = event["DTSTART"]
    moment = start.dt
    zone = start.params.get("TZID")
    if zone is None:
        zone = "UTC" if moment.tzinfo is not None else floating_zone
    rules = event.get("RRULE")
    if isinstance(rules, list):
        skipped.append(f"{uid}: several RRULEs; the event is skipped")
        return
    if rules is not None:
        repeat = repeat_of(rules)
        if repeat is None:
            skipped.append(f"{uid}: RRULE:{rules.to_ical().decode()}; the event is skipped")
            return
        when = {"time": clock(moment), "repeat": repeat}
    elif str(event.get("X-ALARMCAL-RINGS", "")).upper() == "ONCE":
        when = {"time": clock(moment), "repeat": []}
    else:
        when = {"at": f"{moment:%Y-%m-%dT%H:%M}" + (f":{moment:%S}" if moment.second else "")}
    label = str(event.get("SUMMARY", ""))
    number = 0
    for alarm in event.walk("VALARM"):
        action = str(alarm.get("ACTION", "")).upper()
        if action not in RINGING:
            skipped.append(f"{uid}: ACTION:{action}; this alarm is skipped")
            continue
        trigger = alarm.get("TRIGGER")
        if trigger is None or trigger.dt != dt.timedelta(0):
            skipped.append(f"{uid}: a trigger other than the start; this alarm is skipped")
            continue
        number += 1
        record = {"id": uid if number == 1 else f"{uid}#{number}"}
        record.update(when)
        record["label"] = label
        if "ATTACH" in alarm:
            record["sound"] = str(alarm["ATTACH"])
        snooze = alarm.get("X-ALARMCAL-SNOOZE")
        record["snooze"] = str(snooze).upper() != "FALSE" if snooze is not None else True
        interval = alarm.get("X-ALARMCAL-SNOOZE-INTERVAL")
        minutes = 9
        if interval is not None:
            minutes = int(icalendar.vDuration.from_ical(str(interval)).total_seconds() // 60)
        record["snoozeMinutes"] = minutes
        record["enabled"] = action != "NONE"
        record["timeZone"] = zone
        yield record


def main():
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("ics")
    parser.add_argument("out")
    parser.add_argument("--tz", default="UTC", help="zone of floating times")
    opts = parser.parse_args()
    try:
        with open(opts.ics, "rb") as file:
            text = file.read()
    except OSError as error:
        print(f"error: {opts.ics}: {error.strerror}", file=sys.stderr)
        return 66
    try:
        calendars = icalendar.Calendar.from_ical(text, multiple=True)
    except ValueError as error:
        print(f"error: {opts.ics}: {error}", file=sys.stderr)
        return 65
    alarms, skipped = [], []
    for calendar in calendars:
        for event in calendar.walk("VEVENT"):
            alarms.extend(alarms_of(event, opts.tz, skipped))
    for line in skipped:
        print(f"{opts.ics}: {line}", file=sys.stderr)
    try:
        with open(opts.out, "w", encoding="utf-8") as file:
            json.dump({"alarms": alarms}, file, indent=2, ensure_ascii=False)
            file.write("\n")
    except OSError as error:
        print(f"error: {opts.out}: {error.strerror}", file=sys.stderr)
        return 74
    print(f"alarms {len(alarms)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
