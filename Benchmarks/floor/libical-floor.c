/*
 * libical-floor: the alarm firings of an .ics file, computed the way a thin wrapper of libical
 * would compute them. It is the floor of issue 5's benchmarks: alarmcal should be no slower.
 *
 *   cc -O2 -Wall -Wextra -o libical-floor Benchmarks/floor/libical-floor.c \
 *      $(pkg-config --cflags --libs libical)
 *   libical-floor FILE --from ISO [--to ISO] [--first N] [--print] [--tz ZONE]
 *
 * It reads the whole file, parses it with icalparser_parse_string, and for every VEVENT walks
 * each RRULE with icalrecur_iterator (or takes DTSTART alone when there is none), converts each
 * instance to UTC through its TZID (the file's VTIMEZONE, as icalcomponent_get_dtstart resolves
 * it), and for each VALARM computes its triggers:
 *   - a duration TRIGGER is measured from the instance's start, or with RELATED=END from its
 *     end (DTEND's exact length, or DURATION, or a day for an all-day event without either);
 *   - an absolute TRIGGER fires once per event, not once per instance;
 *   - REPEAT/DURATION add REPEAT more firings, each DURATION after the previous one;
 *   - as in alarmcal and RFC 5545 3.3.6, the day and week part of a duration is nominal (wall
 *     clock in the event's zone) and the time part exact.
 * A firing counts when from <= trigger < to. The count goes to stderr as "firings N".
 *
 * --first N keeps the N earliest firings at or after --from (--to is optional then, as an outer
 * bound) in a bounded max-heap; a series stops as soon as its next instance cannot beat the
 * N-th firing found so far. --print writes "<UTC trigger> <UID>" per firing to stdout, in time
 * order with --first and in discovery order otherwise.
 *
 * One RFC rule libical lacks is added back, since it changes counts on ordinary files: a
 * DTSTART that its RRULE does not produce is still the first instance, and the first one COUNT
 * counts (RFC 5545 3.8.5.3); libical's iterator drops it.
 *
 * On purpose it does NOT do what a thin wrapper would skip, and alarmcal does: RDATE, EXDATE
 * and RECURRENCE-ID overrides are ignored (each override is iterated as a series of its own),
 * VTODOs are ignored, STATUS:CANCELLED, ACTION:NONE and ACKNOWLEDGED are ignored (every alarm
 * rings, as with alarmcal's --include-acknowledged), X-WR-TIMEZONE is ignored (floating and
 * all-day times are read in --tz, default UTC), and local times in a DST gap or overlap are
 * resolved the way libical resolves them, not per RFC 5545 3.3.5: a repeated time lands on its
 * second occurrence; a single event (no RRULE) in a gap lands an hour early, and the iterator
 * moves a series whose DTSTART is in a gap to the hour after it for good (an instance that
 * only falls in a gap on its day lands where the RFC says).
 *
 * Exit status: 0 done, 64 usage error, 65 the file cannot be parsed, 66 it cannot be read,
 * 70 out of memory, 74 stdout cannot be written.
 */
#include <libical/ical.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SLACK (2 * 86400) /* covers DST shifts and nominal days in the search bounds */
#define END_OF_TIME ((time_t)253402300799) /* 9999-12-31T23:59:59Z, alarmcal's horizon */

typedef struct {
    time_t at;
    const char *uid; /* points into the parsed tree, which lives until the end */
} Firing;

typedef struct {
    time_t from, to;
    long first; /* 0: every firing in the window */
    int print;
    icaltimezone *floating_zone; /* for floating and all-day times; NULL is UTC */
    long count;
    Firing *heap; /* --first: a max-heap on `at` of at most `first` firings */
    long heap_len;
} Run;

typedef struct {
    int absolute;
    time_t at; /* absolute trigger */
    int related_end;
    int days; /* nominal part of the trigger offset */
    long seconds; /* exact part */
    int repeat;
    int step_days; /* REPEAT interval */
    long step_seconds;
} Alarm;

typedef struct {
    Alarm *items;
    size_t len, cap;
} Alarms;

/* Instant + nominal days (wall clock in zone) + exact seconds. */
static time_t shift(time_t at, const icaltimezone *zone, int days, long seconds)
{
    if (days != 0) {
        struct icaltimetype local = icaltime_from_timet_with_zone(at, 0, zone);
        icaltime_adjust(&local, days, 0, 0, 0);
        at = icaltime_as_timet_with_zone(local, zone);
    }
    return at + seconds;
}

/* The same from a local time, so that a nominal day keeps the wall-clock time of the start. */
static time_t shift_local(struct icaltimetype local, const icaltimezone *zone, int days,
                          long seconds)
{
    if (days != 0)
        icaltime_adjust(&local, days, 0, 0, 0);
    return icaltime_as_timet_with_zone(local, zone) + seconds;
}

static void split_duration(struct icaldurationtype d, int *days, long *seconds)
{
    int sign = d.is_neg ? -1 : 1;
    *days = sign * (int)(d.weeks * 7 + d.days);
    *seconds = sign * (long)(d.hours * 3600L + d.minutes * 60L + d.seconds);
}

/* The order of firings: by trigger, then by UID (alarmcal's order, for ties at the N-th). */
static int later(time_t at, const char *uid, const Firing *than)
{
    return at != than->at ? at > than->at : strcmp(uid, than->uid) > 0;
}

static void heap_swap(Firing *a, Firing *b)
{
    Firing t = *a;
    *a = *b;
    *b = t;
}

static void heap_sift_down(Firing *heap, long len, long i)
{
    for (;;) {
        long largest = i, l = 2 * i + 1, r = l + 1;
        if (l < len && later(heap[l].at, heap[l].uid, &heap[largest]))
            largest = l;
        if (r < len && later(heap[r].at, heap[r].uid, &heap[largest]))
            largest = r;
        if (largest == i)
            return;
        heap_swap(&heap[i], &heap[largest]);
        i = largest;
    }
}

/* Whether the heap is full and no firing at `at` or later can enter it. */
static int beaten(const Run *run, time_t at)
{
    return run->first > 0 && run->heap_len == run->first && at > run->heap[0].at;
}

static void emit(Run *run, time_t at, const char *uid)
{
    if (at < run->from || at >= run->to)
        return;
    if (run->first == 0) {
        run->count++;
        if (run->print) {
            struct tm tm;
            char text[32];
            gmtime_r(&at, &tm);
            strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
            printf("%s %s\n", text, uid);
        }
        return;
    }
    if (run->heap_len < run->first) {
        long i = run->heap_len++;
        run->heap[i].at = at;
        run->heap[i].uid = uid;
        while (i > 0 && later(run->heap[i].at, run->heap[i].uid, &run->heap[(i - 1) / 2])) {
            heap_swap(&run->heap[(i - 1) / 2], &run->heap[i]);
            i = (i - 1) / 2;
        }
    } else if (later(run->heap[0].at, run->heap[0].uid, &(Firing){at, uid})) {
        run->heap[0].at = at;
        run->heap[0].uid = uid;
        heap_sift_down(run->heap, run->heap_len, 0);
    }
}

/* Reads the VALARMs of an event; returns 0 when it has none. */
static int read_alarms(icalcomponent *event, Alarms *alarms)
{
    alarms->len = 0;
    icalcompiter iter = icalcomponent_begin_component(event, ICAL_VALARM_COMPONENT);
    for (icalcomponent *alarm; (alarm = icalcompiter_deref(&iter)) != NULL;
         icalcompiter_next(&iter)) {
        icalproperty *trigger = icalcomponent_get_first_property(alarm, ICAL_TRIGGER_PROPERTY);
        if (trigger == NULL)
            continue;
        struct icaltriggertype value = icalproperty_get_trigger(trigger);
        Alarm a;
        memset(&a, 0, sizeof a);
        if (!icaltime_is_null_time(value.time)) {
            a.absolute = 1;
            a.at = icaltime_as_timet_with_zone(value.time, icaltimezone_get_utc_timezone());
        } else {
            icalparameter *related =
                icalproperty_get_first_parameter(trigger, ICAL_RELATED_PARAMETER);
            a.related_end =
                related != NULL && icalparameter_get_related(related) == ICAL_RELATED_END;
            split_duration(value.duration, &a.days, &a.seconds);
        }
        icalproperty *repeat = icalcomponent_get_first_property(alarm, ICAL_REPEAT_PROPERTY);
        icalproperty *step = icalcomponent_get_first_property(alarm, ICAL_DURATION_PROPERTY);
        if (repeat != NULL && step != NULL && icalproperty_get_repeat(repeat) > 0) {
            a.repeat = icalproperty_get_repeat(repeat);
            split_duration(icalproperty_get_duration(step), &a.step_days, &a.step_seconds);
        }
        if (alarms->len == alarms->cap) {
            size_t cap = alarms->cap ? 2 * alarms->cap : 4;
            Alarm *items = realloc(alarms->items, cap * sizeof *items);
            if (items == NULL) {
                perror("libical-floor");
                exit(70);
            }
            alarms->items = items;
            alarms->cap = cap;
        }
        alarms->items[alarms->len++] = a;
    }
    return alarms->len > 0;
}

typedef struct {
    const char *uid;
    struct icaltimetype dtstart;
    const icaltimezone *zone;
    int span_days; /* the event's length: nominal days and exact seconds */
    long span_seconds;
    time_t lo, hi; /* every trigger lies within [start + lo, start + hi] */
    int relative; /* whether any alarm is measured from the instances */
} Series;

/* The firings of one instance. */
static void fire(Run *run, const Series *s, const Alarms *alarms, struct icaltimetype local,
                 time_t start)
{
    time_t end = 0;
    int end_known = 0;
    for (size_t i = 0; i < alarms->len; i++) {
        const Alarm *a = &alarms->items[i];
        if (a->absolute)
            continue;
        time_t at;
        if (a->related_end) {
            if (!end_known) {
                end = shift_local(local, s->zone, s->span_days, s->span_seconds);
                end_known = 1;
            }
            at = shift(end, s->zone, a->days, a->seconds);
        } else {
            at = a->days ? shift_local(local, s->zone, a->days, a->seconds) : start + a->seconds;
        }
        emit(run, at, s->uid);
        for (int k = 1; k <= a->repeat; k++)
            emit(run, shift(at, s->zone, k * a->step_days, k * a->step_seconds), s->uid);
    }
}

/* Widest reach of the event's relative triggers around an instance start. */
static void bounds(Series *s, const Alarms *alarms)
{
    time_t lo = 0, hi = 0;
    int any = 0;
    for (size_t i = 0; i < alarms->len; i++) {
        const Alarm *a = &alarms->items[i];
        if (a->absolute)
            continue;
        time_t base = a->related_end ? s->span_days * 86400L + s->span_seconds : 0;
        for (int k = 0; k <= a->repeat; k++) {
            time_t off = base + (a->days + (time_t)k * a->step_days) * 86400 + a->seconds +
                         (time_t)k * a->step_seconds;
            if (!any || off < lo)
                lo = off;
            if (!any || off > hi)
                hi = off;
            any = 1;
        }
    }
    s->lo = lo - SLACK;
    s->hi = hi + SLACK;
    s->relative = any;
}

/* Whether the iterator's first instance is DTSTART. libical moves a DTSTART that falls in a
   DST gap (02:30 on the day clocks go from 02:00 to 03:00) to the same day's 03:30, and keeps
   that wall-clock time for the whole series. */
static int is_dtstart(struct icaltimetype first, const Series *s)
{
    if (icaltime_is_null_time(first))
        return 0;
    if (icaltime_compare(first, s->dtstart) == 0)
        return 1;
    struct icaltimetype d = s->dtstart;
    if (d.is_date || first.year != d.year || first.month != d.month || first.day != d.day)
        return 0;
    struct icaltimetype back =
        icaltime_from_timet_with_zone(icaltime_as_timet_with_zone(d, s->zone), 0, s->zone);
    int in_gap = back.hour != d.hour || back.minute != d.minute;
    int later = (first.hour - d.hour) * 3600 + (first.minute - d.minute) * 60 +
                (first.second - d.second);
    return in_gap && later > 0 && later <= 3600;
}

static void walk_rule(Run *run, const Series *s, const Alarms *alarms,
                      struct icalrecurrencetype rule)
{
    icalrecur_iterator *it = icalrecur_iterator_new(rule, s->dtstart);
    if (it == NULL)
        return; /* a rule libical cannot iterate: the event is skipped */
    /* Jump near the window; libical cannot do it for COUNT rules (they count from DTSTART). */
    time_t earliest = run->from - s->hi;
    int jumped = 0;
    if (rule.count == 0 && earliest > icaltime_as_timet_with_zone(s->dtstart, s->zone)) {
        struct icaltimetype start = icaltime_from_timet_with_zone(earliest, 0, s->zone);
        if (s->dtstart.is_date) {
            start.is_date = 1;
            start.hour = start.minute = start.second = 0;
        }
        start.zone = s->dtstart.zone;
        jumped = icalrecur_iterator_set_start(it, start);
    }
    /* RFC 5545 3.8.5.3: DTSTART is always the first instance, and the first one COUNT counts.
       libical skips a DTSTART its rule does not produce (and then counts COUNT rule instances
       without it): add it back. After a jump, DTSTART lies before the window anyway. */
    int left = rule.count > 0 ? rule.count : -1;
    struct icaltimetype local = icalrecur_iterator_next(it);
    if (!jumped && !is_dtstart(local, s)) {
        time_t start = icaltime_as_timet_with_zone(s->dtstart, s->zone);
        if (start + s->hi >= run->from && start + s->lo < run->to)
            fire(run, s, alarms, s->dtstart, start);
        left--;
    }
    for (; !icaltime_is_null_time(local) && left != 0; local = icalrecur_iterator_next(it)) {
        left--;
        time_t start = icaltime_as_timet_with_zone(local, s->zone);
        if (start + s->lo >= run->to || beaten(run, start + s->lo))
            break;
        if (start + s->hi < run->from)
            continue;
        fire(run, s, alarms, local, start);
    }
    icalrecur_iterator_free(it);
}

static void walk_event(Run *run, icalcomponent *event, Alarms *alarms)
{
    if (!read_alarms(event, alarms))
        return;
    Series s;
    memset(&s, 0, sizeof s);
    s.uid = icalcomponent_get_uid(event);
    if (s.uid == NULL)
        s.uid = "";
    if (icalcomponent_get_first_property(event, ICAL_DTSTART_PROPERTY) == NULL)
        return;
    s.dtstart = icalcomponent_get_dtstart(event);
    if (icaltime_is_null_time(s.dtstart))
        return;
    s.zone = s.dtstart.is_date || s.dtstart.zone == NULL ? run->floating_zone : s.dtstart.zone;

    icalproperty *dtend = icalcomponent_get_first_property(event, ICAL_DTEND_PROPERTY);
    icalproperty *duration = icalcomponent_get_first_property(event, ICAL_DURATION_PROPERTY);
    if (dtend != NULL) {
        struct icaltimetype end = icalcomponent_get_dtend(event);
        const icaltimezone *end_zone =
            end.is_date || end.zone == NULL ? run->floating_zone : end.zone;
        long length = (long)(icaltime_as_timet_with_zone(end, end_zone) -
                             icaltime_as_timet_with_zone(s.dtstart, s.zone));
        if (s.dtstart.is_date)
            s.span_days = (int)((length + 43200) / 86400); /* whole days, nominal */
        else
            s.span_seconds = length; /* DTEND: the same exact length for every instance */
    } else if (duration != NULL) {
        split_duration(icalproperty_get_duration(duration), &s.span_days, &s.span_seconds);
    } else if (s.dtstart.is_date) {
        s.span_days = 1;
    }
    bounds(&s, alarms);

    for (size_t i = 0; i < alarms->len; i++)
        if (alarms->items[i].absolute) {
            const Alarm *a = &alarms->items[i];
            emit(run, a->at, s.uid);
            for (int k = 1; k <= a->repeat; k++)
                emit(run, shift(a->at, NULL, k * a->step_days, k * a->step_seconds), s.uid);
        }

    if (!s.relative)
        return;
    /* RDATE, EXDATE and RECURRENCE-ID are ignored on purpose (see the top of the file). */
    icalproperty *rrule = icalcomponent_get_first_property(event, ICAL_RRULE_PROPERTY);
    if (rrule == NULL) {
        time_t start = icaltime_as_timet_with_zone(s.dtstart, s.zone);
        fire(run, &s, alarms, s.dtstart, start);
        return;
    }
    for (; rrule != NULL;
         rrule = icalcomponent_get_next_property(event, ICAL_RRULE_PROPERTY))
        walk_rule(run, &s, alarms, icalproperty_get_rrule(rrule));
}

static void walk_calendar(Run *run, icalcomponent *calendar, Alarms *alarms)
{
    icalcompiter iter = icalcomponent_begin_component(calendar, ICAL_VEVENT_COMPONENT);
    for (icalcomponent *event; (event = icalcompiter_deref(&iter)) != NULL;
         icalcompiter_next(&iter))
        walk_event(run, event, alarms);
}

/* 2026-12-02T08:00:00Z, 2026-12-02T08:00Z or 2026-12-02 (midnight UTC); -1 when invalid. */
static time_t parse_instant(const char *text)
{
    struct tm tm;
    int n = -1;
    memset(&tm, 0, sizeof tm);
    if (sscanf(text, "%4d-%2d-%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &n) != 3 || n != 10)
        return -1;
    const char *rest = text + n;
    n = -1;
    if (*rest != '\0' &&
        !(sscanf(rest, "T%2d:%2d:%2dZ%n", &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) == 3 &&
          n == 10) &&
        !(sscanf(rest, "T%2d:%2dZ%n", &tm.tm_hour, &tm.tm_min, &n) == 2 && n == 7))
        return -1;
    if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
        tm.tm_min > 59 || tm.tm_sec > 60)
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return timegm(&tm);
}

static int compare_firings(const void *a, const void *b)
{
    const Firing *x = a, *y = b;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    return strcmp(x->uid, y->uid);
}

static char *read_file(const char *path)
{
    FILE *file = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (file == NULL)
        return NULL;
    size_t len = 0, cap = 1 << 20;
    char *text = malloc(cap);
    for (size_t got; text != NULL && (got = fread(text + len, 1, cap - len - 1, file)) > 0;) {
        len += got;
        if (cap - len - 1 == 0) {
            char *bigger = realloc(text, cap *= 2);
            if (bigger == NULL)
                free(text);
            text = bigger;
        }
    }
    if (text != NULL)
        text[len] = '\0';
    if (file != stdin)
        fclose(file);
    return text;
}

static int usage(const char *message)
{
    fprintf(stderr,
            "error: %s\nUsage: libical-floor FILE --from ISO [--to ISO] [--first N] [--print] "
            "[--tz ZONE]\n",
            message);
    return 64;
}

int main(int argc, char **argv)
{
    Run run;
    memset(&run, 0, sizeof run);
    run.from = -1;
    run.to = -1;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int valued = strcmp(arg, "--from") == 0 || strcmp(arg, "--to") == 0 ||
                     strcmp(arg, "--first") == 0 || strcmp(arg, "--tz") == 0;
        if (valued && i + 1 >= argc)
            return usage("an option needs a value");
        if (strcmp(arg, "--from") == 0) {
            if ((run.from = parse_instant(argv[++i])) < 0)
                return usage("--from wants YYYY-MM-DDTHH:MM:SSZ");
        } else if (strcmp(arg, "--to") == 0) {
            if ((run.to = parse_instant(argv[++i])) < 0)
                return usage("--to wants YYYY-MM-DDTHH:MM:SSZ");
        } else if (strcmp(arg, "--first") == 0) {
            char *end;
            errno = 0;
            run.first = strtol(argv[++i], &end, 10);
            if (errno != 0 || *end != '\0' || run.first <= 0 || run.first > 100000000)
                return usage("--first wants a positive whole number");
        } else if (strcmp(arg, "--tz") == 0) {
            run.floating_zone = icaltimezone_get_builtin_timezone(argv[++i]);
            if (run.floating_zone == NULL)
                return usage("--tz names no zone libical knows");
        } else if (strcmp(arg, "--print") == 0) {
            run.print = 1;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return usage("unknown option");
        } else if (path == NULL) {
            path = arg;
        } else {
            return usage("one FILE only");
        }
    }
    if (path == NULL || run.from < 0)
        return usage("FILE and --from are required");
    if (run.to < 0) {
        if (run.first == 0)
            return usage("--to is required without --first");
        run.to = END_OF_TIME;
    }
    icalerror_set_errors_are_fatal(0);

    char *text = read_file(path);
    if (text == NULL) {
        fprintf(stderr, "error: %s: %s\n", path, strerror(errno));
        return 66;
    }
    icalcomponent *root = icalparser_parse_string(text);
    free(text);
    if (root == NULL) {
        fprintf(stderr, "error: %s: libical cannot parse it\n", path);
        return 65;
    }
    if (run.first > 0) {
        run.heap = malloc((size_t)run.first * sizeof *run.heap);
        if (run.heap == NULL) {
            perror("libical-floor");
            return 70;
        }
    }

    Alarms alarms = {NULL, 0, 0};
    if (icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT) {
        walk_calendar(&run, root, &alarms);
    } else { /* XROOT: several VCALENDARs in one file */
        icalcompiter iter = icalcomponent_begin_component(root, ICAL_VCALENDAR_COMPONENT);
        for (icalcomponent *c; (c = icalcompiter_deref(&iter)) != NULL; icalcompiter_next(&iter))
            walk_calendar(&run, c, &alarms);
    }

    if (run.first > 0) {
        qsort(run.heap, (size_t)run.heap_len, sizeof *run.heap, compare_firings);
        run.count = run.heap_len;
        for (long i = 0; run.print && i < run.heap_len; i++) {
            struct tm tm;
            char when[32];
            gmtime_r(&run.heap[i].at, &tm);
            strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
            printf("%s %s\n", when, run.heap[i].uid);
        }
    }
    if (fflush(stdout) != 0) {
        perror("libical-floor: stdout");
        return 74;
    }
    fprintf(stderr, "firings %ld\n", run.count);
    free(run.heap);
    free(alarms.items);
    icalcomponent_free(root);
    icaltimezone_free_builtin_timezones();
    return 0;
}
