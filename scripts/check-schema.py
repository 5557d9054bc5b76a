#!/usr/bin/env python3
"""Checks Samples/alarms.schema.json against the record shapes alarmcal reads.

Every record shape and field form docs/formats.md's tables list must validate, and records alarmcal
refuses (two names of one field, a time and an "at", a bad weekday) must not. The samples
must validate too. Needs the jsonschema package. Exit 1 on any mismatch.
"""

import json
import pathlib
import sys

import jsonschema

ROOT = pathlib.Path(__file__).resolve().parent.parent

VALID = [
    {"id": "a", "time": "06:30", "repeat": ["mon", "fri"], "label": "Work"},
    {"uuid": "b", "time": "6:30", "name": "Short hour"},
    {"identifier": "c", "time": "2026-12-04T06:30:00+01:00", "weekdays": ["Mon", "sunday"]},
    {"creatTime": 1741935731, "alarmTime": 786519900, "repeatDays": [True] * 7},
    {"alarmTime": "07:30", "name": "App", "repeatDays": [False, True, True, True, True, True, False],
     "sound": "Radar", "snoozeEnabled": True, "isEnabled": True, "creatTime": "2025-03-14 07:02:11"},
    {"time": "07:00", "repeatWeekdays": [1, 7], "enabled": False, "snooze": False},
    {"alarmTime": "07:30", "repeatDays": [2, 3, 4, 5, 6], "vibrate": True, "volume": 0.8},
    {"alarmTime": "07:30", "repeatDays": ["mon", "Tue"], "sound": "", "colour": "red"},
    {"at": "2026-12-24T18:00", "label": "Once", "acknowledgedAt": "2026-12-24T17:00:05Z",
     "snoozedUntil": "2026-12-24T18:09:00+01:00", "alarmUid": "X", "snoozeUid": "S"},
]
INVALID = [
    {"time": "07:00", "label": "A", "name": "B"},
    {"time": "07:00", "alarmTime": "08:00"},
    {"time": "07:00", "at": "2026-12-24T18:00"},
    {"at": "2026-12-24T18:00", "weekdays": ["mon"]},
    {"time": "07:00", "repeatWeekdays": [0]},
    {"time": "07:00", "repeat": ["funday"]},
    {"time": "25:00"},
    {"alarmTime": 730},
    {"label": "no time"},
    {"time": "07:00", "id": "a", "uuid": "b"},
]


VALID_TASKS = [
    {"title": "Taxes", "deadline": "2027-01-15T17:00", "UUID": "T1", "remindMinutesBefore": 60},
    {"title": "Gift", "deadline": "2026-12-19", "completed": True, "notes": "blue"},
    {"title": "Plumber", "deadline": 818362800, "uuid": "T3", "remindMinutesBefore": None},
    {"title": "Call", "deadline": "2026-12-07T16:00:00Z", "timeZone": "Europe/Berlin"},
    {"title": "Extra", "deadline": 830000000.75, "colour": "red"},
    {"title": "Snoozed", "deadline": "2026-12-19", "acknowledgedAt": "2026-12-18T23:00:10Z",
     "snoozedUntil": "2026-12-19T00:05:10+01:00", "snoozeUid": "S"},
]
INVALID_TASKS = [
    {"title": "No deadline"},
    {"title": "Bad", "deadline": "soon"},
    {"title": "Both ids", "deadline": "2026-12-19", "UUID": "a", "id": "b"},
    {"title": "Over a day after", "deadline": "2026-12-19", "remindMinutesBefore": -1441},
    {"title": "Bad snooze", "deadline": "2026-12-19", "snoozedUntil": "2026-12-19T00:05"},
]


def main():
    schema = json.loads((ROOT / "Samples" / "alarms.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    problems = []
    documents = [("sample " + p.name, json.loads(p.read_text()))
                 for p in sorted((ROOT / "Samples").glob("*.json")) if "schema" not in p.name]
    documents += [(f"valid record {n}", {"alarms": [r]}) for n, r in enumerate(VALID)]
    documents.append(("task fixture", json.loads(
        (ROOT / "Tests" / "AlarmCalCLITests" / "Fixtures" / "tasks.json").read_text())))
    documents += [(f"valid task {n}", {"tasks": [t]}) for n, t in enumerate(VALID_TASKS)]
    documents += [(f"valid bare task {n}", [t]) for n, t in enumerate(VALID_TASKS)]
    documents += [(f"valid bare list {n}", [r]) for n, r in enumerate(VALID)]
    for name, document in documents:
        errors = list(validator.iter_errors(document))
        if errors:
            problems.append(f"{name} is refused: {errors[0].message[:200]}")
    for n, record in enumerate(INVALID):
        if validator.is_valid({"alarms": [record]}):
            problems.append(f"invalid record {n} is accepted: {json.dumps(record)}")
    for n, task in enumerate(INVALID_TASKS):
        if validator.is_valid({"tasks": [task]}):
            problems.append(f"invalid task {n} is accepted: {json.dumps(task)}")
    print(f"schema: {len(documents)} documents valid, "
          f"{len(INVALID) + len(INVALID_TASKS)} invalid records refused; "
          f"{len(problems)} problems")
    for problem in problems:
        print(f"  {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
