#!/usr/bin/env python3
"""Cross-checks `alarmcal upcoming` against the Python library recurring-ical-events (r-i-e).

For each .ics file (folders are searched recursively) it runs `alarmcal upcoming FILE --from F
--to T --tz Z --format json --include-acknowledged` and `recurring_ical_events.of(calendar,
components=["VALARM"]).between(F, T)`, and compares the firings as a multiset of (UID, trigger
in UTC). Floating and all-day times are read in X-WR-TIMEZONE if it names a known zone, else in
--tz, as alarmcal does. Each r-i-e firing is re-read per RFC 5545/9074 from the file's content;
a disagreement is "theirs" when that reading names a known r-i-e (or icalendar) error and gives
alarmcal's time, else "ours" (exit status 1). A file alarmcal rejects, or Python cannot parse,
is reported and is not a failure. icalendar turns -PT24H and -P1D into the same timedelta, so
the Python side reads a copy of the file where each TRIGGER, REPEAT and DURATION line is
followed by an X-XCHECK-* line with its text (r-i-e ignores X- properties).

Usage: scripts/crosscheck-upcoming.py [--alarmcal PATH] [--from ISO] [--to ISO] [--tz ZONE]
           [--summary] [--json] FILE-OR-FOLDER...
"""
import argparse
import collections
import datetime as dt
import json
import multiprocessing
import re
import subprocess
import sys
import time
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events
from dateutil.rrule import rrulestr

UTC = dt.timezone.utc
MARGIN = dt.timedelta(days=2)  # r-i-e is asked for a wider window, so shifted firings pair up
ALARMCAL_TIMEOUT, PYTHON_TIMEOUT, PART_TIMEOUT = 60, 60, 15  # seconds
DURATION_RE = re.compile(r"^([+-]?)P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$")


def find_files(paths):
    """The .ics files named, or found (recursively, sorted) in the folders named."""
    return [file for path in map(Path, paths)
            for file in (sorted(path.rglob("*.ics")) if path.is_dir() else [path])]


def parse_iso(text):
    """A command-line instant: a date is midnight UTC, a time without offset is UTC."""
    value = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def iso(instant):
    """The UTC form alarmcal prints: YYYY-MM-DDTHH:MM:SSZ."""
    return instant.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def run_alarmcal(path, opts):
    """Returns (list of (uid, trigger), error text or None) for one file."""
    command = [opts.alarmcal, "upcoming", str(path), "--from", iso(opts.start), "--to",
               iso(opts.end), "--tz", opts.tz, "--format", "json", "--include-acknowledged"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=ALARMCAL_TIMEOUT)
    except subprocess.TimeoutExpired:
        return [], f"timed out after {ALARMCAL_TIMEOUT} s"
    errors = [line for line in done.stderr.splitlines() if "error:" in line]
    if done.returncode != 0 or errors:
        return [], (errors[0] if errors else done.stderr.strip()) or f"exit {done.returncode}"
    return [(item["uid"], item["trigger"]) for item in json.loads(done.stdout)], None


def annotate(text):
    """Unfolds the file and copies the text of each VALARM's TRIGGER (with RELATED), REPEAT and
    DURATION, and of a component's own DURATION (X-XCHECK-SPAN), into an X- line after it.
    Identical alarms stay identical, so r-i-e's de-duplication of alarms is unchanged."""
    out, depth = [], 0
    for line in re.sub(r"\r?\n[ \t]", "", text).splitlines():
        out.append(line)
        depth += (line.upper() == "BEGIN:VALARM") - (line.upper() == "END:VALARM")
        name, _, value = line.partition(":")
        base = name.split(";")[0].upper()
        if depth and base in ("TRIGGER", "REPEAT", "DURATION"):
            related = "END" if "RELATED=END" in name.upper() else "START"
            tag = f"{related}/{value.strip()}" if base == "TRIGGER" else value.strip()
            out.append(f"X-XCHECK-{base}:{tag}")
        elif base == "DURATION":
            out.append(f"X-XCHECK-SPAN:{value.strip()}")
    return "\r\n".join(out) + "\r\n"


def parse_duration(raw):
    """RFC 5545 3.3.6 text -> (nominal days, exact seconds), or None if not a duration."""
    match = DURATION_RE.match(raw.strip().upper()) if raw else None
    if not match:
        return None
    sign = -1 if match.group(1) == "-" else 1
    weeks, days, hours, minutes, seconds = (int(g or 0) for g in match.groups()[1:])
    return sign * (weeks * 7 + days), sign * (hours * 3600 + minutes * 60 + seconds)


def local_instants(wall, tz):
    """The UTC instants whose wall-clock time in tz is `wall` (none in a gap, two in an
    overlap), and the offsets tz has around it."""
    offsets = {(wall + dt.timedelta(days=d)).replace(tzinfo=tz).utcoffset() for d in (-1, 0, 1)}
    found = {(wall - offset).replace(tzinfo=UTC) for offset in offsets}
    return sorted(i for i in found if i.astimezone(tz).replace(tzinfo=None) == wall), offsets


def rfc_instant(wall, tz):
    """RFC 5545 3.3.5: a time that happens twice is the first; a time in a gap uses the offset
    from before the gap (the smaller one, as clocks go forward)."""
    found, offsets = local_instants(wall, tz)
    return found[0] if found else (wall - min(offsets)).replace(tzinfo=UTC)


def wall_and_zone(value, facts):
    """A DTSTART-like value as (naive wall-clock time, zone): dates and floating times in the
    calendar's floating zone; an IANA zone icalendar chose by TZID is replaced by the file's
    VTIMEZONE of that TZID, the one RFC 5545 3.2.19 says the TZID refers to."""
    if not isinstance(value, dt.datetime):
        return dt.datetime.combine(value, dt.time()), facts["zone"]
    if value.tzinfo is None:
        return value, facts["zone"]
    key = getattr(value.tzinfo, "key", None)
    return value.replace(tzinfo=None), facts["own_zones"].get(key, value.tzinfo)


def continued(component, tzid):
    """The IANA zone a VTIMEZONE cut to single onsets (no RRULE or RDATE, as khal writes it)
    names and agrees with at each of its onsets: that zone continues it past its last onset.
    A narrower reading of alarmcal's rule for RFC 5545 3.6.5 (VTimezoneMatcher.cutDefinition
    also takes ending RRULEs and checks that the zone changes nowhere else). None otherwise."""
    try:
        iana = ZoneInfo(tzid)
    except Exception:
        return None
    onsets = []
    for observance in component.subcomponents:
        if observance.name not in ("STANDARD", "DAYLIGHT"):
            continue
        rule = observance.get("RRULE")
        if rule is not None and "UNTIL" not in rule and "COUNT" not in rule:
            return None
        if rule is not None or "RDATE" in observance:
            return None  # a recurring cut: not the cut-down form this rule is for
        start = observance["DTSTART"].dt
        before = observance["TZOFFSETFROM"].td
        after = observance["TZOFFSETTO"].td
        onsets.append(((start - before).replace(tzinfo=UTC), after, abs(after - before)))
    if not onsets:
        return None
    # Onsets before 1970 are placeholders (Outlook's 1601): compared at 1970 instead, as
    # alarmcal's VTimezoneMatcher.agrees does.
    epoch = dt.datetime(1970, 1, 1, tzinfo=UTC)
    onsets.sort()
    # An onset given as the local time after the change (pytz, so khal) reads up to the size
    # of the change early: the zone is compared at the onset and that much after it.
    for instant, offset, size in onsets:
        if instant < epoch:
            continue
        if offset not in (
            instant.astimezone(iana).utcoffset(),
            (instant + size).astimezone(iana).utcoffset(),
        ):
            return None
    older = [offset for instant, offset, _ in onsets if instant < epoch]
    if older and all(instant < epoch for instant, _, _ in onsets):
        if epoch.astimezone(iana).utcoffset() != older[-1]:
            return None
    return iana


def zone_name(tz):
    """A zone's name for messages (IANA key, or the file's TZID)."""
    return getattr(tz, "key", None) or getattr(tz, "_tzid", None) or str(tz)


def to_utc(value, facts):
    """What a date, floating or zoned value returned by r-i-e means as a UTC instant."""
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        return value.astimezone(UTC)
    return rfc_instant(*wall_and_zone(value, facts))


def component_end(parent):
    """The end of an instance as r-i-e returned it: DTEND, DUE, DTSTART+DURATION or DTSTART."""
    for name in ("DTEND", "DUE"):
        if name in parent:
            return parent[name].dt
    start = parent["DTSTART"].dt
    if "DURATION" in parent:
        return start + parent["DURATION"].dt
    return start if isinstance(start, dt.datetime) else start + dt.timedelta(days=1)


def explain(parent, alarm, rie_utc, facts, nth):
    """Reads the alarm of one r-i-e firing per RFC 5545/9074: (the UTC instant it should ring,
    or None if never; class; reason). Class and reason are None when the reading agrees.
    nth: how many equal firings of this alarm and instance came before (REPEATs can collide)."""
    uid = str(parent.get("UID", ""))
    never = never_rings(parent, alarm, uid, facts)
    if never:
        return (None,) + never
    related, _, raw = str(alarm.get("X-XCHECK-TRIGGER", "")).partition("/")
    trigger = parse_duration(raw)
    if trigger is None:
        return rie_utc, None, None  # an absolute trigger: nothing to compute
    if parent.name == "VTODO" and uid in facts["no_start"] and related == "START":
        return None, "VTODO without DTSTART", (
            "RFC 5545 3.8.6.3 requires DTSTART for a trigger relative to the start; r-i-e "
            "measures from DUE, alarmcal ignores the alarm")
    if parent.name == "VTODO" and uid in facts["no_end"] and related == "END":
        return None, "VTODO without DUE", (
            "RFC 5545 3.8.6.3 requires DUE (or DTSTART and DURATION) for a trigger relative to "
            "a task's end; r-i-e measures from DTSTART, alarmcal ignores the alarm")
    step = parse_duration(str(alarm.get("X-XCHECK-DURATION", ""))) or (0, 0)
    repeat = str(alarm.get("X-XCHECK-REPEAT", "0"))
    anchor = component_end(parent) if related == "END" else parent["DTSTART"].dt
    # the repetitions that r-i-e's arithmetic (anchor + timedelta) puts at rie_utc
    matching = [(k, trigger[0] + k * step[0], trigger[1] + k * step[1])
                for k in range(int(repeat) + 1 if repeat.isdigit() else 1)]
    matching = [(k, days, seconds) for k, days, seconds in matching
                if to_utc(anchor + dt.timedelta(days=days, seconds=seconds), facts) == rie_utc]
    if not matching:
        return rie_utc, None, None
    k, days, seconds = matching[min(nth, len(matching) - 1)]
    wall, tz, anchor_error = rfc_anchor(parent, related, uid, facts)
    middle = rfc_instant(wall + dt.timedelta(days=days), tz)  # after the nominal days
    expected = middle + dt.timedelta(seconds=seconds)
    if expected == rie_utc:
        return rie_utc, None, None
    text = f"TRIGGER:{raw}" + (f" + {k} x DURATION" if k else "")
    return (expected,) + (anchor_error or why(anchor, wall, tz, text, middle, expected))


def never_rings(parent, alarm, uid, facts):
    """(class, reason) when RFC 5545/9074 say this firing of r-i-e does not happen, else None."""
    current = facts["revised"].get(uid)
    if current and "RECURRENCE-ID" not in parent and revision(parent) < current:
        return "revisions", (
            "an older revision of this UID (RFC 5546 2.1.5: the highest SEQUENCE, then the latest "
            "DTSTAMP wins): it does not ring; r-i-e lists it")
    if str(alarm.get("ACTION", "")).upper() == "NONE":
        return "ACTION:NONE", "ACTION:NONE (RFC 9074) never rings; r-i-e lists it"
    status = str(parent.get("STATUS", "")).upper()
    if status == "CANCELLED" or (parent.name == "VTODO" and status == "COMPLETED"):
        return "cancelled", f"STATUS:{status}: the instance does not ring; r-i-e lists it"
    done = "COMPLETED" in parent or str(parent.get("PERCENT-COMPLETE", "")).strip() == "100"
    if parent.name == "VTODO" and done:
        return "cancelled", ("a COMPLETED time or PERCENT-COMPLETE:100 (RFC 5545 3.8.1.8): the "
                             "task is done and does not ring; r-i-e lists it")
    if uid in facts["unknown_tzid"]:
        return "unknown TZID", (
            f"TZID={facts['unknown_tzid'][uid]} has no VTIMEZONE and names no known zone (RFC 5545"
            " 3.2.19 requires one): icalendar reads it as floating, alarmcal skips the event")
    last = facts["count_last"].get(uid)
    if last is not None and parent["RECURRENCE-ID"].dt > last:
        return "DTSTART off RRULE", (
            "DTSTART does not match its RRULE: RFC 5545 3.8.5.3 counts DTSTART as the first of "
            "COUNT (and calls the set undefined); r-i-e adds it on top, so lists one more")
    return None


def rfc_anchor(parent, related, uid, facts):
    """The wall-clock time and zone RFC 5545 measures the trigger from, and (class, reason)
    when r-i-e measured from another instant, else None."""
    start, end = parent["DTSTART"].dt, component_end(parent)
    if uid in facts["reversed"]:  # r-i-e swapped them: the file's DTSTART is r-i-e's end
        return wall_and_zone(start if related == "END" else end, facts) + (
            ("DTEND before DTSTART", "RFC 5545 3.8.2.2 wants DTEND after DTSTART; r-i-e swaps "
             f"them, alarmcal measures RELATED={related} from the property of that name"),)
    span = parse_duration(str(parent.get("X-XCHECK-SPAN", "")))
    if related != "END" or span is None:
        return wall_and_zone(end if related == "END" else start, facts) + (None,)
    wall, tz = wall_and_zone(start, facts)  # the end is DTSTART + DURATION, per 3.3.6
    end_instant = rfc_instant(wall + dt.timedelta(days=span[0]), tz) + dt.timedelta(seconds=span[1])
    if end_instant == to_utc(end, facts):
        return wall_and_zone(end, facts) + (None,)
    return end_instant.astimezone(tz).replace(tzinfo=None), tz, ("wall-clock duration", (
        f"the event's DURATION:{parent['X-XCHECK-SPAN']} crosses a DST change in "
        f"{zone_name(tz)}: r-i-e adds it in wall-clock time, RFC 5545 3.3.6 makes the time "
        "part exact"))


def why(anchor, wall, tz, text, middle, expected):
    """Names the known r-i-e error behind a difference: (class, reason), or (None, None).
    middle: the anchor plus the nominal days; expected: plus the exact time part."""
    if isinstance(anchor, dt.datetime) and anchor.tzinfo and tz is not anchor.tzinfo:
        theirs, own = anchor.utcoffset(), rfc_instant(wall, tz).astimezone(tz).utcoffset()
        if theirs != own:
            return "file's VTIMEZONE", (
                f"TZID {zone_name(tz)}: icalendar uses the IANA zone ({theirs}) instead of the "
                f"file's VTIMEZONE ({own}), the one RFC 5545 3.2.19 refers to")
    if not isinstance(anchor, dt.datetime) and (expected - middle).total_seconds() % 86400:
        return "all-day time part", f"all-day event: r-i-e drops the time part of {text}"
    found, _ = local_instants(wall, tz)
    zoned = isinstance(anchor, dt.datetime) and anchor.tzinfo is not None
    if zoned and len(found) != 1 and anchor.astimezone(UTC) != rfc_instant(wall, tz):
        kind = "spring-forward gap" if not found else "repeated hour"
        return "DST gap/overlap", (f"{wall:%Y-%m-%d %H:%M} is in a {kind} of {zone_name(tz)}; "
                                   f"RFC 5545 3.3.5 reads it as {iso(rfc_instant(wall, tz))}")
    if middle.astimezone(tz).utcoffset() != expected.astimezone(tz).utcoffset():
        return "wall-clock duration", (
            f"{text} crosses a DST change in {zone_name(tz)}: r-i-e adds it in wall-clock "
            "time, RFC 5545 3.3.6 makes the time part exact")
    return None, None


def calendar_facts(calendar, tz_name):
    """What explain() needs to know about one VCALENDAR beyond r-i-e's output: the zone of
    floating times, the file's own VTIMEZONEs, UIDs with a TZID icalendar could not resolve,
    with DTEND before DTSTART, VTODOs without DTSTART, and COUNT limits."""
    name = str(calendar.get("X-WR-TIMEZONE", "")).strip()
    try:
        zone = ZoneInfo(name or tz_name)
    except (ValueError, KeyError, OSError):
        zone = ZoneInfo(tz_name)
    facts = {"zone": zone, "own_zones": {}, "unknown_tzid": {}, "reversed": set(),
             "no_start": {str(c.get("UID", "")) for c in calendar.walk("VTODO")
                          if "DTSTART" not in c}, "count_last": count_limits(calendar),
             "no_end": {str(c.get("UID", "")) for c in calendar.walk("VTODO")
                        if "DUE" not in c and not ("DTSTART" in c and "DURATION" in c)},
             "revised": current_revisions(calendar)}
    for component in calendar.walk("VTIMEZONE"):
        try:
            tzid = str(component["TZID"])
            facts["own_zones"][tzid] = continued(component, tzid) or component.to_tz(
                lookup_tzid=False)
        except Exception:  # a broken VTIMEZONE: icalendar's own reading is all there is
            pass
    for component in calendar.walk():
        uid, start = str(component.get("UID", "")), component.get("DTSTART")
        end = component.get("DTEND") or component.get("DUE")
        for prop in (start, end):
            tzid = prop.params.get("TZID") if hasattr(prop, "params") else None
            if tzid and isinstance(prop.dt, dt.datetime) and prop.dt.tzinfo is None:
                facts["unknown_tzid"][uid] = tzid
        try:
            if to_utc(start.dt, facts) > to_utc(end.dt, facts):
                facts["reversed"].add(uid)
        except (AttributeError, TypeError, ValueError):  # missing or broken: not reversed
            pass
    return facts


def revised_uids(calendar):
    """UIDs with several components and no RECURRENCE-ID: revisions of one event."""
    masters = collections.Counter(str(c.get("UID", "")) for c in calendar.subcomponents
                                  if c.name in ("VEVENT", "VTODO") and "RECURRENCE-ID" not in c)
    return {uid for uid, count in masters.items() if count > 1 and uid}


def revision(component):
    """(SEQUENCE, DTSTAMP) as RFC 5546 2.1.5 orders revisions."""
    try:
        sequence = int(str(component.get("SEQUENCE", "0")))
    except ValueError:
        sequence = 0
    stamp = component.get("DTSTAMP")
    return sequence, iso(stamp.dt) if stamp is not None and hasattr(stamp, "dt") else ""


def current_revisions(calendar):
    """UID -> the (SEQUENCE, DTSTAMP) of its current revision, for UIDs with several."""
    revised, best = revised_uids(calendar), {}
    for component in calendar.subcomponents:
        uid = str(component.get("UID", ""))
        if uid in revised and "RECURRENCE-ID" not in component:
            best[uid] = max(best.get(uid, revision(component)), revision(component))
    return best


def count_limits(calendar):
    """UID -> the last instance start RFC 5545 allows, for an RRULE with COUNT whose DTSTART
    is not one of its instances (DTSTART counts as the first of COUNT)."""
    limits = {}
    for component in calendar.walk():
        rule, start = component.get("RRULE"), component.get("DTSTART")
        try:
            count = int(rule["COUNT"][0])
            instances = rrulestr(rule.to_ical().decode(), dtstart=start.dt)
            if count <= 10000 and instances[0] != start.dt:
                limits[str(component["UID"])] = instances[count - 2] if count > 1 else start.dt
        except (AttributeError, KeyError, TypeError, ValueError, IndexError):
            pass  # no RRULE, no COUNT, or one dateutil cannot read
    return limits


def rie_firings(text, tz_name, start, end, part=None):
    """Runs r-i-e on the annotated text (all of it, or part=(VCALENDAR index, UID)): a list of
    (uid, r-i-e trigger, RFC trigger or None, class, reason), instants as ISO strings."""
    firings = []
    for index, calendar in enumerate(icalendar.Calendar.from_ical(text, multiple=True)):
        if part and part[0] != index:
            continue
        facts = calendar_facts(calendar, tz_name)
        if part:  # keep the calendar's properties and VTIMEZONEs, and one UID's components
            calendar, whole = calendar.copy(), calendar
            calendar.subcomponents = [c for c in whole.subcomponents if c.name == "VTIMEZONE"
                                      or str(c.get("UID", "")) == part[1]]
        seen = collections.Counter()
        query = recurring_ical_events.of(calendar, components=["VALARM"])
        for parent in query.between(start - MARGIN, end + MARGIN):
            alarm = parent.subcomponents[0]
            rie = to_utc(alarm["TRIGGER"].dt, facts)
            definition = sorted((k, str(v)) for k, v in alarm.items() if k != "TRIGGER")
            key = (str(parent.get("UID")), str(parent.get("RECURRENCE-ID")), str(definition), rie)
            expected, kind, reason = explain(parent, alarm, rie, facts, seen[key])
            seen[key] += 1
            firings.append((str(parent.get("UID", "")), iso(rie),
                            iso(expected) if expected else None, kind, reason))
    return firings


def catching(function, args):
    """function(*args) as (result, None), or (None, error text): some of r-i-e's exceptions
    cannot be sent back from a child process."""
    try:
        return function(*args), None
    except Exception as error:  # r-i-e and icalendar raise many kinds
        return None, f"{type(error).__name__}: {error}"[:300]


def in_child(function, args, timeout):
    """Runs function(*args) in a child process: (result, None) or (None, error text)."""
    with multiprocessing.get_context("fork").Pool(1) as pool:
        try:
            return pool.apply_async(catching, (function, args)).get(timeout)
        except multiprocessing.TimeoutError:
            return None, f"timed out after {timeout} s"


def python_side(path, opts):
    """r-i-e's firings for one file: {firings, failed: {uid: error}, snoozes, error}. When r-i-e
    fails on the file, each (VCALENDAR, UID) part with a VALARM is retried alone."""
    result = {"firings": [], "failed": {}, "snoozes": set(), "revised": set(), "error": None}
    try:
        text = annotate(path.read_bytes().decode("utf-8", errors="replace"))
        calendars = icalendar.Calendar.from_ical(text, multiple=True)
    except Exception as error:
        result["error"] = f"cannot parse: {type(error).__name__}: {error}"[:300]
        return result
    result["revised"] = {uid for calendar in calendars for uid in revised_uids(calendar)}
    for component in (c for cal in calendars for c in cal.walk()):
        for key, value in component.items():  # Thunderbird's pending snoozes, in UTC
            if key.startswith("X-MOZ-SNOOZE-TIME") and re.match(r"^\d{8}T\d{6}Z$", str(value)):
                when = dt.datetime.strptime(str(value), "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
                result["snoozes"].add((str(component.get("UID", "")), iso(when)))
    args = (text, opts.tz, opts.start, opts.end)
    firings, error = in_child(rie_firings, args, PYTHON_TIMEOUT)
    if error is None:
        result["firings"] = firings
        return result
    parts = sorted({(index, str(c["UID"])) for index, cal in enumerate(calendars)
                    for c in cal.subcomponents if "UID" in c and c.walk("VALARM")})
    deadline = time.monotonic() + 2 * PYTHON_TIMEOUT
    for index, uid in parts:
        if time.monotonic() > deadline:
            firings, part_error = None, "not run: the time budget for this file is used up"
        else:
            firings, part_error = in_child(rie_firings, args + ((index, uid),), PART_TIMEOUT)
        result["firings"] += firings or []
        if part_error:
            result["failed"][uid] = part_error
    if not parts:
        result["error"] = error
    return result


def compare(ours, theirs, opts):
    """Pairs the firings; returns (agreements, list of disagreement dicts)."""
    def inside(instant):
        return instant is not None and iso(opts.start) <= instant < iso(opts.end)

    def record(side, kind, uid, alarmcal, rie, reason):
        found.append({"side": side, "class": kind, "uid": uid, "alarmcal": alarmcal,
                      "rie": rie, "reason": reason})

    left, agreements, found = collections.Counter(ours), 0, []
    for uid, rie, expected, _, _ in (f for f in theirs["firings"] if f[3] is None):
        if inside(rie) and left[(uid, rie)]:  # first the firings the RFC reading agrees with
            left[(uid, rie)] -= 1
            agreements += 1
        elif inside(rie):
            note = f"; the RFC reading gives {expected}" if expected != rie else ""
            record("ours", "only r-i-e", uid, None, rie, "no known r-i-e error applies" + note)
    for uid, rie, expected, kind, reason in (f for f in theirs["firings"] if f[3] is not None):
        shown = rie if inside(rie) else f"{rie} (outside the window)"
        if inside(expected) and left[(uid, expected)]:  # then r-i-e's known errors
            left[(uid, expected)] -= 1
            record("theirs", kind, uid, expected, shown, reason)
        elif inside(rie) and left[(uid, rie)]:
            left[(uid, rie)] -= 1
            record("ours", "same error as r-i-e", uid, rie, rie,
                   f"{reason}; the RFC reading gives {expected or 'no firing'}")
        elif inside(expected):
            record("ours", "RFC time missing", uid, None, shown,
                   f"alarmcal lacks {expected}; r-i-e is off because {reason}")
        elif inside(rie):
            record("theirs", kind, uid, None, rie, reason)
    for (uid, trigger), count in sorted(left.items()):
        for _ in range(count):
            error = theirs["failed"].get(uid) or theirs["error"]
            if uid in theirs["revised"]:
                record("theirs", "revisions", uid, trigger, None,
                       "several components share this UID: RFC 5546 2.1.5 keeps the highest "
                       "SEQUENCE, then the latest DTSTAMP (alarmcal: then the later one in the "
                       "file); r-i-e does not pick that revision")
            elif (uid, trigger) in theirs["snoozes"]:
                record("theirs", "X-MOZ-SNOOZE-TIME", uid, trigger, None,
                       "Thunderbird's X-MOZ-SNOOZE-TIME is a pending snooze; r-i-e ignores it")
            elif error:  # r-i-e has nothing to compare with
                kind = ("Python cannot parse" if error.startswith("cannot parse") else "timed out"
                        if "timed out" in error or "not run" in error else "crashed")
                record("theirs", kind, uid, trigger, None, f"r-i-e: {error}")
            else:
                record("ours", "only alarmcal", uid, trigger, None, "no known r-i-e error applies")
    return agreements, found


def check_file(path, opts):
    """Compares one file; returns its report dict."""
    ours, alarmcal_error = run_alarmcal(path, opts)
    theirs = python_side(path, opts)
    window = (iso(opts.start), iso(opts.end))
    report = {"file": str(path), "alarmcal": len(ours), "alarmcalError": alarmcal_error,
              "rie": sum(1 for f in theirs["firings"] if window[0] <= f[1] < window[1]),
              "pythonError": theirs["error"], "failedUids": theirs["failed"],
              "agreements": 0, "disagreements": []}
    if alarmcal_error and "timed out" in alarmcal_error:
        report["disagreements"].append({"side": "ours", "class": "alarmcal timed out", "uid": None,
                                        "alarmcal": None, "rie": None, "reason": alarmcal_error})
    elif not alarmcal_error:
        report["agreements"], report["disagreements"] = compare(ours, theirs, opts)
    return report


def print_report(report):
    """Prints one file's counts, notes and every disagreement, for people."""
    notes = [f"alarmcal rejects it: {report['alarmcalError']}"] if report["alarmcalError"] else []
    notes += [f"Python: {report['pythonError']}"] if report["pythonError"] else []
    print(f"{report['file']}: {report['alarmcal']} alarmcal, {report['rie']} r-i-e, "
          f"{report['agreements']} agree" + "".join(f"; {note}" for note in notes))
    for uid, error in sorted(report["failedUids"].items()):
        print(f"  r-i-e failed on uid={uid}: {error}")
    for d in report["disagreements"]:
        print(f"  {d['side']:6} {d['class']}: uid={d['uid']} alarmcal={d['alarmcal']} "
              f"r-i-e={d['rie']}: {d['reason']}")
    sys.stdout.flush()


def summarize(reports):
    """Counts over all reports."""
    sides = collections.Counter(d["side"] for r in reports for d in r["disagreements"])
    classes = collections.Counter(f"{d['side']}: {d['class']}"
                                  for r in reports for d in r["disagreements"])
    return {"files": len(reports),
            "alarmcalRejects": sum(1 for r in reports if r["alarmcalError"]),
            "pythonFails": sum(1 for r in reports if r["pythonError"]),
            "firingsAlarmcal": sum(r["alarmcal"] for r in reports),
            "firingsRie": sum(r["rie"] for r in reports),
            "agreements": sum(r["agreements"] for r in reports),
            "theirs": sides["theirs"], "ours": sides["ours"],
            "classes": dict(sorted(classes.items()))}


def main():
    """Parses the options, checks every file, prints, and returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="+", metavar="FILE-OR-FOLDER")
    parser.add_argument("--alarmcal", default="alarmcal", help="the alarmcal binary")
    parser.add_argument("--from", dest="start", type=parse_iso, default=parse_iso("2026-01-01"))
    parser.add_argument("--to", dest="end", type=parse_iso, default=parse_iso("2028-01-01"))
    parser.add_argument("--tz", default="Europe/Berlin", help="zone of floating/all-day times")
    parser.add_argument("--summary", action="store_true", help="only the counts")
    parser.add_argument("--json", action="store_true", help="a machine-readable report")
    opts = parser.parse_args()
    reports = []
    for path in find_files(opts.paths):
        reports.append(check_file(path, opts))
        if not opts.json and not opts.summary:
            print_report(reports[-1])
    totals = summarize(reports)
    if opts.json:
        print(json.dumps({"totals": totals} if opts.summary else
                         {"totals": totals, "files": reports}, indent=2))
    else:
        print(", ".join(f"{key} {value}" for key, value in totals.items() if key != "classes"))
        for kind, count in totals["classes"].items():
            print(f"  {kind}: {count}")
    return 1 if totals["ours"] else 0


if __name__ == "__main__":
    sys.exit(main())
