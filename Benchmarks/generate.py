#!/usr/bin/env python3
"""Seeded inputs for the benchmarks: the same seed and arguments give byte-identical files.

  generate.py weekly N OUT.ics   N VEVENTs, each RRULE:FREQ=WEEKLY;BYDAY=<1-7 days>, DTSTART
                                 spread over the three years before --now, in one of five zones
                                 (each with its VTIMEZONE), with one or two VALARMs
  generate.py mixed N OUT.ics    N VEVENTs mixing daily, weekly, monthly and yearly rules, COUNT
                                 and UNTIL, EXDATEs, moved instances (RECURRENCE-ID), all-day
                                 events, floating and UTC times, triggers related to the end,
                                 REPEAT/DURATION and absolute triggers
  generate.py alarms N OUT.json  an alarm list of N clock alarms and one-shot reminders
  generate.py halfoff N OUT.ics  the weekly calendar with every second event's alarms switched
                                 off (ACTION:NONE, as `alarmcal convert` writes disabled alarms)
  generate.py alloff N OUT.ics   the weekly calendar with every alarm switched off, and one
                                 one-shot event whose alarm rings (issue 15: such calendars once
                                 walked every rule to year 9999)

Options: --seed S (default 1), --now ISO (default 2026-12-02T08:00:00Z, the benchmarks' "now").
"""
import argparse
import datetime as dt
import random
import sys

ZONES = ["America/New_York", "Europe/Berlin", "Asia/Tokyo", "Australia/Sydney", "Europe/London"]
WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
JSON_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
WORDS = ["Gym", "Standup", "Meds", "Walk the dog", "Piano", "Call Mum", "Water plants",
         "Pick up kids", "Yoga", "Review", "Bins out", "Lunch", "Read", "Run", "Sleep"]

# The VTIMEZONEs, as current rules (RFC 5545 §3.6.5); Tokyo has no DST.
VTIMEZONES = {
    "America/New_York": [("DAYLIGHT", "19700308T020000", "-0500", "-0400", "EDT",
                          "FREQ=YEARLY;BYMONTH=3;BYDAY=2SU"),
                         ("STANDARD", "19701101T020000", "-0400", "-0500", "EST",
                          "FREQ=YEARLY;BYMONTH=11;BYDAY=1SU")],
    "Europe/Berlin": [("DAYLIGHT", "19700329T020000", "+0100", "+0200", "CEST",
                       "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"),
                      ("STANDARD", "19701025T030000", "+0200", "+0100", "CET",
                       "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU")],
    "Asia/Tokyo": [("STANDARD", "19700101T000000", "+0900", "+0900", "JST", None)],
    "Australia/Sydney": [("STANDARD", "19700405T030000", "+1100", "+1000", "AEST",
                          "FREQ=YEARLY;BYMONTH=4;BYDAY=1SU"),
                         ("DAYLIGHT", "19701004T020000", "+1000", "+1100", "AEDT",
                          "FREQ=YEARLY;BYMONTH=10;BYDAY=1SU")],
    "Europe/London": [("DAYLIGHT", "19700329T010000", "+0000", "+0100", "BST",
                       "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"),
                      ("STANDARD", "19701025T020000", "+0100", "+0000", "GMT",
                       "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU")],
}


def vtimezone(zone):
    lines = ["BEGIN:VTIMEZONE", f"TZID:{zone}"]
    for kind, start, offset_from, offset_to, name, rule in VTIMEZONES[zone]:
        lines += [f"BEGIN:{kind}", f"DTSTART:{start}", f"TZOFFSETFROM:{offset_from}",
                  f"TZOFFSETTO:{offset_to}", f"TZNAME:{name}"]
        lines += [f"RRULE:{rule}"] if rule else []
        lines.append(f"END:{kind}")
    return lines + ["END:VTIMEZONE"]


def stamp(moment):
    return moment.strftime("%Y%m%dT%H%M%S")


def local_start(rng, now):
    """A wall-clock start somewhere in the three years before now, at a whole 5 minutes."""
    day = (now - dt.timedelta(days=rng.randrange(3 * 365))).date()
    return dt.datetime(day.year, day.month, day.day, rng.randrange(5, 23), 5 * rng.randrange(12))


def header(zones):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//alarmcal//benchmark generator//EN",
             "CALSCALE:GREGORIAN"]
    for zone in zones:
        lines += vtimezone(zone)
    return lines


def valarms(rng, dtstamp):
    lines = []
    for index in range(rng.choice([1, 1, 2])):
        trigger = rng.choice(["PT0S", "-PT5M", "-PT15M", "-PT1H", "-P1D"])
        action = rng.choice(["DISPLAY", "AUDIO"])
        lines += ["BEGIN:VALARM", f"UID:{dtstamp}-{index}", f"TRIGGER:{trigger}",
                  f"ACTION:{action}"]
        lines += ["DESCRIPTION:Reminder"] if action == "DISPLAY" else []
        lines.append("END:VALARM")
    return lines


def weekly(rng, count, now, off=lambda number: False):
    """`off(number)`: whether that event's alarms are switched off (ACTION:NONE)."""
    lines = header(ZONES)
    dtstamp = now.strftime("%Y%m%dT%H%M%SZ")
    for number in range(count):
        zone = rng.choice(ZONES)
        start = local_start(rng, now)
        days = sorted(rng.sample(range(7), rng.randrange(1, 8)))
        byday = ",".join(WEEKDAYS[day] for day in days)
        lines += ["BEGIN:VEVENT", f"UID:bench-{number:06d}@alarmcal", f"DTSTAMP:{dtstamp}",
                  f"DTSTART;TZID={zone}:{stamp(start)}", f"DURATION:PT{rng.choice([15, 30, 60])}M",
                  f"RRULE:FREQ=WEEKLY;BYDAY={byday}",
                  f"SUMMARY:{rng.choice(WORDS)} {number}"]
        alarm_lines = valarms(rng, f"bench-{number:06d}")
        if off(number):
            alarm_lines = ["ACTION:NONE" if line.startswith("ACTION:") else line
                           for line in alarm_lines if not line.startswith("DESCRIPTION:")]
        lines += alarm_lines
        lines.append("END:VEVENT")
    return lines + ["END:VCALENDAR"]


def one_shot(now):
    """One event a month after now whose alarm rings."""
    start = stamp(now + dt.timedelta(days=30))
    return ["BEGIN:VEVENT", "UID:one-shot@alarmcal", f"DTSTAMP:{stamp(now)}Z",
            f"DTSTART:{start}Z", "SUMMARY:The one alarm that rings", "BEGIN:VALARM",
            "ACTION:AUDIO", "TRIGGER:PT0S", "END:VALARM", "END:VEVENT"]


def mixed(rng, count, now):
    lines = header(ZONES)
    dtstamp = now.strftime("%Y%m%dT%H%M%SZ")
    for number in range(count):
        uid = f"mixed-{number:06d}@alarmcal"
        zone = rng.choice(ZONES)
        start = local_start(rng, now)
        kind = rng.randrange(8)
        if kind == 0:  # all-day, yearly (a birthday)
            day = start.date()
            lines += ["BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{dtstamp}",
                      f"DTSTART;VALUE=DATE:{day.strftime('%Y%m%d')}",
                      f"DTEND;VALUE=DATE:{(day + dt.timedelta(days=1)).strftime('%Y%m%d')}",
                      "RRULE:FREQ=YEARLY", f"SUMMARY:Birthday {number}",
                      "BEGIN:VALARM", "TRIGGER:-PT15H", "ACTION:DISPLAY",
                      "DESCRIPTION:Birthday tomorrow", "END:VALARM", "END:VEVENT"]
            continue
        start_line = f"DTSTART;TZID={zone}:{stamp(start)}"
        if kind == 1:
            rule = f"FREQ=MONTHLY;BYMONTHDAY={rng.choice([1, 15, 28, -1])}"
        elif kind == 2:
            rule = f"FREQ=MONTHLY;BYDAY={rng.choice(['1', '2', '-1'])}{rng.choice(WEEKDAYS)}"
        elif kind == 3:
            rule = f"FREQ=DAILY;COUNT={rng.randrange(10, 2000)}"
        elif kind == 4:
            until = now + dt.timedelta(days=rng.randrange(-100, 400))
            rule = f"FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;UNTIL={until.strftime('%Y%m%dT%H%M%SZ')}"
        elif kind == 5:
            rule = "FREQ=YEARLY;BYMONTH=3,9;BYDAY=-1FR"
        elif kind == 6:  # floating
            start_line = f"DTSTART:{stamp(start)}"
            rule = "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR"
        else:  # UTC
            start_line = f"DTSTART:{stamp(start)}Z"
            rule = f"FREQ=WEEKLY;BYDAY={rng.choice(WEEKDAYS)}"
        lines += ["BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{dtstamp}", start_line,
                  "DURATION:PT45M", f"RRULE:{rule}", f"SUMMARY:{rng.choice(WORDS)} {number}"]
        if rng.random() < 0.3:  # EXDATEs on the first instances' days (whether or not they fall)
            exdays = [start + dt.timedelta(days=7 * k) for k in range(1, rng.randrange(2, 6))]
            value = ",".join(stamp(day) + ("Z" if kind == 7 else "") for day in exdays)
            lines.append(f"EXDATE{';TZID=' + zone if kind not in (6, 7) else ''}:{value}")
        lines += ["BEGIN:VALARM", f"TRIGGER;RELATED={rng.choice(['START', 'END'])}:-PT10M",
                  "ACTION:DISPLAY", "DESCRIPTION:Soon", "REPEAT:2", "DURATION:PT5M",
                  "END:VALARM"]
        if rng.random() < 0.2:
            absolute = now + dt.timedelta(hours=rng.randrange(1, 24 * 400))
            lines += ["BEGIN:VALARM", "TRIGGER;VALUE=DATE-TIME:" +
                      absolute.strftime("%Y%m%dT%H%M%SZ"), "ACTION:AUDIO", "END:VALARM"]
        lines.append("END:VEVENT")
        if kind in (1, 4, 5, 7) and rng.random() < 0.3:  # a moved instance: the rule's first
            lines += ["BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{dtstamp}",
                      start_line.replace("DTSTART", "RECURRENCE-ID"),
                      start_line.replace(stamp(start), stamp(start + dt.timedelta(hours=2))),
                      "DURATION:PT45M", f"SUMMARY:Moved {number}",
                      "BEGIN:VALARM", "TRIGGER:-PT30M", "ACTION:DISPLAY", "DESCRIPTION:Moved",
                      "END:VALARM", "END:VEVENT"]
    return lines + ["END:VCALENDAR"]


def alarms(rng, count, now):
    out = ['{\n  "timeZone": "Europe/Berlin",\n  "alarms": [']
    for number in range(count):
        fields = [f'"id": "alarm-{number:07d}"', f'"label": "{rng.choice(WORDS)} {number}"']
        if rng.random() < 0.1:
            moment = now + dt.timedelta(minutes=5 * rng.randrange(1, 100000))
            fields.insert(1, f'"at": "{moment.strftime("%Y-%m-%dT%H:%M")}"')
        else:
            fields.insert(1, f'"time": "{rng.randrange(24):02d}:{5 * rng.randrange(12):02d}"')
            days = sorted(rng.sample(range(7), rng.randrange(0, 8)))
            fields.insert(2, '"repeat": [' + ", ".join(f'"{JSON_DAYS[d]}"' for d in days) + "]")
        if rng.random() < 0.5:
            fields.append(f'"timeZone": "{rng.choice(ZONES)}"')
        fields += [f'"sound": "{rng.choice(["Radar", "Chimes", "Slow Rise"])}"',
                   f'"snooze": {"true" if rng.random() < 0.7 else "false"}',
                   f'"enabled": {"true" if rng.random() < 0.9 else "false"}']
        comma = "," if number + 1 < count else ""
        out.append("    {" + ", ".join(fields) + "}" + comma)
    return "\n".join(out + ["  ]\n}\n"])


def fold(line):
    """RFC 5545 §3.1: at most 75 octets per line (the generator writes ASCII only)."""
    parts = [line[:75]] + [" " + line[i:i + 74] for i in range(75, len(line), 74)]
    return "\r\n".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kind", choices=["weekly", "mixed", "alarms", "halfoff", "alloff"])
    parser.add_argument("count", type=int)
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--now", default="2026-12-02T08:00:00Z")
    args = parser.parse_args()
    now = dt.datetime.fromisoformat(args.now.replace("Z", "+00:00")).replace(tzinfo=None)
    rng = random.Random(f"{args.kind}-{args.count}-{args.seed}")
    if args.kind == "alarms":
        text = alarms(rng, args.count, now)
    else:
        if args.kind == "halfoff":
            lines = weekly(rng, args.count, now, off=lambda number: number % 2 == 1)
        elif args.kind == "alloff":
            lines = weekly(rng, args.count, now, off=lambda number: True)
            lines = lines[:-1] + one_shot(now) + lines[-1:]
        else:
            lines = (weekly if args.kind == "weekly" else mixed)(rng, args.count, now)
        text = "".join(fold(line) + "\r\n" for line in lines)
    with open(args.out, "w", newline="", encoding="ascii") as file:
        file.write(text)


if __name__ == "__main__":
    sys.exit(main())
