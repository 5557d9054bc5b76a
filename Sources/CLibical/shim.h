#ifndef CLIBICAL_SHIM_H
#define CLIBICAL_SHIM_H

#include <libical/ical.h>

/// The calling thread's libical error code (`icalerrno` is a macro Swift cannot import).
static inline icalerrorenum clibical_errno(void) { return *icalerrno_return(); }

/// Clears the calling thread's libical error code before a call whose failure is checked.
static inline void clibical_clear_errno(void) { *icalerrno_return() = ICAL_NO_ERROR; }

#endif
