/* iniline: inih reads a line longer than its buffer (200 bytes by
 * default) in pieces and parses each piece as a line of its own, so that
 * the tail of a long comment or value is taken as an entry and the error
 * names the wrong thing. The readers refuse such a line first. */
#ifndef GPULINT_INILINE_H
#define GPULINT_INILINE_H

#include <stddef.h>

/* The longest line inih's default buffer reads whole, without its newline. */
#define INILINE_MAX 198

/* The number (from 1) of the first line of text longer than INILINE_MAX
 * characters, or 0 when there is none. */
int iniline_too_long(const char *text, size_t len);

#endif
