#!/usr/bin/env python3
"""Cross-check of `alarmcal snooze` and `alarmcal dismiss` against python icalendar.

python icalendar (6.1 and later) has `icalendar.Alarms`, which computes the active alarms of a
component with RFC 9074 acknowledgement and snooze. This script writes files the way the tests
do (the samples exported, then snoozed and dismissed with the real binary; the RFC 9074 example;
a weekly series on a DST day; Thunderbird's files), and for each file compares the alarm times
icalendar computes as active after --now with what `alarmcal upcoming` lists.

icalendar does not expand recurrences, so each file is first expanded with
recurring_ical_events (one copy per alarm occurrence), and Thunderbird's per-instance
X-MOZ-SNOOZE-TIME-<microseconds> is applied by hand (icalendar reads only X-MOZ-SNOOZE-TIME).
Only triggers at or after --now are compared: icalendar takes DTSTAMP as an acknowledgement
for components that are not Thunderbird's, and every edit sets DTSTAMP to now.

Usage: crosscheck-snooze.py --alarmcal BIN [--work DIR]; exit 1 on any disagreement.
"""

import argparse
import datetime as dt
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

import icalendar
import recurring_ical_events
from icalendar import Alarms

UTC = dt.timezone.utc
ROOT = pathlib.Path(__file__).resolve().parent.parent
HORIZON = dt.timedelta(days=14)


def iso(moment):
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse(text):
    return dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


class Checker:
    def __init__(self, binary, work):
        self.binary = binary
        self.work = work
        self.files = 0
        self.times = 0
        self.switched_off = 0
        self.stamp_explained = 0
        self.problems = []

    def run(self, *arguments):
        result = subprocess.run([self.binary, *arguments], capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit(f"alarmcal {' '.join(arguments)} failed: {result.stderr.strip()}")
        return result.stdout

    def upcoming(self, path, now, limit=None, to=None):
        arguments = ["upcoming", str(path), "--now", iso(now), "--format", "json", "--tz", "UTC"]
        arguments += ["--limit", str(limit)] if limit else ["--to", iso(to)]
        return json.loads(self.run(*arguments))

    def icalendar_times(self, path, now, stamp_acknowledges=True):
        """The active alarm times icalendar computes in [now, now + HORIZON).

        ACTION:NONE alarms (alarmcal's switched-off alarms, Apple's "no alert") are left out:
        they never ring, and icalendar does not know the action. With `stamp_acknowledges`
        false, DTSTAMP is removed first, which turns off icalendar's rule that DTSTAMP
        acknowledges every alarm before it (its guess at what Google means)."""
        calendar = icalendar.Calendar.from_ical(path.read_bytes())
        times = set()
        start, end = now - dt.timedelta(days=31), now + HORIZON
        for occurrence in recurring_ical_events.of(calendar, components=["VALARM"]).between(
            start, end
        ):
            if all(
                str(alarm.get("ACTION", "")).upper() == "NONE"
                for alarm in occurrence.walk("VALARM")
            ):
                self.switched_off += 1
                continue
            if not stamp_acknowledges and "DTSTAMP" in occurrence:
                del occurrence["DTSTAMP"]
            alarms = Alarms(occurrence)
            alarms.set_local_timezone("UTC")
            snooze = self.mozilla_instance_snooze(calendar, occurrence)
            if snooze is not None:
                alarms.snooze_until(snooze)
            for alarm_time in alarms.active:
                trigger = alarm_time.trigger.astimezone(UTC)
                if now <= trigger < end:
                    times.add(trigger)
        return times

    @staticmethod
    def mozilla_instance_snooze(calendar, occurrence):
        """X-MOZ-SNOOZE-TIME-<microseconds> of the occurrence's master, for its instance."""
        rid = occurrence.get("RECURRENCE-ID")
        if rid is None:
            return None
        moment = rid.dt
        if not isinstance(moment, dt.datetime):
            moment = dt.datetime.combine(moment, dt.time(), UTC)
        elif moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        key = f"X-MOZ-SNOOZE-TIME-{int(moment.timestamp()) * 1_000_000}"
        for component in calendar.walk("VEVENT"):
            if component.get("UID") == occurrence.get("UID") and key in component:
                return icalendar.vDatetime.from_ical(str(component[key]))
        return None

    def compare(self, path, now, label):
        ours = {parse(f["trigger"]) for f in self.upcoming(path, now, to=now + HORIZON)}
        theirs = self.icalendar_times(path, now)
        self.files += 1
        self.times += len(ours | theirs)
        if ours != theirs and ours == self.icalendar_times(path, now, stamp_acknowledges=False):
            # icalendar takes DTSTAMP as an acknowledgement; RFC 9074 has only ACKNOWLEDGED.
            self.stamp_explained += len(ours - theirs)
        elif ours != theirs:
            only_ours = sorted(iso(t) for t in ours - theirs)
            only_theirs = sorted(iso(t) for t in theirs - ours)
            self.problems.append(
                f"{label}: alarmcal only {only_ours}, icalendar only {only_theirs}"
            )

    def respond(self, path, firing, now, snooze_minutes=None):
        if snooze_minutes is None:
            self.run("dismiss", str(path), "--id", firing["id"], "--now", iso(now))
        else:
            self.run(
                "snooze", str(path), "--id", firing["id"], "--minutes", str(snooze_minutes),
                "--now", iso(now),
            )

    def flow(self, source, label, start, picks):
        """Snooze then dismiss each picked firing of `source`, comparing after every write."""
        for pick in picks:
            path = self.work / f"{label}-{pick}.ics"
            shutil.copyfile(source, path)
            firings = self.upcoming(path, start, limit=64)
            if pick >= len(firings):
                continue
            firing = firings[pick]
            now = parse(firing["trigger"]) + dt.timedelta(seconds=20)
            self.compare(path, now, f"{label} #{pick} before")
            self.respond(path, firing, now, snooze_minutes=30)
            self.compare(path, now, f"{label} #{pick} snoozed")
            snooze = next(
                (f for f in self.upcoming(path, now, limit=64) if f["isSnooze"]), None
            )
            if snooze is None:
                self.problems.append(f"{label} #{pick}: upcoming lists no snooze")
                continue
            later = parse(snooze["trigger"]) + dt.timedelta(seconds=5)
            self.respond(path, snooze, later, snooze_minutes=5)
            self.compare(path, later, f"{label} #{pick} snoozed again")
            again = next((f for f in self.upcoming(path, later, limit=64) if f["isSnooze"]), None)
            if again is None:
                self.problems.append(f"{label} #{pick}: no second snooze")
                continue
            last = parse(again["trigger"]) + dt.timedelta(seconds=5)
            self.respond(path, again, last)
            self.compare(path, last, f"{label} #{pick} dismissed")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--alarmcal", required=True)
    parser.add_argument("--work")
    options = parser.parse_args()
    work = pathlib.Path(options.work or tempfile.mkdtemp(prefix="alarmcal-snooze-"))
    work.mkdir(parents=True, exist_ok=True)
    checker = Checker(options.alarmcal, work)
    start = dt.datetime(2026, 12, 4, tzinfo=UTC)
    for name in ["alarms", "ios-alarms"]:
        exported = work / f"{name}.ics"
        checker.run(
            "convert", str(ROOT / "Samples" / f"{name}.json"), "-o", str(exported),
            "--now", iso(start), "--tz", "Europe/Paris",
        )
        checker.flow(exported, name, start, picks=[0, 1, 5, 13, 40])
    weekly = work / "weekly.json"
    weekly.write_text(
        json.dumps(
            {
                "timeZone": "Europe/Berlin",
                "alarms": [{"id": "wk", "time": "02:30", "repeat": ["sun"], "label": "Sunday"}],
            }
        )
    )
    checker.run("convert", str(weekly), "-o", str(work / "weekly.ics"), "--now", "2027-03-20T00:00:00Z")
    checker.flow(work / "weekly.ics", "weekly-dst", parse("2027-03-20T00:00:00Z"), picks=[1])
    for sample in ["thunderbird.ics", "apple-calendar.ics", "google-calendar.ics", "nextcloud.ics", "outlook.ics"]:
        source = ROOT / "Samples" / sample
        first = checker.upcoming(source, dt.datetime(2000, 1, 1, tzinfo=UTC), limit=1)
        if first:
            moment = parse(first[0]["trigger"]) - dt.timedelta(seconds=1)
            checker.flow(source, sample.removesuffix(".ics"), moment, picks=[0, 1])
    print(
        f"snooze cross-check: {checker.files} file states, {checker.times} alarm times; "
        f"explained: {checker.switched_off} ACTION:NONE occurrences icalendar would ring, "
        f"{checker.stamp_explained} times icalendar counts as acknowledged by DTSTAMP; "
        f"{len(checker.problems)} unexplained disagreements (icalendar {icalendar.__version__})"
    )
    for problem in checker.problems:
        print(f"  {problem}")
    return 1 if checker.problems else 0


if __name__ == "__main__":
    sys.exit(main())
