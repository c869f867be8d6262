/* errmsg: a one-line message into the caller's buffer, for the pure
 * calculators that hand their refusals up rather than print them. */
#ifndef GPULINT_ERRMSG_H
#define GPULINT_ERRMSG_H

#include <stdbool.h>
#include <stddef.h>

/* Formats into buf (truncated to n) and returns false, so that a check can
 * read `return errmsg_set(...)`. */
bool errmsg_set(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
