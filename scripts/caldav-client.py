#!/usr/bin/env python3
"""Another CalDAV client, for the loop tests: python's `caldav` edits and reads a collection.

    caldav-client.py COLLECTION_URL USER move UID HH:MM   the event's start (and end) to that
                                                           local time, its date and zone kept
    caldav-client.py COLLECTION_URL USER add UID SUMMARY   a weekly event of its own, 09:00 UTC
    caldav-client.py COLLECTION_URL USER alarms UID        the event's VALARMs as JSON (RFC 9074)

The password is read from ALARMCAL_PASSWORD. Prints one line; exits 1 when the UID is missing.
"""

import datetime
import json
import os
import sys

import caldav
import icalendar


def move(calendar, uid, clock):
    event = calendar.event_by_uid(uid)
    ical = event.icalendar_instance
    hour, minute = (int(part) for part in clock.split(":"))
    for component in ical.walk("VEVENT"):
        start = component["DTSTART"].dt
        moved = start.replace(hour=hour, minute=minute, second=0)
        if "DTEND" in component:
            length = component["DTEND"].dt - start
            component["DTEND"].dt = moved + length
        component["DTSTART"].dt = moved
        component["SEQUENCE"] = int(component.get("SEQUENCE", 0)) + 1
    event.data = ical.to_ical()
    event.save()
    print(f"moved {uid} to {clock}")


def add(calendar, uid, summary):
    ical = icalendar.Calendar()
    ical.add("PRODID", "-//loop test//python caldav//EN")
    ical.add("VERSION", "2.0")
    event = icalendar.Event()
    event.add("UID", uid)
    event.add("DTSTAMP", datetime.datetime(2026, 12, 1, tzinfo=datetime.timezone.utc))
    event.add("DTSTART", datetime.datetime(2027, 1, 4, 9, 0, tzinfo=datetime.timezone.utc))
    event.add("DTEND", datetime.datetime(2027, 1, 4, 9, 30, tzinfo=datetime.timezone.utc))
    event.add("RRULE", {"FREQ": "WEEKLY"})
    event.add("SUMMARY", summary)
    ical.add_component(event)
    calendar.save_event(ical.to_ical().decode())
    print(f"added {uid}")


def alarms(calendar, uid):
    event = calendar.event_by_uid(uid)
    found = []
    for component in event.icalendar_instance.walk("VALARM"):
        related = component.get("RELATED-TO")
        found.append({
            "uid": str(component.get("UID")) if component.get("UID") else None,
            "acknowledged": component.get("ACKNOWLEDGED").to_ical().decode()
            if component.get("ACKNOWLEDGED") else None,
            "relatedTo": str(related) if related else None,
            "reltype": related.params.get("RELTYPE") if related else None,
            "trigger": component.get("TRIGGER").to_ical().decode(),
        })
    print(json.dumps(found, sort_keys=True))


def main():
    url, user, action = sys.argv[1:4]
    client = caldav.DAVClient(url=url, username=user, password=os.environ.get("ALARMCAL_PASSWORD"))
    calendar = client.calendar(url=url)
    try:
        if action == "move":
            move(calendar, sys.argv[4], sys.argv[5])
        elif action == "add":
            add(calendar, sys.argv[4], sys.argv[5])
        elif action == "alarms":
            alarms(calendar, sys.argv[4])
        else:
            print(f"unknown action {action}", file=sys.stderr)
            return 2
    except caldav.lib.error.NotFoundError:
        print(f"no event {sys.argv[4]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
