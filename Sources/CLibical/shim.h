#ifndef CLIBICAL_SHIM_H
#define CLIBICAL_SHIM_H

#include <libical/ical.h>
#include <string.h>

/// The calling thread's libical error code (`icalerrno` is a macro Swift cannot import).
static inline icalerrorenum clibical_errno(void) { return *icalerrno_return(); }

/// Clears the calling thread's libical error code before a call whose failure is checked.
static inline void clibical_clear_errno(void) { *icalerrno_return() = ICAL_NO_ERROR; }

/// Where a text handed to libical's parser stands: the first byte not yet handed out, the end,
/// and the end of the content line that byte is in (past its LF), found once per line.
typedef struct {
  const char *next;
  const char *end;
  const char *line_end;
} clibical_text_lines;

/// An `icalparser_line_gen_func` over a `clibical_text_lines`: hands out the text a line (or a
/// buffer's worth of a long line) at a time. libical's own string generator searches for the
/// next LF from the same place on every call, so one long line costs quadratic time.
static inline char *clibical_text_line(char *out, size_t size, void *data) {
  clibical_text_lines *lines = (clibical_text_lines *)data;
  if (lines->next >= lines->end || size < 2) return NULL;
  if (lines->line_end <= lines->next) {
    const char *newline = (const char *)memchr(lines->next, '\n', (size_t)(lines->end - lines->next));
    lines->line_end = newline ? newline + 1 : lines->end;
  }
  size_t count = (size_t)(lines->line_end - lines->next);
  if (count > size - 1) count = size - 1;
  memcpy(out, lines->next, count);
  out[count] = '\0';
  lines->next += count;
  return out;
}

#endif
