#!/usr/bin/env python3
"""Reads one event back with python's `caldav` client and prints its alarms' RFC 9074 view.

Used by the CalDAV end-to-end test after `alarmcal snooze` on a pulled file and `alarmcal push`:
the event's VALARMs as another CalDAV client sees them, one JSON object per VALARM (UID,
ACKNOWLEDGED, RELATED-TO with its RELTYPE, TRIGGER), on one line.

Usage: caldav-check-snooze.py COLLECTION_URL USER UID   (password in ALARMCAL_PASSWORD)
"""

import json
import os
import sys

import caldav


def main() -> int:
    url, user, uid = sys.argv[1:4]
    client = caldav.DAVClient(url=url, username=user, password=os.environ.get("ALARMCAL_PASSWORD"))
    calendar = client.calendar(url=url)
    event = calendar.event_by_uid(uid)
    alarms = []
    for component in event.icalendar_instance.walk("VALARM"):
        related = component.get("RELATED-TO")
        alarms.append({
            "uid": str(component.get("UID")) if component.get("UID") else None,
            "acknowledged": component.get("ACKNOWLEDGED").to_ical().decode()
            if component.get("ACKNOWLEDGED") else None,
            "relatedTo": str(related) if related else None,
            "reltype": related.params.get("RELTYPE") if related else None,
            "trigger": component.get("TRIGGER").to_ical().decode(),
        })
    print(json.dumps(alarms, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
