#!/usr/bin/env python3
"""Reads what `alarmcal convert` writes with an independent parser (python icalendar).

Generates a seeded alarm list (every weekday subset, DST-heavy zones, unicode, escapes, newlines
and long labels) and a seeded task list (date-time and date deadlines, done and open, notes,
reminders from none to four weeks), exports them and the samples with the built alarmcal, and
checks that python icalendar reads every file without errors and sees exactly the alarms and
tasks that went in (a task: its VTODO's SUMMARY, DUE, STATUS, COMPLETED, DESCRIPTION, and a
VALARM whose TRIGGER is related to the end). Also checks
the raw text: CRLF line ends and no line over 75 octets. Prints a summary; exits 1 on any
mismatch.

Usage: scripts/check-interop.py PATH-TO-alarmcal
"""
import datetime
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import icalendar

ROOT = Path(__file__).resolve().parent.parent
DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
ZONES = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata",
         "Pacific/Chatham", "UTC", "America/St_Johns"]
LABELS = ["Wake up", "Café ☕ Frühstück", "a,b;c\\d", "two\nlines", "日本語のラベル 🕰️",
          "long " * 60 + "end", "quote \" colon: here", "Alarm"]


def generated_alarms(count_per_mask=8):
    rng = random.Random(20261202)
    alarms = []
    for mask in range(128):
        for variant in range(count_per_mask):
            repeat = [d for i, d in enumerate(DAYS) if mask & (1 << i)]
            alarm = {
                "id": f"gen-{mask}-{variant}",
                "time": f"{rng.randrange(24):02d}:{rng.randrange(60):02d}",
                "repeat": repeat,
                "label": rng.choice(LABELS),
                "enabled": rng.random() < 0.8,
                "timeZone": rng.choice(ZONES),
            }
            if rng.random() < 0.5:
                alarm["sound"] = rng.choice(["Radar", "Slow Rise", "Chord"])
            alarms.append(alarm)
    return alarms


def generated_tasks(count=400):
    rng = random.Random(20261204)
    tasks = []
    for index in range(count):
        day = datetime.date(2026, 12, 1) + datetime.timedelta(days=rng.randrange(900))
        task = {"UUID": f"task-{index}", "title": rng.choice(LABELS),
                "timeZone": rng.choice(ZONES), "completed": rng.random() < 0.3}
        if rng.random() < 0.25:
            task["deadline"] = day.isoformat()
        else:
            task["deadline"] = f"{day.isoformat()}T{rng.randrange(24):02d}:{rng.randrange(60):02d}"
        if rng.random() < 0.5:
            task["notes"] = rng.choice(LABELS)
        task["remindMinutesBefore"] = rng.choice(
            [None, 0, 5, 60, 1440, 40320, -540, -1440, rng.randrange(-1440, 40321)])
        tasks.append(task)
    return tasks


def read_back(path, component, expected, noun, problems):
    """The file's components named `component` by UID, and its VTIMEZONE TZIDs; a problem when
    there are not as many components as `expected` items."""
    calendar = icalendar.Calendar.from_ical(path.read_bytes())
    found = {str(c["UID"]): c for c in calendar.walk(component)}
    zones = {str(z["TZID"]) for z in calendar.walk("VTIMEZONE")}
    if len(found) != len(expected):
        problems.append(f"{path.name}: {len(found)} {component} for {len(expected)} {noun}")
    return found, zones


def as_written(text):
    """What a label or note becomes in the file: CRLF as LF, outer white space trimmed."""
    return text.replace("\r\n", "\n").strip()


def check_tasks(path, tasks, problems):
    todos, zones = read_back(path, "VTODO", tasks, "tasks", problems)
    for task in tasks:
        name = f"{path.name}: {task['UUID']}"
        todo = todos.get(task["UUID"])
        if todo is None:
            problems.append(f"{name}: no VTODO")
            continue
        title = as_written(task["title"])
        if str(todo.get("SUMMARY", "")) != title:
            problems.append(f"{name}: SUMMARY {str(todo.get('SUMMARY'))!r} != {title!r}")
        due = todo["DUE"]
        if "T" in task["deadline"]:
            tzid = due.params.get("TZID")
            if tzid != task["timeZone"] or tzid not in zones:
                problems.append(f"{name}: DUE TZID {tzid!r} (VTIMEZONE: {tzid in zones})")
            if due.dt.strftime("%Y-%m-%dT%H:%M") != task["deadline"]:
                problems.append(f"{name}: DUE {due.dt} != {task['deadline']}")
        elif isinstance(due.dt, datetime.datetime) or due.dt.isoformat() != task["deadline"]:
            problems.append(f"{name}: DUE {due.dt!r} is not the date {task['deadline']}")
        status = str(todo.get("STATUS", ""))
        done = task["completed"]
        if status != ("COMPLETED" if done else "NEEDS-ACTION") or ("COMPLETED" in todo) != done:
            problems.append(f"{name}: STATUS {status}, COMPLETED {'COMPLETED' in todo}, done {done}")
        notes = task.get("notes")
        described = str(todo["DESCRIPTION"]) if "DESCRIPTION" in todo else None
        if described != (as_written(notes) if notes is not None else None):
            problems.append(f"{name}: DESCRIPTION {described!r} != {notes!r}")
        alarms = todo.walk("VALARM")
        minutes = task["remindMinutesBefore"]
        if minutes is None:
            if alarms:
                problems.append(f"{name}: {len(alarms)} VALARMs for no reminder")
            continue
        if len(alarms) != 1:
            problems.append(f"{name}: {len(alarms)} VALARMs for one reminder")
            continue
        trigger = alarms[0]["TRIGGER"]
        if trigger.params.get("RELATED") != "END" or trigger.dt != datetime.timedelta(minutes=-minutes):
            problems.append(f"{name}: TRIGGER {trigger.to_ical()!r} "
                            f"({trigger.params.get('RELATED')}) for {minutes} minutes before")


def check_text(path, problems):
    data = path.read_bytes()
    lines = data.split(b"\r\n")
    if lines[-1] != b"":
        problems.append(f"{path.name}: does not end in CRLF")
    for number, line in enumerate(lines[:-1], 1):
        if b"\n" in line or b"\r" in line:
            problems.append(f"{path.name}:{number}: bare CR or LF")
        if len(line) > 75:
            problems.append(f"{path.name}:{number}: {len(line)} octets")


def check_alarms(path, alarms, problems):
    events, zones = read_back(path, "VEVENT", alarms, "alarms", problems)
    for alarm in alarms:
        event = events.get(alarm["id"])
        if event is None:
            problems.append(f"{path.name}: no event for {alarm['id']}")
            continue
        label = as_written(alarm.get("label", "Alarm"))
        summary = str(event.get("SUMMARY", ""))
        if summary != label:
            problems.append(f"{path.name}: {alarm['id']}: SUMMARY {summary!r} != {label!r}")
        start = event["DTSTART"]
        tzid = start.params.get("TZID")
        if tzid != alarm["timeZone"] or tzid not in zones:
            problems.append(f"{path.name}: {alarm['id']}: TZID {tzid!r} (VTIMEZONE: {tzid in zones})")
        if "time" in alarm and start.dt.strftime("%H:%M") != alarm["time"]:
            problems.append(f"{path.name}: {alarm['id']}: DTSTART {start.dt} != {alarm['time']}")
        rule = event.get("RRULE")
        want = [CODES[DAYS.index(d)] for d in alarm.get("repeat", [])]
        have = list(rule.get("BYDAY", [])) if rule else []
        if have != want:
            problems.append(f"{path.name}: {alarm['id']}: BYDAY {have} != {want}")
        # Enabled: DISPLAY with the label as DESCRIPTION (khal shows only DISPLAY); the sound in
        # X-ALARMCAL-SOUND; every event a minute long (Cyrus refuses one that does not end).
        valarms = event.walk("VALARM")
        actions = [str(a["ACTION"]) for a in valarms]
        expected = "DISPLAY" if alarm.get("enabled", True) else "NONE"
        if actions != [expected]:
            problems.append(f"{path.name}: {alarm['id']}: VALARM actions {actions}")
        elif expected == "DISPLAY" and str(valarms[0].get("DESCRIPTION", "")) != (label or "Alarm"):
            problems.append(f"{path.name}: {alarm['id']}: DESCRIPTION {valarms[0].get('DESCRIPTION')!r}")
        sound = alarm.get("sound") or None
        written = [str(a["X-ALARMCAL-SOUND"]) for a in valarms if "X-ALARMCAL-SOUND" in a]
        if written != ([as_written(sound)] if sound else []):
            problems.append(f"{path.name}: {alarm['id']}: X-ALARMCAL-SOUND {written} != {sound!r}")
        if event.get("DURATION") is None or event["DURATION"].dt.total_seconds() != 60:
            problems.append(f"{path.name}: {alarm['id']}: DURATION {event.get('DURATION')!r}")


def main():
    binary = sys.argv[1]
    problems = []
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        alarms = generated_alarms()
        source = folder / "generated.json"
        source.write_text(json.dumps({"alarms": alarms}, ensure_ascii=False), encoding="utf-8")
        tasks = generated_tasks()
        task_source = folder / "tasks.json"
        task_source.write_text(json.dumps({"tasks": tasks}, ensure_ascii=False), encoding="utf-8")
        inputs = [(source, alarms), (task_source, tasks)]
        for sample in sorted((ROOT / "Samples").glob("*")):
            if sample.suffix in (".json", ".ics") and "schema" not in sample.name:
                inputs.append((sample, None))
        files = 0
        for path, expected in inputs:
            output = folder / (path.stem + ".out.ics")
            run = subprocess.run(
                [binary, "convert", str(path), "--to", "ics", "-o", str(output), "--tz",
                 "Europe/Berlin", "--now", "2026-12-02T08:00:00Z"],
                capture_output=True, text=True)
            if run.returncode != 0:
                problems.append(f"{path.name}: alarmcal exited {run.returncode}: {run.stderr}")
                continue
            files += 1
            check_text(output, problems)
            try:
                if expected is tasks:
                    check_tasks(output, expected, problems)
                elif expected is not None:
                    check_alarms(output, expected, problems)
                else:
                    icalendar.Calendar.from_ical(output.read_bytes())
            except Exception as error:  # any parse failure is a finding
                problems.append(f"{output.name}: python icalendar failed: {error}")
    for problem in problems[:50]:
        print("MISMATCH", problem)
    print(f"interop: {files} files written by alarmcal, {len(alarms)} generated alarms and "
          f"{len(tasks)} generated tasks checked with python icalendar {icalendar.__version__}: "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
