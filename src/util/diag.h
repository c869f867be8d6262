/* diag: gpulint's own messages on stderr ("gpulint: error: ...", one line
 * each) and whether a stream may be coloured. Every layer reports through
 * here, so the wording and the stream are the same wherever a message
 * starts. */
#ifndef GPULINT_DIAG_H
#define GPULINT_DIAG_H

#include <stdbool.h>
#include <stdio.h>

/* "gpulint: error: ..." on stderr; returns code, for `return diag_error(...)`. */
int diag_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Colour only on a terminal and never with NO_COLOR set (no-color.org). */
bool diag_use_color(FILE *f);

#endif
