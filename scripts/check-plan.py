#!/usr/bin/env python3
"""Checks `alarmcal plan` independently of its compiler (issue 39).

Each plan is expanded as iOS would fire it: a repeating request's weekday, hour, minute and
second matched day by day on the plan zone's wall clock (zoneinfo), a one-shot at its UTC
date; from --now to validUntil (two years when null). The firings must equal, as (instant,
uid) pairs, what `alarmcal upcoming` lists over the same window. A plan also fails when it
holds more requests than its budget, or when a repeating request meets a wall-clock time that
a DST change skips or repeats before validUntil.

Inputs: the Samples, every fixture .ics with a VALARM, N generated alarm lists (random
weekdays, times near DST changes in several zones, one-shots, switched-off alarms, snoozes,
acknowledgements, tasks), and the budget cases: ten Mon-Fri alarms in 50 repeating requests
with validUntil null, a list that cannot fit filling the budget exactly, the greedy
counter-example.

Usage: check-plan.py [--alarmcal PATH] [--lists N] [--seed S]
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
UTC = timezone.utc
ZONES = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Australia/Lord_Howe",
         "Pacific/Chatham"]
DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def parse_instant(text):
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def iso(instant):
    return instant.strftime("%Y-%m-%dT%H:%M:%SZ")


class Failure(Exception):
    pass


def run(binary, args):
    done = subprocess.run([binary] + args, capture_output=True, text=True)
    if done.returncode != 0:
        raise Failure(f"alarmcal {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def wall_instant(zone, day, hour, minute, second):
    """The instant of a wall-clock reading, or None when a DST change skips or repeats it."""
    first = datetime(day.year, day.month, day.day, hour, minute, second, tzinfo=zone, fold=0)
    second_reading = first.replace(fold=1)
    if first.utcoffset() != second_reading.utcoffset():
        return None
    return first.astimezone(UTC)


def expand(plan, zone, now, end):
    """The firings of `plan` in now..<end as iOS would ring them: (instant, uid) pairs."""
    fired = []
    for request in plan["requests"]:
        parts = request["trigger"]["dateComponents"]
        uid = request["userInfo"]["uid"]
        if request["trigger"]["repeats"]:
            weekday = parts["weekday"]  # 1 = Sunday
            day = now.astimezone(zone).date() - timedelta(days=1)
            last = end.astimezone(zone).date() + timedelta(days=1)
            while day <= last:
                if day.isoweekday() % 7 + 1 == weekday:
                    instant = wall_instant(zone, day, parts["hour"], parts["minute"], parts["second"])
                    if instant is None:
                        near = datetime(day.year, day.month, day.day, tzinfo=zone).astimezone(UTC)
                        if now - timedelta(days=1) <= near < end:
                            raise Failure(
                                f"repeating request {request['identifier']} meets a DST gap or "
                                f"overlap on {day} before validUntil")
                    elif now <= instant < end:
                        fired.append((iso(instant), uid))
                day += timedelta(days=1)
        else:
            assert parts["timeZone"] == "UTC"
            instant = datetime(parts["year"], parts["month"], parts["day"], parts["hour"],
                               parts["minute"], parts["second"], tzinfo=UTC)
            if not now <= instant < end:
                raise Failure(f"one-shot {request['identifier']} at {iso(instant)} is outside "
                              f"{iso(now)}..<{iso(end)}")
            fired.append((iso(instant), uid))
    return sorted(fired)


def check(binary, files, zone_name, now, budget, stats, expect=None):
    """Plans `files` and compares its expansion with `upcoming`; returns the plan."""
    zone = ZoneInfo(zone_name)
    common = ["--now", iso(now), "--tz", zone_name]
    text = run(binary, ["plan", *files, "--budget", str(budget), *common])
    again = run(binary, ["plan", *files, "--budget", str(budget), *common])
    if text != again:
        raise Failure(f"plan of {files} differs between two runs")
    plan = json.loads(text)
    requests = plan["requests"]
    if len(requests) > budget:
        raise Failure(f"{files}: {len(requests)} requests exceed the budget {budget}")
    end = parse_instant(plan["validUntil"]) if plan["validUntil"] else now + timedelta(days=730)
    fired = expand(plan, zone, now, end)
    listed = json.loads(run(binary, ["upcoming", *files, "--from", iso(now), "--to", iso(end),
                                     "--format", "json", *common]))
    expected = sorted((firing["trigger"], firing["uid"]) for firing in listed)
    stats["lists"] += 1
    stats["requests"] += len(requests)
    stats["firings"] += len(expected)
    if fired != expected:
        missing = sorted(set(expected) - set(fired))[:3]
        extra = sorted(set(fired) - set(expected))[:3]
        stats["differences"] += 1
        raise Failure(f"{files} at {iso(now)} in {zone_name}: plan rings {len(fired)}, upcoming "
                      f"lists {len(expected)}; missing {missing}, extra {extra}")
    if expect:
        expect(plan)
    return plan


def near_dst_time(rng, zone_name, year):
    """A wall-clock time within an hour of one of the zone's changes, or a random one."""
    zone = ZoneInfo(zone_name)
    if rng.random() < 0.5:
        return f"{rng.randrange(24):02d}:{rng.choice([0, 15, 30, 45]):02d}"
    instant = datetime(year, 1, 1, tzinfo=UTC)
    changes = []
    previous = instant.astimezone(zone).utcoffset()
    while instant.year == year:
        instant += timedelta(hours=1)
        offset = instant.astimezone(zone).utcoffset()
        if offset != previous:
            changes.append(instant.astimezone(zone))
        previous = offset
    if not changes:
        return f"{rng.randrange(24):02d}:30"
    wall = rng.choice(changes) + timedelta(minutes=rng.choice([-60, -30, 0, 15, 30, 45, 60]))
    return f"{wall.hour:02d}:{wall.minute:02d}"


def generated_list(rng, zone_name, now):
    """A random alarm list in `zone_name` and another zone or two."""
    alarms = []
    for index in range(rng.randrange(1, 9)):
        zone = zone_name if rng.random() < 0.7 else rng.choice(ZONES)
        alarm = {"id": f"GEN-{index}", "label": f"Alarm {index}", "timeZone": zone,
                 "time": near_dst_time(rng, zone, now.year + rng.randrange(2)),
                 "snooze": rng.random() < 0.7, "enabled": rng.random() < 0.85}
        kind = rng.random()
        if kind < 0.15:
            del alarm["time"]
            day = (now + timedelta(days=rng.randrange(-3, 60))).astimezone(ZoneInfo(zone))
            alarm["at"] = f"{day:%Y-%m-%d}T{near_dst_time(rng, zone, day.year)}"
        else:
            alarm["repeat"] = sorted(rng.sample(DAYS, rng.randrange(0, 8)), key=DAYS.index)
        if rng.random() < 0.1:
            alarm["snoozedUntil"] = iso(now + timedelta(minutes=rng.randrange(1, 30)))
        if rng.random() < 0.1:
            alarm["acknowledgedAt"] = iso(now + timedelta(days=rng.choice([-2, 1, 3])))
        alarms.append(alarm)
    tasks = []
    for index in range(rng.randrange(0, 3)):
        deadline = now + timedelta(days=rng.randrange(-2, 40), hours=rng.randrange(24))
        tasks.append({"id": f"TASK-{index}", "title": f"Task {index}",
                      "deadline": iso(deadline.replace(minute=0, second=0, microsecond=0)),
                      "remindMinutesBefore": rng.choice([0, 15, 60]),
                      "completed": rng.random() < 0.2})
    return {"timeZone": zone_name, "alarms": alarms, "tasks": tasks}


def fixture_files():
    files = sorted(str(p) for p in (ROOT / "Samples").iterdir()
                   if p.suffix in (".ics", ".json") and not p.name.endswith("schema.json"))
    for path in sorted((ROOT / "Tests").rglob("*.ics")):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if "BEGIN:VALARM" in text:
            files.append(str(path))
    return files


def weekday_list(count, zone, hour=7):
    return {"timeZone": zone, "alarms": [
        {"id": f"W{i}", "time": f"{hour:02d}:{i:02d}", "repeat": DAYS[:5], "label": f"Work {i}"}
        for i in range(count)]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--alarmcal", default=None)
    parser.add_argument("--lists", type=int, default=200)
    parser.add_argument("--seed", type=int, default=39)
    options = parser.parse_args()
    binary = options.alarmcal or subprocess.run(
        ["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
        check=True).stdout.strip() + "/alarmcal"
    stats = {"lists": 0, "requests": 0, "firings": 0, "differences": 0}
    failures = []
    started = time.monotonic()
    now = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)
    work = Path(tempfile.mkdtemp(prefix="check-plan-"))

    def attempt(what, *args, **kwargs):
        try:
            return check(binary, *args, stats=stats, **kwargs)
        except Failure as failure:
            failures.append(f"{what}: {failure}")
            return None

    for path in fixture_files():
        for zone in ["Europe/Berlin", "America/New_York"]:
            attempt(path, [path], zone, now, 64)

    def write(name, content):
        path = work / name
        path.write_text(json.dumps(content), encoding="utf-8")
        return str(path)

    # Ten Mon-Fri alarms: 50 repeating requests, valid for ever.
    def fifty(plan):
        repeating = [r for r in plan["requests"] if r["trigger"]["repeats"]]
        if len(plan["requests"]) != 50 or len(repeating) != 50 or plan["validUntil"] is not None:
            raise Failure(f"ten weekday alarms: {len(plan['requests'])} requests, "
                          f"{len(repeating)} repeating, validUntil {plan['validUntil']}")
    attempt("ten weekday alarms", [write("ten.json", weekday_list(10, "Europe/Berlin"))],
            "Europe/Berlin", now, 64, expect=fifty)
    # Weekday alarms at 02:30 never meet a DST change (Berlin and New York change on Sundays).
    def for_ever(plan):
        if plan["validUntil"] is not None:
            raise Failure("02:30 weekday alarms: validUntil not null")
    for zone in ["Europe/Berlin", "America/New_York"]:
        attempt(f"02:30 weekdays in {zone}",
                [write(f"dst-{zone.replace('/', '-')}.json", weekday_list(3, zone, hour=2))],
                zone, now, 64, expect=for_ever)
    # Fourteen daily alarms cannot fit: the budget is filled exactly and says until when.
    def full(plan):
        if len(plan["requests"]) != 64 or plan["validUntil"] is None:
            raise Failure(f"fourteen daily alarms: {len(plan['requests'])} requests, "
                          f"validUntil {plan['validUntil']}")
    daily = {"timeZone": "Europe/Berlin", "alarms": [
        {"id": f"D{i}", "time": f"{6 + i:02d}:00", "repeat": DAYS, "label": f"Daily {i}"}
        for i in range(14)]}
    attempt("fourteen daily alarms", [write("daily.json", daily)], "Europe/Berlin", now, 64,
            expect=full)
    # The greedy counter-example: budget 6, one Mon-Fri alarm and three one-shots tomorrow.
    # Repeating first (5 + 1 one-shot) is valid only until the second one-shot; the optimum
    # plans the three one-shots and Tuesday..Thursday's repeating requests.
    greedy = {"timeZone": "Europe/Berlin", "alarms": [
        {"id": "G", "time": "07:00", "repeat": DAYS[:5], "label": "Work"}] + [
        {"id": f"O{i}", "at": f"2026-12-08T1{i}:00", "label": f"Once {i}"} for i in range(3)]}
    def beats_greedy(plan):
        greedy_until = datetime(2026, 12, 8, 11, 0, tzinfo=ZoneInfo("Europe/Berlin"))
        if plan["validUntil"] is None or parse_instant(plan["validUntil"]) <= greedy_until:
            raise Failure(f"greedy counter-example: validUntil {plan['validUntil']}")
    attempt("greedy counter-example", [write("greedy.json", greedy)], "Europe/Berlin", now, 6,
            expect=beats_greedy)

    rng = random.Random(options.seed)
    for index in range(options.lists):
        zone = rng.choice(ZONES)
        start = now + timedelta(days=rng.randrange(0, 365), minutes=rng.randrange(0, 1440))
        content = generated_list(rng, zone, start)
        path = write(f"generated-{index}.json", content)
        attempt(f"generated list {index} ({path})", [path], zone, start,
                rng.choice([64, 64, 20, 8]))

    elapsed = time.monotonic() - started
    print(f"check-plan: {stats['lists']} plans, {stats['requests']} requests, "
          f"{stats['firings']} firings compared, {stats['differences']} differences, "
          f"{len(failures)} failures, {elapsed:.1f} s")
    for failure in failures[:20]:
        print(f"FAIL {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
