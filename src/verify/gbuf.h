/* gbuf: device buffers for the reference kernels, filled with values that
 * are a pure function of (buffer, index), so a result can be checked
 * against values regenerated on the host instead of kept there (the inputs
 * are gigabytes). Random inputs, never zeros: zeros hide unwritten outputs
 * and can run faster than real data. */
#ifndef GPULINT_GBUF_H
#define GPULINT_GBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verify/manifest.h"

typedef struct gbuf {
    const vbuffer *spec;
    uint64_t seed;
    void *dev;
    void *pristine; /* a device copy of the initial contents, for restore */
    size_t bytes;
} gbuf;

/* Allocates and fills. */
bool gbuf_create(gbuf *b, const vbuffer *spec, uint64_t seed, char *err, size_t errlen);
/* Keeps a copy of the contents so gbuf_restore can put them back. */
bool gbuf_keep(gbuf *b, char *err, size_t errlen);
bool gbuf_restore(gbuf *b, char *err, size_t errlen);
void gbuf_free(gbuf *b);

/* A `cycle` buffer's contents (words: a multiple of 32): one random cycle
 * through its 128-byte lines, the first word of each holding the index of
 * the next line's first word; the other words 0. */
void gbuf_cycle_fill(uint32_t *next, int64_t words, uint64_t seed);

/* The value element i was filled with (as float/double/int per type). */
double gbuf_value(const gbuf *b, int64_t i);

/* Result checks (see vresult in manifest.h). False with why when the
 * result is wrong; *what (may be NULL) says what was compared. */
bool gbuf_check(const vresult_check *c, gbuf *bufs, char *why, size_t whylen);

/* IEEE binary16 conversions (round to nearest even). */
uint16_t gbuf_float_to_half(float f);
float gbuf_half_to_float(uint16_t h);

#endif
