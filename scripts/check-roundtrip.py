#!/usr/bin/env python3
"""The round-trip invariant: a calendar and the alarm list `convert` makes of it ring alike.

For every .ics file under the given folders: `upcoming FILE` and `upcoming LIST`, where LIST
is `convert FILE --to json`, over two years from a fixed --now, give the same rings (trigger
instants per item), except those of the items a loss line of `convert` names (an item that
loses a line may move its rings; the line says how). Each alarm of an item counts: the list
names an event's second alarm `UID#2`, whose rings are the item's.

    check-roundtrip.py --alarmcal PATH [--now ISO] [--years N] [--tz ZONE] FOLDER...
    check-roundtrip.py --alarmcal PATH --self-test FOLDER...

Prints one line per file that differs and a closing line with the counts; exits 1 on any
difference. --self-test breaks the list on purpose (every alarm one minute late, as an import
that misread times would make it) and exits 0 only when that is caught.
"""

import argparse
import collections
import datetime
import json
import pathlib
import re
import subprocess
import sys

DERIVED = re.compile(r'has no UID; its id (\S+) is derived')
# convert says a loss as a warning (`alarmcal convert: warning: FILE:LINE: event "UID" ...`);
# what it keeps whole it says as a note.
LOSS = re.compile(
    r'^alarmcal convert: warning: [^:]*:\d+: (?:event|task|journal|to-do|item) "((?:[^"\\]|\\.)*)"')


def run(alarmcal, arguments, stdin=None):
    result = subprocess.run(
        [alarmcal] + arguments, input=stdin, capture_output=True, text=True, timeout=600)
    return result


def rings(alarmcal, source, window, stdin=None):
    """The trigger instants of each item (uid, `#n` suffix removed), as a Counter per uid."""
    result = run(alarmcal, ["upcoming", source, "--format", "ndjson"] + window, stdin)
    if result.returncode != 0:
        raise RuntimeError(f"upcoming {source}: exit {result.returncode}: {result.stderr}")
    found = collections.defaultdict(collections.Counter)
    for line in result.stdout.splitlines():
        firing = json.loads(line)
        uid = firing["uid"].split("#")[0] if firing["uid"] else firing["uid"]
        found[uid][firing["trigger"]] += 1
    return found


def exempted(stderr):
    """The item names (maybe cut with …) of the loss lines (not warnings) of convert."""
    names = []
    for line in stderr.splitlines():
        match = LOSS.match(line)
        if match:
            names.append(match.group(1).replace('\\"', '"').replace("\\\\", "\\"))
    return names


def is_exempt(uid, names):
    for name in names:
        if name.endswith("…") and uid.startswith(name[:-1]):
            return True
        if uid == name:
            return True
    return False


def late(document):
    """The list with every alarm one minute late: a deliberate break for --self-test."""
    for alarm in document.get("alarms", []):
        if "time" in alarm:
            clock = datetime.datetime.strptime(alarm["time"][:5], "%H:%M")
            alarm["time"] = (clock + datetime.timedelta(minutes=1)).strftime("%H:%M")
        if "at" in alarm:
            moment = datetime.datetime.fromisoformat(alarm["at"])
            alarm["at"] = (moment + datetime.timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%S")
    return document


def check(alarmcal, path, window, zone, now, broken):
    """(rings compared, rings exempted, differing items) for one file; None when skipped."""
    convert = run(alarmcal, ["convert", str(path), "--to", "json", "--tz", zone, "--now", now])
    if convert.returncode == 65:
        return None  # not a calendar convert reads: nothing to compare
    if convert.returncode != 0:
        raise RuntimeError(f"convert {path}: exit {convert.returncode}: {convert.stderr}")
    listing = convert.stdout
    if broken:
        listing = json.dumps(late(json.loads(listing)))
    names = exempted(convert.stderr)
    before = rings(alarmcal, str(path), window)
    after = rings(alarmcal, "-", window, stdin=listing)
    # Items without a UID: upcoming lists them under "", the list under the ids import derived.
    for derived in DERIVED.findall(convert.stderr):
        after[""] += after.pop(derived, collections.Counter())
    compared = exempt = 0
    differing = []
    for uid in sorted(set(before) | set(after)):
        count = sum(before[uid].values())
        if is_exempt(uid, names):
            exempt += count
            continue
        compared += count
        if before[uid] != after[uid]:
            differing.append(uid)
    return compared, exempt, differing


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--alarmcal", required=True)
    parser.add_argument("--now", default="2026-12-06T00:00:00Z")
    parser.add_argument("--years", type=int, default=2)
    parser.add_argument("--tz", default="Europe/Berlin")
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("folders", nargs="+")
    arguments = parser.parse_args()
    start = datetime.datetime.fromisoformat(arguments.now.replace("Z", "+00:00"))
    end = start.replace(year=start.year + arguments.years)
    window = ["--now", arguments.now, "--from", arguments.now, "--to",
              end.strftime("%Y-%m-%dT%H:%M:%SZ"), "--tz", arguments.tz]
    files = sorted(p for folder in arguments.folders for p in pathlib.Path(folder).rglob("*.ics"))
    totals = collections.Counter()
    failures = []
    for path in files:
        try:
            result = check(arguments.alarmcal, path, window, arguments.tz, arguments.now,
                           arguments.self_test)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            failures.append(f"{path}: {error}")
            continue
        if result is None:
            totals["skipped"] += 1
            continue
        compared, exempt, differing = result
        totals["files"] += 1
        totals["rings"] += compared
        totals["exempted"] += exempt
        if differing:
            failures.append(f"{path}: rings differ for {', '.join(differing[:5])}"
                            + (f" and {len(differing) - 5} more" if len(differing) > 5 else ""))
    for line in failures:
        print(line)
    summary = (f"round trip: {totals['files']} files, {totals['rings']} rings compared, "
               f"{totals['exempted']} exempted by a loss line, {totals['skipped']} not calendars, "
               f"{len(failures)} differing")
    print(summary)
    if arguments.self_test:
        caught = bool(failures)
        print("self-test: the deliberate break was " + ("caught" if caught else "NOT caught"))
        return 0 if caught and totals["rings"] > 0 else 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
