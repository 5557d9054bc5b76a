#!/usr/bin/env python3
"""Benchmarks alarmcal against its peers and against libical itself (issue 5).

  Benchmarks/run.py                 the full run: 1,000, 10,000 and 100,000 events, 3 runs
                                    each, rewrites the table of BENCHMARKS.md and keeps the
                                    sections after it (about an hour; peers that would take
                                    longer than --limit are reported "over the limit")
  Benchmarks/run.py --smoke         CI: 1,000 events, one run, alarmcal and the libical floor
                                    only, writes nothing; fails when their firing counts differ
  Benchmarks/run.py --only W4,W5    only those workloads (any of W1-W6, comma-separated), with
                                    only the inputs they need; a partial table is written only
                                    where --out says (it never replaces BENCHMARKS.md unasked)
  Benchmarks/run.py --no-peers      alarmcal, its baseline and the libical floor only; like
                                    --only, it writes a table only where --out says
  Benchmarks/run.py --baseline REV  also times alarmcal as built at git revision REV (say
                                    29c743e, the last commit before issue 16) on W1-W5, in the
                                    same run, its runs taking turns with alarmcal's: a host's
                                    speed swings, a build beside it does not

Workloads (now = 2026-12-02T08:00:00Z): W1 the next 64 firings; W2 every firing in 7 days;
W3 every firing in one year (printed, piped to a counter); W4 `convert` of 100,000 alarms to
.ics and back; W5 `validate` of the largest calendar; W6 W1-W3 on a calendar whose every second
alarm is switched off (ACTION:NONE), and the next 64 of one where all but one are (issue 15:
such calendars once walked every rule to year 9999; the smoke run fails if that comes back). Peers: the libical floor
(Benchmarks/floor/libical-floor.c, built here), recurring-ical-events and ics-query (installed
with pip into --venv) for W1-W3, and the Python library icalendar for W4 and W5
(Benchmarks/peers/icalendar_*.py; not in --smoke). Each figure is the median wall time of
--runs runs and the peak RSS of the measured process (its own, from wait4), not of the
counter reading its output.
"""
import argparse
import datetime as dt
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOW = "2026-12-02T08:00:00Z"
WEEK = "2026-12-09T08:00:00Z"
YEAR = "2027-12-02T08:00:00Z"
PEERS = ["recurring-ical-events==3.8.2", "icalendar>=6.1", "ics-query"]
WORKLOADS = ["W1", "W2", "W3", "W4", "W5", "W6"]


def sh(command, **kwargs):
    return subprocess.run(command, check=True, text=True, capture_output=True, **kwargs).stdout


class Outcome:
    def __init__(self, seconds=None, rss_mb=None, count=None, note=None):
        self.seconds, self.rss_mb, self.count, self.note = seconds, rss_mb, count, note


def measure_once(command, counter, limit):
    """Runs command with stdout piped into counter (or /dev/null); returns an Outcome."""
    start = time.monotonic()
    out = subprocess.PIPE if counter else subprocess.DEVNULL
    process = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    reader = None
    if counter:
        reader = subprocess.Popen(counter, stdin=process.stdout, stdout=subprocess.PIPE, text=True)
        process.stdout.close()
    deadline = start + limit
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            os.killpg(process.pid, signal.SIGKILL)
            os.wait4(process.pid, 0)
            if reader:
                reader.kill()
                reader.wait()
            return Outcome(note=f"over the limit ({limit:.0f} s)")
        time.sleep(0.005)
    seconds = time.monotonic() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    count = None
    if reader:
        text, _ = reader.communicate()
        count = int(text.strip() or 0)
    if process.returncode not in (0,):
        return Outcome(note=f"exit {process.returncode}")
    return Outcome(seconds, usage.ru_maxrss / 1024, count)


def measure(command, counter, runs, limit):
    return measure_alternating([("only", command, counter, limit)], runs)["only"]


def measure_alternating(entries, runs):
    """Measures each (name, command, counter, limit) of entries runs times, one run of each in
    turn, so that all are timed over the same stretch (this project's usual host drifts by half
    its speed within an hour); returns {name: Outcome}. A tool that fails or goes over its limit
    is not run again; one whose run took over 60 s is run once (its noise is small beside it)."""
    outcomes = {name: [] for name, *_ in entries}
    stopped = {}
    for _ in range(runs):
        for name, command, counter, limit in entries:
            if name in stopped:
                continue
            outcome = measure_once(command, counter, limit)
            if outcome.note:
                stopped[name] = outcome
                continue
            outcomes[name].append(outcome)
            if outcome.seconds > 60:
                stopped[name] = None
    results = {}
    for name, *_ in entries:
        runs_made = outcomes[name]
        if stopped.get(name) is not None:  # failed or over the limit, even after good runs
            results[name] = stopped[name]
            continue
        results[name] = Outcome(statistics.median(o.seconds for o in runs_made),
                                max(o.rss_mb for o in runs_made), runs_made[-1].count)
    return results


def machine():
    cpu = "unknown CPU"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    memory = 0
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal"):
            memory = int(line.split()[1]) / 1024 / 1024
    swift = sh(["swift", "--version"]).splitlines()[0] if shutil.which("swift") else "?"
    libical = sh(["pkg-config", "--modversion", "libical"]).strip()
    return (f"{cpu}, {os.cpu_count()} cores, {memory:.0f} GiB, Linux {platform.release()}; "
            f"{swift}; libical {libical}; Python {platform.python_version()}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limit", type=float, default=600, help="seconds per peer run")
    parser.add_argument("--work", default="/tmp/alarmcal-bench")
    parser.add_argument("--venv", default="/tmp/alarmcal-bench-venv")
    parser.add_argument(
        "--out", help="the table (default BENCHMARKS.md; none with --only or --no-peers)")
    parser.add_argument("--only", help="comma-separated workloads to run, e.g. W4,W5")
    parser.add_argument("--no-peers", action="store_true",
                        help="time alarmcal, its baseline and the libical floor only")
    parser.add_argument("--baseline", metavar="REV",
                        help="also time alarmcal built at this git revision on W1-W5")
    args = parser.parse_args()
    only = set(WORKLOADS)
    if args.only:
        only = {w.strip().upper() for w in args.only.split(",") if w.strip()}
        if not only or only - set(WORKLOADS):
            parser.error(f"--only takes some of {','.join(WORKLOADS)}")
    firings = only & {"W1", "W2", "W3"}
    # A partial run (some workloads, or no peers) never replaces BENCHMARKS.md unasked.
    if args.out is None and not args.only and not args.no_peers:
        args.out = str(ROOT / "BENCHMARKS.md")
    sizes = [1000] if args.smoke else [int(s) for s in args.sizes.split(",")]
    runs = 1 if args.smoke else args.runs
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)

    print("== building alarmcal (release) and the libical floor", flush=True)
    alarmcal = build_alarmcal(ROOT)
    floor = str(work / "libical-floor")
    flags = sh(["pkg-config", "--cflags", "--libs", "libical"]).split()
    subprocess.run(["cc", "-O2", "-o", floor, str(ROOT / "Benchmarks/floor/libical-floor.c")]
                   + flags, check=True)
    baseline = build_baseline(args.baseline, work) if args.baseline else None
    baseline_tool = f"alarmcal {args.baseline}"
    python = None
    if not args.smoke and not args.no_peers:
        print("== installing the Python peers", flush=True)
        if not Path(args.venv, "bin/python").exists():
            subprocess.run([sys.executable, "-m", "venv", args.venv], check=True)
        subprocess.run([f"{args.venv}/bin/pip", "install", "--quiet",
                        "--disable-pip-version-check"] + PEERS, check=True)
        python = f"{args.venv}/bin/python"

    print("== generating inputs", flush=True)
    generate = [sys.executable, str(ROOT / "Benchmarks/generate.py")]
    inputs = {}
    for size in sizes:
        inputs[size] = work / f"weekly-{size}.ics"
        if firings or ("W5" in only and size == sizes[-1]):
            subprocess.run(generate + ["weekly", str(size), str(inputs[size])], check=True)
    mixed = work / f"mixed-{sizes[-1] if args.smoke else 10000}.ics"
    if firings:
        subprocess.run(generate + ["mixed", mixed.name.split("-")[1][:-4], str(mixed)],
                       check=True)
    off_size = 1000 if args.smoke else 10000
    half_off = work / f"halfoff-{off_size}.ics"
    all_off = work / f"alloff-{off_size}.ics"
    if "W6" in only:
        subprocess.run(generate + ["halfoff", str(off_size), str(half_off)], check=True)
        subprocess.run(generate + ["alloff", str(off_size), str(all_off)], check=True)
    alarm_count = 1000 if args.smoke else 100_000
    alarms = work / f"alarms-{alarm_count}.json"
    if "W4" in only:
        subprocess.run(generate + ["alarms", str(alarm_count), str(alarms)], check=True)

    count_lines = ["wc", "-l"]
    count_valarms = ["grep", "-c", "^BEGIN:VALARM"]

    def workloads(path):
        f = str(path)
        common = ["--format", "ndjson", "--include-acknowledged", "--tz", "UTC", "--now", NOW]
        tools = {
            "alarmcal": {
                "W1": [alarmcal, "upcoming", f, "--limit", "64"] + common,
                "W2": [alarmcal, "upcoming", f, "--to", WEEK] + common,
                "W3": [alarmcal, "upcoming", f, "--to", YEAR] + common,
            },
            "libical floor": {
                "W1": [floor, f, "--from", NOW, "--first", "64", "--print"],
                "W2": [floor, f, "--from", NOW, "--to", WEEK, "--print"],
                "W3": [floor, f, "--from", NOW, "--to", YEAR, "--print"],
            },
        }
        if baseline:
            tools[baseline_tool] = {
                workload: [baseline] + command[1:] for workload, command in tools["alarmcal"].items()
            }
        if python:
            rie = [python, str(ROOT / "Benchmarks/peers/rie_firings.py"), f, "--from", NOW]
            query = [f"{args.venv}/bin/ics-query", "between", "--tz", "UTC", "-c", "VALARM"]
            start = NOW[:-1]
            tools["recurring-ical-events"] = {
                "W1": rie + ["--first", "64", "--print"],
                "W2": rie + ["--to", WEEK, "--print"],
                "W3": rie + ["--to", YEAR, "--print"],
            }
            tools["ics-query"] = {
                "W1": query + [start, "+1d", f, "-"],
                "W2": query + [start, WEEK[:-1], f, "-"],
                "W3": query + [start, YEAR[:-1], f, "-"],
            }
        return tools

    results = []  # (workload, input, tool, Outcome)
    over = set()  # (tool, workload) over the limit at a smaller size: larger sizes are too
    # The baseline build's outcome, measured in alternation with alarmcal's, until its turn.
    paired = {}
    for label, path in ([(f"weekly {size:,}", inputs[size]) for size in sizes] + [
            (f"mixed {mixed.name.split('-')[1][:-4]}", mixed)] if firings else []):
        tools = workloads(path)
        for tool, commands in tools.items():
            for workload, command in commands.items():
                if workload not in only:
                    continue
                if (tool, workload) in over and label.startswith("weekly"):
                    results.append((workload, label, tool, Outcome(note="over the limit")))
                    continue
                counter = count_valarms if tool == "ics-query" else count_lines
                limit = args.limit if tool != "alarmcal" else max(args.limit, 3600)
                if tool == baseline_tool and (label, workload) in paired:
                    outcome = paired.pop((label, workload))
                elif tool == "alarmcal" and baseline and (baseline_tool, workload) not in over:
                    # alarmcal and its baseline build take turns, run by run.
                    both = measure_alternating(
                        [("alarmcal", command, counter, limit),
                         ("baseline", tools[baseline_tool][workload], counter, args.limit)],
                        runs)
                    outcome = both["alarmcal"]
                    paired[(label, workload)] = both["baseline"]
                else:
                    outcome = measure(command, counter, runs, limit)
                if outcome.note and outcome.note.startswith("over"):
                    over.add((tool, workload))
                results.append((workload, label, tool, outcome))
                shown = outcome.note or f"{outcome.seconds:.2f} s, {outcome.rss_mb:.0f} MB, " \
                                        f"{outcome.count:,} firings"
                print(f"{workload} {label:>14} {tool:>22}: {shown}", flush=True)

    # W6: alarmcal only (the floor rings ACTION:NONE alarms too, so its counts would differ).
    common = ["--format", "ndjson", "--include-acknowledged", "--tz", "UTC", "--now", NOW]
    for workload, label, command in [
            ("W6 (W1)", f"half off {off_size:,}",
             [alarmcal, "upcoming", str(half_off), "--limit", "64"] + common),
            ("W6 (W2)", f"half off {off_size:,}",
             [alarmcal, "upcoming", str(half_off), "--to", WEEK] + common),
            ("W6 (W3)", f"half off {off_size:,}",
             [alarmcal, "upcoming", str(half_off), "--to", YEAR] + common),
            ("W6 (W1)", f"all off but one {off_size:,}",
             [alarmcal, "upcoming", str(all_off), "--limit", "64"] + common)
    ] if "W6" in only else []:
        outcome = measure(command, count_lines, runs, 3600)
        results.append((workload, label, "alarmcal", outcome))
        print(f"{workload} {label:>22}: {outcome.note or f'{outcome.seconds:.2f} s, {outcome.count:,} firings'}",
              flush=True)

    # W4 and W5: alarmcal, and the Python library icalendar as the peer (when the peers are
    # installed): it writes the same calendar from the alarm list, reads alarmcal's calendar
    # back into an alarm list, and for W5 parses the calendar and reads every property, the
    # nearest it has to validating (Benchmarks/peers/README.md says what each leaves out).
    ics = work / "alarms.ics"
    back = work / "alarms-back.json"
    peer_ics = work / "alarms-icalendar.ics"
    peer_back = work / "alarms-back-icalendar.json"
    peers = ROOT / "Benchmarks/peers"
    for workload, label, commands in [
            ("W4", f"{alarm_count:,} alarms → .ics", [
                ("alarmcal", [alarmcal, "convert", str(alarms), "-o", str(ics), "--now", NOW]),
                ("python icalendar", [python, str(peers / "icalendar_write.py"), str(alarms),
                                      str(peer_ics), "--now", NOW]),
                (baseline_tool, [baseline, "convert", str(alarms), "-o",
                                 str(work / "alarms-baseline.ics"), "--now", NOW])]),
            ("W4", f"{alarm_count:,} alarms .ics →", [
                ("alarmcal", [alarmcal, "convert", str(ics), "-o", str(back), "--now", NOW]),
                ("python icalendar", [python, str(peers / "icalendar_read.py"), str(ics),
                                      str(peer_back)]),
                (baseline_tool, [baseline, "convert", str(ics), "-o",
                                 str(work / "alarms-back-baseline.json"), "--now", NOW])]),
            ("W5", f"validate weekly {sizes[-1]:,}", [
                ("alarmcal", [alarmcal, "validate", str(inputs[sizes[-1]]), "--now", NOW]),
                ("python icalendar", [python, str(peers / "icalendar_parse.py"),
                                      str(inputs[sizes[-1]])]),
                (baseline_tool, [baseline, "validate", str(inputs[sizes[-1]]), "--now", NOW])])]:
        if workload not in only:
            continue
        # alarmcal and its baseline build take turns, run by run.
        both = {}
        if baseline:
            both = measure_alternating(
                [(tool, command, None, max(args.limit, 3600) if tool == "alarmcal" else args.limit)
                 for tool, command in commands if tool in ("alarmcal", baseline_tool)], runs)
        for tool, command in commands:
            if (tool == "python icalendar" and not python) or (
                    tool == baseline_tool and not baseline):
                continue
            limit = args.limit if tool != "alarmcal" else max(args.limit, 3600)
            outcome = both[tool] if tool in both else measure(command, None, runs, limit)
            if workload == "W5" and tool.startswith("alarmcal") and outcome.note == "exit 1":
                outcome = Outcome(note="errors found")
            results.append((workload, label, tool, outcome))
            shown = outcome.note or f"{outcome.seconds:.2f} s, {outcome.rss_mb:.0f} MB"
            print(f"{workload} {label:>22} {tool:>16}: {shown}", flush=True)

    failures = []
    for workload, label, tool, outcome in results:
        if tool != "libical floor" or not label.startswith("weekly") or outcome.count is None:
            continue
        mine = next(o for w, l, t, o in results if (w, l, t) == (workload, label, "alarmcal"))
        if mine.count != outcome.count:
            failures.append(f"{workload} {label}: alarmcal {mine.count} firings, floor "
                            f"{outcome.count}")
    # Alarms that can never ring cost nothing: the one alarm that rings is found at once.
    for workload, label, tool, outcome in results:
        if label.startswith("all off") and (outcome.count != 1 or (outcome.seconds or 99) > 2):
            failures.append(f"{workload} {label}: {outcome.count} firings in "
                            f"{outcome.seconds} s; expected 1 firing in well under 2 s")
    for failure in failures:
        print("MISMATCH " + failure)
    if args.smoke:
        return 1 if failures or any(o.note for *_, o in results) else 0
    if args.out is None:
        print("--only without --out: no table written")
        return 1 if failures else 0
    write_report(Path(args.out), results, runs, args.limit)
    return 1 if failures else 0


def build_baseline(revision, work):
    """Builds alarmcal (release) from git revision `revision`, unpacked under `work`; returns the
    binary's path. The repository itself is not touched (no worktree, no checkout)."""
    commit = sh(["git", "rev-parse", "--verify", revision + "^{commit}"], cwd=ROOT).strip()
    tree = work / f"baseline-{commit[:12]}"
    if not (tree / "Package.swift").exists():
        print(f"== unpacking {revision} ({commit[:12]}) into {tree}", flush=True)
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    print(f"== building alarmcal at {revision} (release)", flush=True)
    return build_alarmcal(tree)


def build_alarmcal(package):
    """Builds alarmcal (release) in the package at `package`; returns the binary's path."""
    subprocess.run(["swift", "build", "-c", "release", "--product", "alarmcal"], cwd=package,
                   check=True, stdout=subprocess.DEVNULL)
    return sh(["swift", "build", "-c", "release", "--show-bin-path"], cwd=package).strip() + \
        "/alarmcal"


def cell(outcome):
    if outcome.note:
        return outcome.note, ""
    return f"{outcome.seconds:.2f} s", f"{outcome.rss_mb:.0f} MB"


def write_report(path, results, runs, limit):
    lines = [
        "# Benchmarks",
        "",
        "Written by `Benchmarks/run.py` (the full run; `--smoke` is CI's 1,000-event check).",
        f"Run on {dt.date.today().isoformat()}: {machine()}.",
        "",
        f"Each time is the median of {runs} run(s) (one run when it took over 60 s), wall clock;",
        "each memory figure is the peak RSS of the measured process. Inputs are generated with a fixed seed by",
        "`Benchmarks/generate.py`: weekly BYDAY series in five zones with VTIMEZONEs and one or",
        "two VALARMs, a mixed calendar (monthly, yearly, daily COUNT, UNTIL, EXDATE, moved",
        "instances, all-day, floating and UTC), and an alarm list. Now is " + NOW + ".",
        "Peers: the libical floor (`Benchmarks/floor/libical-floor.c`: libical's parser and",
        "`icalrecur_iterator`, no EXDATE/RDATE/overrides), recurring-ical-events and ics-query;",
        "for W4 and W5 the Python library icalendar (`Benchmarks/peers/icalendar_*.py`: the",
        "same calendar written with its objects, alarmcal's calendar read back, and for W5 every",
        "property parsed and decoded, which is no validation);",
        "`Benchmarks/peers/README.md` gives their exact command lines and what each leaves out.",
        f"A peer run longer than {limit:.0f} s is stopped and reported \"over the limit\", and",
        "not run at larger sizes. A tool named `alarmcal REV` is this project built at an",
        "earlier git revision (`--baseline REV`), timed in the same run, its runs taking turns",
        "with alarmcal's.",
        "",
        "| workload | input | tool | time | peak RSS | firings | alarmcal ÷ tool (time) |",
        "|---|---|---|---|---|---|---|",
    ]
    for workload, label, tool, outcome in results:
        mine = next((o for w, l, t, o in results if (w, l, t) == (workload, label, "alarmcal")),
                    None)
        ratio = ""
        if tool != "alarmcal" and mine and mine.seconds and outcome.seconds:
            ratio = f"{mine.seconds / outcome.seconds:.3f}"
        elif tool != "alarmcal" and mine and mine.seconds and outcome.note:
            ratio = f"< {mine.seconds / limit:.4f}" if "over" in outcome.note else ""
        time_text, rss = cell(outcome)
        count = f"{outcome.count:,}" if outcome.count is not None else ""
        lines.append(f"| {workload} | {label} | {tool} | {time_text} | {rss} | {count} | {ratio} |")
    # The sections after the table (each session's notes, "## ...") are kept as they are.
    kept = ""
    if path.exists():
        heading = re.search(r"(?m)^## ", path.read_text())
        if heading:
            kept = "\n" + path.read_text()[heading.start():]
        else:
            print(f"note: {path} had no '## ' section; only the table is written")
    path.write_text("\n".join(lines) + "\n" + kept)
    print(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
