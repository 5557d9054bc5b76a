#!/usr/bin/env python3
"""Checks `alarmcal plan` independently of its compiler (issue 39).

Each plan is expanded as iOS would fire it, from the plan's JSON alone: a repeating request's
weekday (1 = Sunday), hour, minute and second matched week by week on the wall clock of the
device's zone (--tz: the zone contract is that the app plans again when the device's zone
changes), a one-shot at its full date in its `timeZone`; from --now to validUntil (two years
when null). The firings must equal, as (instant, uid) pairs, what `alarmcal upcoming` lists
over the same window, and each one-shot's identifier must be the id `upcoming` gives that
firing. A plan also fails when it holds more requests than its budget, or when a repeating
request's wall-clock time falls in a DST gap or overlap whose instants are before validUntil
(28 years ahead when validUntil is null: the plan claims to hold for ever).

Inputs: the Samples, every fixture .ics with a VALARM (in Berlin and New York), the budget
cases (ten Mon-Fri alarms in 50 repeating requests with validUntil null, 02:30 weekday alarms
in Berlin and New York, a list that cannot fit filling the budget exactly, the greedy
counter-example), and N generated alarm lists: random weekdays (none, some, all), times within
an hour of the DST changes of Berlin, New York, Sydney, Lord Howe and Chatham or at random,
one-shots (`at`, and a time with no weekdays), alarms in another zone than the device's,
switched-off alarms, snoozes, acknowledgements, tasks (some completed), budgets 64, 20 and 8.
Generated lists come in batches that share the device's zone and --now, so that one `upcoming`
run covers a batch; their ids are unique across lists. A pool of processes (--jobs) runs the
batches side by side.

Before that, a self-test breaks real plans on purpose (a one-shot an hour late, a request left
out, weekdays counted from Monday, validUntil too late, too many requests, a one-shot's
identifier changed, a repeating request across a DST gap) and requires each to be caught.

Usage: check-plan.py [--alarmcal PATH] [--lists N] [--seed S] [--jobs J] [--self-test]
"""

import argparse
import functools
import json
import os
import random
import subprocess
import sys
import tempfile
import time as clock
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, time, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
UTC = timezone.utc
ZONES = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Australia/Lord_Howe",
         "Pacific/Chatham"]
DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
NOW = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)
TWO_YEARS = timedelta(days=730)
FOR_EVER = timedelta(days=28 * 366)  # the calendar's cycle of dates and weekdays
BATCH = 8  # generated lists per `upcoming` run


def parse_instant(text):
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def iso(instant):
    return instant.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def calendar_weekday(day):
    """`Calendar`'s weekday of a date: 1 for Sunday through 7 for Saturday."""
    return day.isoweekday() % 7 + 1


class Failure(Exception):
    pass


def run(binary, args):
    done = subprocess.run([binary] + args, capture_output=True, text=True)
    if done.returncode != 0:
        raise Failure(f"alarmcal {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


@functools.lru_cache(maxsize=None)
def transitions(zone_name):
    """The zone's offset changes from 2025 to 2060: (instant, offset before, offset after)."""
    zone = ZoneInfo(zone_name)

    def offset(seconds):
        return datetime.fromtimestamp(seconds, zone).utcoffset()

    found = []
    start = int(datetime(2025, 1, 1, tzinfo=UTC).timestamp())
    stop = int(datetime(2061, 1, 1, tzinfo=UTC).timestamp())
    step = 6 * 3600
    previous = offset(start)
    for low in range(start, stop, step):
        after = offset(low + step)
        if after == previous:
            continue
        high = low + step  # the offset changes in (low, high]: bisect to the second
        while high - low > 1:
            middle = (low + high) // 2
            if offset(middle) == previous:
                low = middle
            else:
                high = middle
        found.append((datetime.fromtimestamp(high, UTC), previous, after))
        previous = after
    return tuple(found)


def check_dst(plan, zone_name, now, end):
    """Fails when a repeating request's wall-clock time is skipped or repeated by a DST change
    whose instants fall in now..<end."""
    for request in plan["requests"]:
        if not request["trigger"]["repeats"]:
            continue
        parts = request["trigger"]["dateComponents"]
        reading = time(parts["hour"], parts["minute"], parts["second"])
        for instant, before, after in transitions(zone_name):
            width = abs(after - before)
            if instant + width <= now or instant - width >= end:
                continue
            # The wall-clock readings a gap skips or an overlap repeats: [low, high).
            low = (instant + min(before, after)).replace(tzinfo=None)
            high = (instant + max(before, after)).replace(tzinfo=None)
            day = low.date()
            while day <= high.date():
                wall = datetime.combine(day, reading)
                if low <= wall < high and calendar_weekday(day) == parts["weekday"]:
                    kind = "gap" if after > before else "overlap"
                    raise Failure(
                        f"repeating request {request['identifier']} meets a DST {kind} at "
                        f"{wall} ({iso(instant)}) before validUntil")
                day += timedelta(days=1)


def wall_instants(zone, day, reading):
    """Both readings of a wall-clock time (equal unless a DST change skips or repeats it)."""
    first = datetime.combine(day, reading, tzinfo=zone)
    return first.astimezone(UTC), first.replace(fold=1).astimezone(UTC)


def expand(plan, zone, now, end):
    """The firings of `plan` in now..<end as iOS would ring them: (instant, uid, one-shot id)."""
    fired = []
    for request in plan["requests"]:
        parts = request["trigger"]["dateComponents"]
        uid = request["userInfo"]["uid"]
        if request["trigger"]["repeats"]:
            if "timeZone" in parts:
                raise Failure(f"repeating request {request['identifier']} names a zone")
            reading = time(parts["hour"], parts["minute"], parts["second"])
            day = now.astimezone(zone).date() - timedelta(days=1)
            while calendar_weekday(day) != parts["weekday"]:
                day += timedelta(days=1)
            last = end.astimezone(zone).date() + timedelta(days=1)
            while day <= last:
                first, second = wall_instants(zone, day, reading)
                if first != second:
                    if now <= first < end or now <= second < end:
                        raise Failure(f"repeating request {request['identifier']} meets a DST "
                                      f"change on {day} before validUntil")
                elif now <= first < end:
                    fired.append((iso(first), uid, None))
                day += timedelta(days=7)
        else:
            instant = datetime(parts["year"], parts["month"], parts["day"], parts["hour"],
                               parts["minute"], parts["second"],
                               tzinfo=ZoneInfo(parts.get("timeZone", zone.key))).astimezone(UTC)
            if not now <= instant < end:
                raise Failure(f"one-shot {request['identifier']} at {iso(instant)} is outside "
                              f"{iso(now)}..<{iso(end)}")
            if request["userInfo"].get("firingID") != request["identifier"]:
                raise Failure(f"one-shot {request['identifier']}: userInfo.firingID differs")
            fired.append((iso(instant), uid, request["identifier"]))
    return sorted(fired, key=lambda f: (f[0], f[1]))


# Expectations of the budget cases (by name, so that pool workers can look them up).

def expect_fifty(plan):
    repeating = [r for r in plan["requests"] if r["trigger"]["repeats"]]
    if len(plan["requests"]) != 50 or len(repeating) != 50 or plan["validUntil"] is not None:
        raise Failure(f"ten weekday alarms: {len(plan['requests'])} requests, "
                      f"{len(repeating)} repeating, validUntil {plan['validUntil']}")


def expect_for_ever(plan):
    if plan["validUntil"] is not None:
        raise Failure("02:30 weekday alarms: validUntil not null")


def expect_full(plan):
    if len(plan["requests"]) != 64 or plan["validUntil"] is None:
        raise Failure(f"fourteen daily alarms: {len(plan['requests'])} requests, "
                      f"validUntil {plan['validUntil']}")


def expect_beats_greedy(plan):
    # Repeating first (5 + 1 one-shot) holds only until Tuesday's second one-shot, 11:00 Berlin.
    greedy_until = datetime(2026, 12, 8, 11, 0, tzinfo=ZoneInfo("Europe/Berlin"))
    if plan["validUntil"] is None or parse_instant(plan["validUntil"]) <= greedy_until:
        raise Failure(f"greedy counter-example: validUntil {plan['validUntil']}")


EXPECTATIONS = {"fifty": expect_fifty, "for_ever": expect_for_ever, "full": expect_full,
                "beats_greedy": expect_beats_greedy}


# The self-test's deliberate breakages: each takes a plan and returns a broken copy.

def one_shots(plan):
    return [r for r in plan["requests"] if not r["trigger"]["repeats"]]


def set_instant(request, instant):
    parts = request["trigger"]["dateComponents"]
    instant = instant.astimezone(UTC)
    parts.update(timeZone="UTC", year=instant.year, month=instant.month, day=instant.day,
                 hour=instant.hour, minute=instant.minute, second=instant.second)


def hour_late(plan):
    request = one_shots(plan)[0]
    set_instant(request, parse_instant(request["userInfo"]["trigger"]) + timedelta(hours=1))
    return plan


def request_left_out(plan):
    plan["requests"].pop()
    return plan


def weekdays_from_monday(plan):
    for request in plan["requests"]:
        if request["trigger"]["repeats"]:
            parts = request["trigger"]["dateComponents"]
            parts["weekday"] = parts["weekday"] % 7 + 1
    return plan


def valid_too_long(plan):
    plan["validUntil"] = iso(parse_instant(plan["validUntil"]) + timedelta(days=14))
    return plan


def over_budget(plan):
    copy = json.loads(json.dumps(one_shots(plan)[0]))
    copy["identifier"] += "-copy"
    plan["requests"].append(copy)
    return plan


def identifier_changed(plan):
    request = one_shots(plan)[-1]
    request["identifier"] = request["userInfo"]["firingID"] = "00000000-0000-0000-0000-000000000000"
    return plan


def repeating_across_dst(plan):
    # Sunday 02:30 in Berlin as one repeating request: the last Sundays of March and October
    # skip and repeat 02:30.
    request = one_shots(plan)[0]
    request["trigger"] = {"dateComponents": {"weekday": 1, "hour": 2, "minute": 30, "second": 0},
                          "repeats": True}
    plan["requests"] = [request]
    return plan


MUTATIONS = {
    "a one-shot an hour late": (hour_late, "plan rings"),
    "a request left out": (request_left_out, "plan rings"),
    "weekdays counted from Monday": (weekdays_from_monday, "plan rings"),
    "validUntil two weeks too late": (valid_too_long, "plan rings"),
    "one request over the budget": (over_budget, "exceed the budget"),
    "a one-shot's identifier changed": (identifier_changed, "firing id"),
    "a repeating request across a DST gap": (repeating_across_dst, "DST gap"),
}


def check_batch(binary, job):
    """Plans each item of `job` (one device zone and --now) and compares them with one
    `upcoming` run over all their files. Returns (figures, failures)."""
    zone_name, now = job["zone"], parse_instant(job["now"])
    zone = ZoneInfo(zone_name)
    common = ["--now", iso(now), "--tz", zone_name]
    figures = Counter()
    failures = []
    planned = []
    for item in job["items"]:
        try:
            args = ["plan", *item["files"], "--budget", str(item["budget"]), *common]
            text = run(binary, args)
            if item.get("twice") and run(binary, args) != text:
                raise Failure("two runs give different plans")
            plan = json.loads(text)
            if item.get("mutate"):
                plan = MUTATIONS[item["mutate"]][0](plan)
            if len(plan["requests"]) > item["budget"]:
                raise Failure(f"{len(plan['requests'])} requests exceed the budget "
                              f"{item['budget']}")
            until = parse_instant(plan["validUntil"]) if plan["validUntil"] else None
            check_dst(plan, zone_name, now, until or now + FOR_EVER)
            end = until or now + TWO_YEARS
            planned.append((item, plan, end, expand(plan, zone, now, end)))
        except Failure as failure:
            failures.append(f"{item['name']}: {failure}")
    if not planned:
        return figures, failures
    files = sorted({file for item, *_ in planned for file in item["files"]})
    try:
        listed = json.loads(run(binary, [
            "upcoming", *files, "--from", iso(now), "--to", iso(max(p[2] for p in planned)),
            "--format", "json", *common]))
    except Failure as failure:
        return figures, failures + [f"{job['name']}: {failure}"]
    by_file = defaultdict(list)
    for firing in listed:
        by_file[firing["file"]].append(firing)
    for item, plan, end, fired in planned:
        limit = iso(end)
        firings = [f for file in item["files"] for f in by_file[file] if f["trigger"] < limit]
        expected = sorted((f["trigger"], f["uid"]) for f in firings)
        rung = [(instant, uid) for instant, uid, _ in fired]
        figures["plans"] += 1
        figures["requests"] += len(plan["requests"])
        figures["firings"] += len(expected)
        figures["lists"] += item.get("generated", 0)
        try:
            if rung != expected:
                figures["differences"] += 1
                missing = sorted((Counter(expected) - Counter(rung)).elements())[:3]
                extra = sorted((Counter(rung) - Counter(expected)).elements())[:3]
                raise Failure(f"at {iso(now)} in {zone_name}: plan rings {len(rung)}, upcoming "
                              f"lists {len(expected)}; missing {missing}, extra {extra}")
            ids = {(f["trigger"], f["uid"], f["id"]) for f in firings}
            for instant, uid, identifier in fired:
                if identifier is not None and (instant, uid, identifier) not in ids:
                    raise Failure(f"one-shot {identifier} at {instant} is not upcoming's "
                                  f"firing id")
                figures["one-shot ids"] += identifier is not None
            if item.get("expect"):
                EXPECTATIONS[item["expect"]](plan)
        except Failure as failure:
            failures.append(f"{item['name']}: {failure}")
    return figures, failures


def write(folder, name, content):
    path = folder / name
    path.write_text(json.dumps(content), encoding="utf-8")
    return str(path)


def near_dst_time(rng, zone_name, year):
    """A wall-clock time within an hour of one of the zone's changes that year, or a random
    one."""
    if rng.random() < 0.5:
        return f"{rng.randrange(24):02d}:{rng.choice([0, 15, 30, 45]):02d}"
    zone = ZoneInfo(zone_name)
    changes = [instant.astimezone(zone) for instant, _, _ in transitions(zone_name)
               if instant.year == year]
    if not changes:
        return f"{rng.randrange(24):02d}:30"
    wall = rng.choice(changes) + timedelta(minutes=rng.choice([-60, -30, 0, 15, 30, 45, 60]))
    return f"{wall.hour:02d}:{wall.minute:02d}"


def generated_list(rng, zone_name, now, prefix):
    """A random alarm list in `zone_name` and another zone or two; ids start with `prefix`."""
    alarms = []
    for index in range(rng.randrange(1, 9)):
        zone = zone_name if rng.random() < 0.7 else rng.choice(ZONES)
        alarm = {"id": f"{prefix}-A{index}", "label": f"Alarm {index}", "timeZone": zone,
                 "time": near_dst_time(rng, zone, now.year + rng.randrange(2)),
                 "snooze": rng.random() < 0.7, "enabled": rng.random() < 0.85}
        if rng.random() < 0.15:
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
        tasks.append({"id": f"{prefix}-T{index}", "title": f"Task {index}",
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


def job(name, zone, now, items):
    return {"name": name, "zone": zone, "now": iso(now), "items": items}


def item(name, files, budget=64, **extra):
    return {"name": name, "files": files, "budget": budget, **extra}


def fixture_jobs(work):
    """The Samples and fixtures, one job each (their UIDs may repeat across files), and the
    budget cases."""
    jobs = [job(path, zone, NOW, [item(path, [path], twice=True)])
            for path in fixture_files() for zone in ["Europe/Berlin", "America/New_York"]]
    jobs.append(job("ten weekday alarms", "Europe/Berlin", NOW, [item(
        "ten weekday alarms", [write(work, "ten.json", weekday_list(10, "Europe/Berlin"))],
        expect="fifty")]))
    for zone in ["Europe/Berlin", "America/New_York"]:
        name = f"02:30 weekdays in {zone}"
        path = write(work, f"dst-{zone.replace('/', '-')}.json", weekday_list(3, zone, hour=2))
        jobs.append(job(name, zone, NOW, [item(name, [path], expect="for_ever")]))
    daily = {"timeZone": "Europe/Berlin", "alarms": [
        {"id": f"D{i}", "time": f"{6 + i:02d}:00", "repeat": DAYS, "label": f"Daily {i}"}
        for i in range(14)]}
    jobs.append(job("fourteen daily alarms", "Europe/Berlin", NOW, [item(
        "fourteen daily alarms", [write(work, "daily.json", daily)], expect="full")]))
    # Budget 6, one Mon-Fri alarm and three one-shots tomorrow: the optimum plans the three
    # one-shots and Tuesday..Thursday's repeating requests.
    greedy = {"timeZone": "Europe/Berlin", "alarms": [
        {"id": "G", "time": "07:00", "repeat": DAYS[:5], "label": "Work"}] + [
        {"id": f"O{i}", "at": f"2026-12-08T1{i}:00", "label": f"Once {i}"} for i in range(3)]}
    jobs.append(job("greedy counter-example", "Europe/Berlin", NOW, [item(
        "greedy counter-example", [write(work, "greedy.json", greedy)], budget=6,
        expect="beats_greedy")]))
    return jobs


def generated_jobs(work, count, seed):
    """`count` generated lists in batches of BATCH that share the device's zone and --now."""
    rng = random.Random(seed)
    jobs = []
    for first in range(0, count, BATCH):
        zone = rng.choice(ZONES)
        start = NOW + timedelta(days=rng.randrange(0, 365), minutes=rng.randrange(0, 1440))
        items = []
        for index in range(first, min(first + BATCH, count)):
            path = write(work, f"generated-{index}.json",
                         generated_list(rng, zone, start, f"L{index}"))
            # Every tenth list is planned twice: the same input gives the same bytes.
            items.append(item(f"generated list {index} ({path})", [path],
                              budget=rng.choice([64, 64, 20, 8]), twice=index % 10 == 0,
                              generated=1))
        jobs.append(job(f"generated lists {first}..{first + len(items) - 1}", zone, start, items))
    return jobs


def self_test_jobs(work):
    """Real plans broken on purpose, each in a job of its own, and the same plans unbroken."""
    alarms = str(ROOT / "Samples" / "alarms.json")
    sunday = write(work, "sunday-0230.json", {"timeZone": "Europe/Berlin", "alarms": [
        {"id": "SUN", "time": "02:30", "repeat": ["sun"], "label": "Sunday night"}]})
    jobs = [job("unbroken", "Europe/Berlin", NOW, [
        item("unbroken alarms.json", [alarms]), item("unbroken Sunday 02:30", [sunday])])]
    for mutation in MUTATIONS:
        files = [sunday] if "DST" in mutation else [alarms]
        jobs.append(job(mutation, "Europe/Berlin", NOW, [item(mutation, files, mutate=mutation)]))
    return jobs


def run_jobs(binary, jobs, workers):
    figures = Counter()
    failures = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        # Largest first, so that no long job starts last.
        ordered = sorted(jobs, key=lambda j: -len(j["items"]))
        for found, failed in pool.map(check_batch, [binary] * len(ordered), ordered):
            figures.update(found)
            failures.extend(failed)
    return figures, sorted(failures)


def self_test(binary, work, workers):
    """Every breakage is caught for what it is, and the unbroken plans pass."""
    _, failures = run_jobs(binary, self_test_jobs(work), workers)
    problems = [f"unbroken plan fails: {f}" for f in failures if f.startswith("unbroken")]
    for mutation, (_, expected) in MUTATIONS.items():
        caught = [f for f in failures if f.startswith(f"{mutation}:")]
        if not caught:
            problems.append(f"not caught: {mutation}")
        elif not any(expected in f for f in caught):
            problems.append(f"caught for another reason: {mutation}: {caught[0]}")
        else:
            print(f"self-test: caught {mutation}: {caught[0][len(mutation) + 2:][:110]}")
    print(f"self-test: {len(MUTATIONS) - len([p for p in problems if 'unbroken' not in p])} of "
          f"{len(MUTATIONS)} broken plans caught")
    for problem in problems:
        print(f"FAIL {problem}")
    return not problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--alarmcal", default=None)
    parser.add_argument("--lists", type=int, default=200)
    parser.add_argument("--seed", type=int, default=39)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                        help="worker processes (default: the number of cores)")
    parser.add_argument("--self-test", action="store_true",
                        help="only check that broken plans are caught")
    options = parser.parse_args()
    binary = options.alarmcal or subprocess.run(
        ["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
        check=True).stdout.strip() + "/alarmcal"
    started = clock.monotonic()
    with tempfile.TemporaryDirectory(prefix="check-plan-") as folder:
        work = Path(folder)
        if not self_test(binary, work, options.jobs):
            return 1
        if options.self_test:
            return 0
        jobs = fixture_jobs(work) + generated_jobs(work, options.lists, options.seed)
        figures, failures = run_jobs(binary, jobs, options.jobs)
    elapsed = clock.monotonic() - started
    print(f"check-plan: {figures['lists']} generated lists, {figures['plans']} plans, "
          f"{figures['requests']} requests, {figures['firings']} firings compared "
          f"({figures['one-shot ids']} one-shot ids), {figures['differences']} differences, "
          f"{len(failures)} failures, {elapsed:.1f} s with {options.jobs} workers")
    for failure in failures[:20]:
        print(f"FAIL {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
