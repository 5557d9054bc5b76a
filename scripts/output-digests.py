#!/usr/bin/env python3
"""Digests of what an alarmcal binary prints for every input at hand, to prove a refactoring
changed no output: run it with the binary before and after, then compare the two files.

  scripts/output-digests.py --alarmcal BIN --out before.txt
  scripts/output-digests.py --alarmcal BIN2 --out after.txt --compare before.txt

Inputs: Samples/, every Tests/*/Fixtures file, ../shared/corpus/ when present, and benchmark
calendars made by Benchmarks/generate.py (weekly and mixed, 1,000 events; an alarm list of
1,000). Each line of the output is `sha256  exit-status  command` for stdout and stderr
together; --compare prints the commands whose digests differ and exits 1 if any do.
"""
import argparse
import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOW = "2026-12-02T08:00:00Z"


def inputs(work):
    """The .ics and .json inputs, as paths relative to ROOT where possible."""
    calendars = sorted(ROOT.glob("Samples/*.ics")) + sorted(ROOT.glob("Tests/*/Fixtures/**/*.ics"))
    corpus = ROOT.parent / "shared" / "corpus"
    if corpus.is_dir():
        calendars += sorted(corpus.rglob("*.ics"))
    lists = sorted(ROOT.glob("Samples/*.json")) + sorted(ROOT.glob("Tests/*/Fixtures/**/*.json"))
    generate = [sys.executable, str(ROOT / "Benchmarks/generate.py")]
    bench = []
    for kind, name in [("weekly", "weekly-1000.ics"), ("mixed", "mixed-1000.ics"),
                       ("halfoff", "halfoff-1000.ics")]:
        path = work / name
        subprocess.run(generate + [kind, "1000", str(path)], check=True)
        bench.append(path)
    alarms = work / "alarms-1000.json"
    subprocess.run(generate + ["alarms", "1000", str(alarms)], check=True)
    return calendars, lists + [alarms], bench


def commands(binary, calendars, lists, bench, work):
    """Every command to digest."""
    result = []
    for path in calendars:
        f = str(path)
        result += [
            ["upcoming", f, "--now", NOW, "--limit", "64", "--tz", "Europe/Berlin",
             "--format", "json"],
            ["upcoming", f, "--from", "1990-01-01T00:00:00Z", "--to", "2031-01-01T00:00:00Z",
             "--limit", "3000", "--tz", "America/New_York", "--format", "ndjson",
             "--include-acknowledged", "--max-instances", "200000"],
            ["upcoming", f, "--now", NOW, "--limit", "20", "--tz", "UTC"],
            ["convert", f, "--to", "json", "--now", NOW, "--tz", "Europe/Berlin"],
            ["convert", f, "--to", "ics", "--now", NOW, "--tz", "Europe/Berlin"],
            ["validate", f, "--now", NOW, "--format", "json", "--max-problems", "0"],
            ["validate", f, "--now", NOW],
        ]
    for path in lists:
        f = str(path)
        result += [["convert", f, "--to", "ics", "--now", NOW, "--tz", "Europe/Berlin"],
                   ["convert", f, "--to", "json", "--now", NOW, "--tz", "Europe/Berlin"]]
    for path in bench:
        f = str(path)
        for zone in ["UTC", "Europe/Berlin", "Australia/Sydney"]:
            common = ["--tz", zone, "--now", NOW, "--include-acknowledged"]
            result += [
                ["upcoming", f, "--limit", "64", "--format", "ndjson"] + common,
                ["upcoming", f, "--to", "2026-12-09T08:00:00Z", "--format", "json"] + common,
                ["upcoming", f, "--to", "2027-12-02T08:00:00Z", "--format", "ndjson"] + common,
                ["upcoming", f, "--to", "2026-12-09T08:00:00Z"] + common,
            ]
        result += [["validate", f, "--now", NOW, "--format", "json", "--max-problems", "0"],
                   ["convert", f, "--to", "json", "--now", NOW, "--tz", "Europe/Berlin"]]
    return [[binary] + command for command in result]


def digest(command, work):
    """sha256 of stdout and stderr, and the exit status; paths under `work` are made stable."""
    run = subprocess.run(command, capture_output=True, timeout=600, cwd=ROOT)
    text = run.stdout + b"\0" + run.stderr
    text = text.replace(str(work).encode(), b"WORK").replace(str(ROOT).encode(), b"ROOT")
    return hashlib.sha256(text).hexdigest(), run.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--alarmcal", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--compare")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        calendars, lists, bench = inputs(work)
        lines = []
        for command in commands(str(Path(args.alarmcal).resolve()), calendars, lists, bench, work):
            sha, status = digest(command, work)
            shown = " ".join(command[1:]).replace(str(work), "WORK").replace(str(ROOT) + "/", "")
            lines.append(f"{sha}  {status}  {shown}")
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} outputs digested into {args.out}")
    if not args.compare:
        return 0
    before = {line.split("  ", 2)[2]: line for line in Path(args.compare).read_text().splitlines()}
    differing = [line for line in lines if before.get(line.split("  ", 2)[2]) != line]
    for line in differing:
        print("differs: " + line.split("  ", 2)[2])
    print(f"{len(differing)} of {len(lines)} outputs differ from {args.compare}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
