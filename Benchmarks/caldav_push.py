#!/usr/bin/env python3
"""Times `alarmcal push` and `alarmcal pull` of N alarms against real Radicale and Xandikos.

Each server runs on loopback from the venv scripts/setup makes (ALARMCAL_CALDAV_VENV, else
~/.cache/alarmcal/caldav-venv), with a fresh storage folder and one calendar. For each server:
the first push (N new resources), a second push (nothing to send), a full pull and an
incremental pull (nothing changed), each timed once: wall clock, the CPU of alarmcal (with
its HTTP child process) and of the server. Prints a Markdown table for BENCHMARKS.md.

Usage: caldav_push.py --alarmcal BIN [--count 10000] [--servers radicale,xandikos]
"""

import argparse
import os
import pathlib
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

MKCALENDAR = b"""<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>
<D:displayname>Alarms</D:displayname><C:supported-calendar-component-set>
<C:comp name="VEVENT"/><C:comp name="VTODO"/></C:supported-calendar-component-set>
</D:prop></D:set></C:mkcalendar>"""


def venv_python() -> str:
    venv = os.environ.get("ALARMCAL_CALDAV_VENV") or os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "alarmcal", "caldav-venv")
    return os.path.join(venv, "bin", "python")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(server: str, folder: pathlib.Path):
    port = free_port()
    data = folder / "data"
    if server == "radicale":
        (folder / "users").write_text("alice:secret\n")
        cmd = [venv_python(), "-m", "radicale", "--config", "", "--server-hosts",
               f"127.0.0.1:{port}", "--storage-filesystem-folder", str(data), "--auth-type",
               "htpasswd", "--auth-htpasswd-filename", str(folder / "users"),
               "--auth-htpasswd-encryption", "plain", "--auth-delay", "0", "--rights-type",
               "owner_only", "--logging-level", "warning"]
        collection = f"http://127.0.0.1:{port}/alice/alarms/"
    else:
        cmd = [venv_python(), "-m", "xandikos", "serve", "-d", str(data), "--defaults", "-l",
               "127.0.0.1", "-p", str(port), "--current-user-principal", "/user/",
               "--state-dir", str(folder / "xstate"), "--no-detect-systemd"]
        collection = f"http://127.0.0.1:{port}/user/calendars/alarms/"
    log = open(folder / "server.log", "w")
    proc = subprocess.Popen(cmd, stdout=log, stderr=log, start_new_session=True)
    auth = "Basic YWxpY2U6c2VjcmV0"  # alice:secret
    for _ in range(300):
        try:
            request = urllib.request.Request(collection, data=MKCALENDAR, method="MKCALENDAR",
                                             headers={"Authorization": auth,
                                                      "Content-Type": "application/xml"})
            urllib.request.urlopen(request, timeout=2)
            return proc, collection
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"MKCALENDAR: {error.code}")
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{server} did not start")


def calendar(count: int) -> str:
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//alarmcal bench//EN"]
    for i in range(count):
        hour, minute = 5 + i % 4, (i * 7) % 60
        lines += ["BEGIN:VEVENT", f"UID:bench-{i}@alarmcal.test", "DTSTAMP:20261202T080000Z",
                  f"DTSTART:20261203T{hour:02d}{minute:02d}00Z", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
                  f"SUMMARY:Alarm {i}", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Alarm",
                  "TRIGGER:PT0S", "END:VALARM", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return "\r\n".join(lines) + "\r\n"


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its waited-for children, from /proc."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(fields[i]) for i in (11, 12, 13, 14))
    return ticks / os.sysconf("SC_CLK_TCK")


def timed(arguments, env, server_pid):
    """Wall time, alarmcal's CPU (with its HTTP child), the server's CPU, and the output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    server_before = cpu_seconds(server_pid)
    start_time = time.monotonic()
    result = subprocess.run(arguments, env=env, capture_output=True, text=True)
    elapsed = time.monotonic() - start_time
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise RuntimeError(f"{arguments[1]} exited {result.returncode}: {result.stderr[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, cpu_seconds(server_pid) - server_before, result.stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--alarmcal", required=True)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--servers", default="radicale,xandikos")
    args = parser.parse_args()
    env = dict(os.environ, ALARMCAL_PASSWORD="secret", HOME="/nonexistent")
    print("| server | step | alarms | wall | alarmcal CPU | server CPU | output |")
    print("|---|---|---|---|---|---|---|")
    for server in args.servers.split(","):
        folder = pathlib.Path(tempfile.mkdtemp(prefix=f"alarmcal-bench-{server}-"))
        proc, collection = start(server, folder)
        try:
            ics = folder / "alarms.ics"
            ics.write_text(calendar(args.count))
            pulled = folder / "pulled.ics"
            base = ["--url", collection, "--user", "alice"]
            steps = [
                ("push (all new)", [args.alarmcal, "push", str(ics)] + base),
                ("push again (none sent)", [args.alarmcal, "push", str(ics)] + base),
                ("pull (full)", [args.alarmcal, "pull", "-o", str(pulled)] + base),
                ("pull again (sync-collection)", [args.alarmcal, "pull", "-o", str(pulled)] + base),
            ]
            for name, command in steps:
                elapsed, cpu, server_cpu, output = timed(command, env, proc.pid)
                print(f"| {server} | {name} | {args.count:,} | {elapsed:.2f} s | {cpu:.2f} s "
                      f"| {server_cpu:.2f} s | {output} |", flush=True)
        finally:
            os.killpg(proc.pid, 9)
            proc.wait()
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
