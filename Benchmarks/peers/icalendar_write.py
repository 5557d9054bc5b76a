#!/usr/bin/env python3
"""W4, alarms → .ics, done with the Python library icalendar (>= 6.1): the peer of
`alarmcal convert ALARMS.json -o OUT.ics --now ISO`.

Usage: icalendar_write.py ALARMS.json OUT.ics --now ISO [--tz ZONE]

Reads an alarm list in alarmcal's own shape (docs/formats.md; what
`Benchmarks/generate.py alarms` writes) and builds, with icalendar's objects (Calendar, Event,
Alarm, Timezone.from_tzid) and its `to_ical()`, the calendar alarmcal writes: one VEVENT per
alarm (UID, DTSTAMP = --now, DTSTART;TZID at the first ring at or after --now or at `at`,
RRULE:FREQ=WEEKLY;BYDAY for a repeating alarm, X-ALARMCAL-RINGS:ONCE for a `time` without
`repeat`, SUMMARY unless the label is empty, TRANSP:TRANSPARENT) holding one VALARM (ACTION
AUDIO, or NONE when switched off; TRIGGER of zero; ATTACH for a sound; X-ALARMCAL-SNOOZE and
X-ALARMCAL-SNOOZE-INTERVAL), and one VTIMEZONE per zone used, made by icalendar from the IANA
database from the day of that zone's earliest DTSTART to icalendar's default last date
(2038-01-01). An alarm's zone is its `timeZone`, else the file's, else --tz (default UTC).
The alarm records are not checked the way alarmcal checks them; Benchmarks/peers/README.md
lists what else differs.

Exit status: 0 done, 64 usage error, 65 unusable input, 66 the input cannot be read,
74 the output cannot be written.
"""
import argparse
import datetime as dt
import json
import sys
import uuid
from zoneinfo import ZoneInfo

from icalendar import Alarm, Calendar, Event, Timezone, vBoolean, vDuration

UTC = dt.timezone.utc
DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
BYDAY = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


class Parser(argparse.ArgumentParser):
    """argparse with the project's usage exit status, 64."""

    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"error: {message}", file=sys.stderr)
        sys.exit(64)


def parse_instant(text):
    """2026-12-02T08:00:00Z as an aware datetime (naive input is read as UTC)."""
    value = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def parse_time(text):
    """"HH:mm" or "HH:mm:ss"."""
    parts = [int(part) for part in text.split(":")]
    return dt.time(*parts)


def first_ring(clock, days, zone, now):
    """The first local `clock` time on one of `days` (weekday numbers, Monday 0; empty: any
    day) at or after the instant `now`. A time in a DST gap is read with the offset from before
    the gap (zoneinfo's fold=0, as RFC 5545 §3.3.5 says)."""
    today = now.astimezone(zone).date()
    for ahead in range(9):
        day = today + dt.timedelta(days=ahead)
        if days and day.weekday() not in days:
            continue
        start = dt.datetime.combine(day, clock, tzinfo=zone)
        if start >= now:
            return start
    raise ValueError("no ring within a week")


def event_of(record, default_zone, now, zones, stamp):
    """One alarm record as a VEVENT with its VALARM; notes its zone and start in `zones`."""
    name = record.get("timeZone") or default_zone
    zone = ZoneInfo(name)
    event = Event()
    event.add("UID", record.get("id") or str(uuid.uuid5(uuid.NAMESPACE_URL,
                                                         json.dumps(record, sort_keys=True))))
    event.add("DTSTAMP", stamp)
    repeat = record.get("repeat") or []
    if "at" in record:
        start = dt.datetime.fromisoformat(record["at"]).replace(tzinfo=zone)
        event.add("DTSTART", start)
    else:
        days = sorted(DAYS.index(day) for day in repeat)
        start = first_ring(parse_time(record["time"]), days, zone, now)
        event.add("DTSTART", start)
        if days:
            event.add("RRULE", {"FREQ": "WEEKLY", "BYDAY": [BYDAY[day] for day in days]})
        else:
            event.add("X-ALARMCAL-RINGS", "ONCE")
    label = record.get("label", "Alarm")
    if label:
        event.add("SUMMARY", label)
    event.add("TRANSP", "TRANSPARENT")
    alarm = Alarm()
    alarm.add("ACTION", "AUDIO" if record.get("enabled", True) else "NONE")
    alarm.add("TRIGGER", dt.timedelta(0))
    if record.get("sound") is not None:
        alarm.add("ATTACH", record["sound"])
    alarm.add("X-ALARMCAL-SNOOZE", vBoolean(record.get("snooze", True)))
    alarm.add("X-ALARMCAL-SNOOZE-INTERVAL",
              vDuration(dt.timedelta(minutes=record.get("snoozeMinutes", 9))))
    event.add_component(alarm)
    if name not in zones or start.date() < zones[name]:
        zones[name] = start.date()
    return event


def main():
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("alarms")
    parser.add_argument("out")
    parser.add_argument("--now", type=parse_instant, required=True)
    parser.add_argument("--tz", default="UTC", help="zone of alarms and files that name none")
    opts = parser.parse_args()
    try:
        with open(opts.alarms, "rb") as file:
            document = json.load(file)
    except OSError as error:
        print(f"error: {opts.alarms}: {error.strerror}", file=sys.stderr)
        return 66
    except ValueError as error:
        print(f"error: {opts.alarms}: {error}", file=sys.stderr)
        return 65
    records = document["alarms"] if isinstance(document, dict) else document
    default_zone = (document.get("timeZone") if isinstance(document, dict) else None) or opts.tz
    stamp = opts.now.astimezone(UTC)

    calendar = Calendar()
    calendar.add("VERSION", "2.0")
    calendar.add("PRODID", "-//alarmcal benchmarks//icalendar peer//EN")
    calendar.add("CALSCALE", "GREGORIAN")
    calendar.add("X-WR-CALNAME", "Alarms")
    zones = {}  # zone name -> the day of its earliest DTSTART
    try:
        events = [event_of(record, default_zone, opts.now, zones, stamp) for record in records]
    except (KeyError, ValueError, TypeError) as error:
        print(f"error: {opts.alarms}: unusable alarm: {type(error).__name__}: {error}",
              file=sys.stderr)
        return 65
    # The VTIMEZONEs first, as alarmcal writes them (and as icalendar's own
    # add_missing_timezones() places them), each from its zone's first DTSTART on.
    for name in sorted(zones):
        if name != "UTC":  # UTC times are written with Z and need none
            calendar.add_component(Timezone.from_tzid(name, first_date=zones[name]))
    for event in events:
        calendar.add_component(event)
    try:
        with open(opts.out, "wb") as file:
            file.write(calendar.to_ical())
    except OSError as error:
        print(f"error: {opts.out}: {error.strerror}", file=sys.stderr)
        return 74
    return 0


if __name__ == "__main__":
    sys.exit(main())
