#!/usr/bin/env python3
"""A client people use reads what alarmcal pushes, and its edit comes back without moving rings.

Radicale (from the venv scripts/setup makes) runs on loopback with a fresh storage folder.
`alarmcal push` sends an alarm list with alarms in two DST zones; vdirsyncer syncs the
calendar into a local folder (a vdir) and khal lists it. Checked:

1. khal lists every alarm at the moments `alarmcal upcoming` gives for the same list, --now
   and window, and marks each such event as having an alarm (khal shows only ACTION:DISPLAY
   alarms with a relative trigger: what alarmcal exports).
2. Two events are edited with khal's own code (what `khal edit` saves: Event.update_start_end,
   CalendarCollection.update): each start moves, and khal rewrites the VTIMEZONE from pytz
   with only the two observances around the event's first start (their DTSTARTs in the local
   time after each onset). vdirsyncer uploads them; `alarmcal pull` reads them back.
3. In the pulled file each edited event rings where khal now lists it, past its VTIMEZONE's
   last observance too (2027-10-31 on), and every other alarm rings exactly as before.

vdirsyncer and khal (pinned below) go into their own venv, made once and reused.

Usage: check-khal.py --alarmcal BIN [--venv DIR] [--keep]; exit 0 only if every check holds.
"""

import argparse
import collections
import datetime as dt
import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
PINS = ["vdirsyncer==0.21.0", "khal==0.14.1"]
NOW = "2026-12-06T06:00:00Z"
WINDOW = ("2026-12-06T06:00:00Z", "2028-12-06T00:00:00Z")  # two years, past 2027-10-31
KHAL_RANGE = ("2026-12-05", "2028-12-07")  # a day wider: trigger = start + delta, filtered
# Edited with khal, to a new start time: "Work" (weekdays 06:30 Europe/Berlin, from 2026-01-01:
# khal's VTIMEZONE then ends 2026-03-29), and "Dentist" (once, 2027-01-12 08:20 Europe/Berlin:
# its VTIMEZONE is the first Europe/Berlin one in path order, which `pull` joined for all).
EDITS = {"3F2A9C1E-7B4D-4E8A-9C61-2D5F0B8E7A13": (7, 5),
         "0E6F2A9D-4B17-4C85-A3D9-8F5E1B7C0A26": (10, 40)}
MKCALENDAR = b"""<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>
<D:displayname>Alarms</D:displayname><C:supported-calendar-component-set>
<C:comp name="VEVENT"/><C:comp name="VTODO"/></C:supported-calendar-component-set>
</D:prop></D:set></C:mkcalendar>"""

# Run with the venv's python: what `khal edit` does when a start time is changed and saved.
KHAL_EDIT = """
import datetime as dt, sys, pytz
from khal.settings import get_config
from khal.cli_utils import build_collection
config, href, hour, minute = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
conf = get_config(config)
collection = build_collection(conf, None)
collection.update_db()
event = collection.get_event(href, "alarms")
zone = pytz.timezone(conf["locale"]["default_timezone"].zone)
start = zone.localize(dt.datetime.combine(event.start.date(), dt.time(hour, minute)))
event.update_start_end(start, start + event.duration)
collection.update(event)
"""


def utc(text):
    return dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S%z").astimezone(dt.timezone.utc)


def iso(moment):
    return moment.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def run(*arguments, **kwargs):
    result = subprocess.run([str(a) for a in arguments], capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise SystemExit(
            f"check-khal: {' '.join(map(str, arguments))} exited {result.returncode}:\n"
            f"{result.stdout[-1500:]}{result.stderr[-1500:]}")
    return result.stdout


def make_venv(venv):
    stamp = venv / ".alarmcal-pins"
    if stamp.exists() and stamp.read_text() == " ".join(PINS):
        return
    run(sys.executable, "-m", "venv", venv)
    run(venv / "bin/pip", "install", "--quiet", "--disable-pip-version-check", *PINS)
    stamp.write_text(" ".join(PINS))


def server_python():
    venv = os.environ.get("ALARMCAL_CALDAV_VENV") or os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "alarmcal", "caldav-venv")
    python = os.path.join(venv, "bin", "python")
    if not os.access(python, os.X_OK):
        raise SystemExit(f"check-khal: no Radicale at {python}; run scripts/setup")
    return python


def start_radicale(folder):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    (folder / "users").write_text("alice:secret\n")
    with open(folder / "server.log", "w") as log:
        proc = subprocess.Popen(
            [server_python(), "-m", "radicale", "--config", "", "--server-hosts",
             f"127.0.0.1:{port}", "--storage-filesystem-folder", str(folder / "data"),
             "--auth-type", "htpasswd", "--auth-htpasswd-filename", str(folder / "users"),
             "--auth-htpasswd-encryption", "plain", "--auth-delay", "0", "--rights-type",
             "owner_only", "--logging-level", "warning"],
            stdout=log, stderr=log, start_new_session=True)
    url = f"http://127.0.0.1:{port}/alice/alarms/"
    request = urllib.request.Request(url, data=MKCALENDAR, method="MKCALENDAR", headers={
        "Authorization": "Basic YWxpY2U6c2VjcmV0", "Content-Type": "application/xml"})
    for _ in range(300):
        try:
            urllib.request.urlopen(request, timeout=2)
            return proc, url
        except urllib.error.HTTPError as error:
            proc.kill()
            raise SystemExit(f"check-khal: MKCALENDAR {url}: {error.code}")
        except OSError:
            if proc.poll() is not None:
                text = (folder / "server.log").read_text()
                raise SystemExit(f"check-khal: Radicale exited: {text}")
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("check-khal: Radicale did not answer within 30 s")


class Check:
    def __init__(self, alarmcal, venv, work, url):
        self.alarmcal, self.venv, self.work, self.url = alarmcal, venv, work, url
        self.failures = []
        self.vdir = work / "vdir"
        self.vdir.mkdir()
        password = work / "password"
        password.write_text("secret\n")
        password.chmod(0o600)
        self.credentials = ["--url", url, "--user", "alice", "--password-file", password]
        (work / "vdirsyncer.conf").write_text(f"""[general]
status_path = "{work}/vdirsyncer-status/"
[pair alarms]
a = "alarms_local"
b = "alarms_remote"
collections = null
conflict_resolution = "a wins"
[storage alarms_local]
type = "filesystem"
path = "{self.vdir}/"
fileext = ".ics"
[storage alarms_remote]
type = "caldav"
url = "{url}"
username = "alice"
password = "secret"
""")
        (work / "khal.conf").write_text(f"""[calendars]
[[alarms]]
path = {self.vdir}/
type = calendar
[locale]
local_timezone = Europe/Berlin
default_timezone = Europe/Berlin
timeformat = %H:%M
dateformat = %Y-%m-%d
longdateformat = %Y-%m-%d
datetimeformat = %Y-%m-%dT%H:%M:%S%z
longdatetimeformat = %Y-%m-%dT%H:%M:%S%z
[sqlite]
path = {work}/khal.db
""")

    def expect(self, condition, message):
        if not condition:
            self.failures.append(message)
        return condition

    def vdirsyncer(self, *arguments):
        return run(self.venv / "bin/vdirsyncer", "-c", self.work / "vdirsyncer.conf", *arguments,
                   input="y\n" * 4)

    def upcoming(self, path):
        out = run(self.alarmcal, "upcoming", path, "--now", NOW, "--from", WINDOW[0],
                  "--to", WINDOW[1], "--format", "json", "--tz", "UTC")
        rings = collections.defaultdict(list)
        for firing in json.loads(out):
            rings[firing["uid"]].append(firing["trigger"])
        return {uid: sorted(times) for uid, times in rings.items()}

    def khal_list(self, *arguments):
        return run(self.venv / "bin/khal", "-c", self.work / "khal.conf", "list", *arguments,
                   "--day-format", "", *KHAL_RANGE, env=dict(os.environ, TZ="UTC")).splitlines()

    def khal(self):
        """{uid: sorted ring moments} of what khal lists (start + each alarm's delta)."""
        rings = collections.defaultdict(list)
        for line in self.khal_list("--json", "uid", "--json", "start", "--json", "alarms-list"):
            for event in json.loads(line) if line.strip() else []:
                for alarm in event["alarms-list"]:
                    ring = iso(utc(event["start"]) + dt.timedelta(seconds=alarm["delta"]))
                    if WINDOW[0] <= ring < WINDOW[1]:
                        rings[event["uid"]].append(ring)
        return {uid: sorted(times) for uid, times in rings.items()}

    def khal_marks(self):
        """{uid: instances khal shows with its alarm symbol}, and the uids it shows without."""
        marked, unmarked = collections.Counter(), set()
        for line in self.khal_list("--format", "{uid}\t{alarm-symbol}"):
            if line.strip():
                uid, symbol = line.split("\t")
                if symbol.strip():
                    marked[uid] += 1
                else:
                    unmarked.add(uid)
        return marked, unmarked

    def main(self):
        listing = self.work / "alarms.json"
        shutil.copy(ROOT / "Samples/alarms.json", listing)
        before = self.upcoming(listing)
        print(run(self.alarmcal, "push", listing, "--now", NOW, *self.credentials).strip())
        self.vdirsyncer("discover")
        self.vdirsyncer("sync")
        resources = sorted(self.vdir.glob("*.ics"))
        print(f"resources synced into the vdir: {len(resources)}")
        self.expect(len(resources) == len(json.loads(listing.read_text())["alarms"]),
                    f"expected one resource per alarm, got {len(resources)}")

        listed = self.khal()
        marked, unmarked = self.khal_marks()
        print(f"alarms khal marks: {len(marked)} of {len(before)} ringing alarms "
              f"({sum(marked.values())} instances marked; unmarked: {sorted(unmarked)})")
        self.expect(listed == before, "khal's rings differ from upcoming's: "
                    + diff(before, listed))
        missed = set(before) - set(marked) | unmarked & set(before)
        self.expect(not missed, f"khal does not mark every instance of {sorted(missed)}")
        self.expect(len(before) >= 5, f"only {len(before)} alarms ring in the window")

        for uid, (hour, minute) in EDITS.items():
            href = next((p.name for p in resources
                         if f"UID:{uid}" in p.read_text().splitlines()), None)
            if not self.expect(href, f"no resource with UID {uid} in the vdir"):
                return
            run(self.venv / "bin/python", "-c", KHAL_EDIT, self.work / "khal.conf", href, hour,
                minute, env=dict(os.environ, TZ="UTC"))
            text = (self.vdir / href).read_text()
            observances = text.count("BEGIN:STANDARD") + text.count("BEGIN:DAYLIGHT")
            print(f"khal edited {uid} to {hour:02}:{minute:02}; its VTIMEZONE: {observances} "
                  "observances")
            self.expect(observances == 2 and "RRULE:FREQ=YEARLY" not in text,
                        f"khal did not write a cut-down VTIMEZONE:\n{text}")
        self.vdirsyncer("sync")
        after_khal = self.khal()

        pulled = self.work / "pulled.ics"
        print(run(self.alarmcal, "pull", "-o", pulled, *self.credentials).strip())
        after = self.upcoming(pulled)
        for uid in EDITS:
            moved = after.get(uid, [])
            self.expect(moved and moved == after_khal.get(uid), f"{uid} rings elsewhere than "
                        "khal lists it: " + diff({uid: after_khal.get(uid, [])}, {uid: moved}))
            self.expect(moved != before[uid], f"the edit did not move {uid}'s rings")
        self.expect(any(ring > "2027-10-31" for uid in EDITS for ring in after.get(uid, [])),
                    "no edited ring after 2027-10-31, past khal's VTIMEZONE's last observance")
        others = {uid: times for uid, times in after.items() if uid not in EDITS}
        expected = {uid: times for uid, times in before.items() if uid not in EDITS}
        print(f"rings compared: {sum(len(after.get(uid, [])) for uid in EDITS)} of {len(EDITS)} "
              f"edited alarms (as khal lists them), {sum(map(len, expected.values()))} of "
              f"{len(expected)} other alarms (as before the edit)")
        self.expect(others == expected, "other alarms' rings moved: " + diff(expected, others))

def diff(expected, got):
    lines = []
    for uid in sorted(set(expected) | set(got)):
        missing = sorted(set(expected.get(uid, [])) - set(got.get(uid, [])))
        extra = sorted(set(got.get(uid, [])) - set(expected.get(uid, [])))
        if missing or extra or len(expected.get(uid, [])) != len(got.get(uid, [])):
            lines.append(f"\n  {uid}: missing {len(missing)} {missing[:3]}, "
                         f"extra {len(extra)} {extra[:3]}")
    return "".join(lines) or "(same sets, different counts)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--alarmcal", required=True)
    parser.add_argument("--venv", default="/tmp/alarmcal-khal-venv")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args()
    venv = pathlib.Path(args.venv)
    make_venv(venv)
    work = pathlib.Path(tempfile.mkdtemp(prefix="alarmcal-khal-"))
    proc = None
    try:
        proc, url = start_radicale(work)
        check = Check(os.path.abspath(args.alarmcal), venv, work, url)
        check.main()
    finally:
        if proc is not None:
            os.killpg(proc.pid, 9)
            proc.wait()
        if args.keep:
            print(f"work folder kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    for failure in check.failures:
        print(f"FAIL: {failure}")
    print(f"check-khal: {'FAILED' if check.failures else 'all checks hold'}")
    return 1 if check.failures else 0


if __name__ == "__main__":
    sys.exit(main())
