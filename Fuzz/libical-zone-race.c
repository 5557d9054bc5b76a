/* Shows why VTimezoneLibrary holds a lock: libical 3.0.16 loading its built-in time zones from
 * several threads at once races (ThreadSanitizer: icaltimezone_get_builtin_timezone,
 * icalmemory_append_string) and sometimes crashes (about 1 run in 40 on a 2-core machine).
 * ThreadSanitizer over the Swift test suite cannot see this: libical is not instrumented.
 *
 *   cc -O1 -g Fuzz/libical-zone-race.c -o /tmp/zone-race $(pkg-config --cflags --libs libical) \
 *     -lpthread && for i in $(seq 40); do /tmp/zone-race || echo "run $i: crashed"; done
 *   cc -O1 -g -fsanitize=thread Fuzz/libical-zone-race.c -o /tmp/zone-race-tsan \
 *     $(pkg-config --cflags --libs libical) -lpthread && /tmp/zone-race-tsan
 */
#include <libical/ical.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
static const char *zones[] = {"Africa/Abidjan","Africa/Cairo","America/Anchorage","America/Bogota","America/Halifax","America/Havana","Asia/Amman","Asia/Beirut","Asia/Dhaka","Asia/Gaza","Asia/Tehran","Atlantic/Azores","Australia/Adelaide","Europe/Dublin","Europe/Lisbon","Pacific/Auckland"};
static void *work(void *arg) {
  long t = (long)arg;
  for (int i = 0; i < 16; i++) {
    const char *name = zones[(i + t * 3) % 16];
    icaltimezone *z = icaltimezone_get_builtin_timezone(name);
    if (!z) { fprintf(stderr, "no zone %s\n", name); abort(); }
    icalcomponent *c = icaltimezone_get_component(z);
    if (!c) { fprintf(stderr, "no component %s\n", name); abort(); }
    char *s = icalcomponent_as_ical_string_r(c);
    free(s);
  }
  return 0;
}
int main(void) {
  pthread_t th[8];
  for (long t = 0; t < 8; t++) pthread_create(&th[t], 0, work, (void *)t);
  for (int t = 0; t < 8; t++) pthread_join(th[t], 0);
  return 0;
}
