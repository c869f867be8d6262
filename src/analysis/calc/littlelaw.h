/* littlelaw: the parallelism needed to hide a latency (Little's law). A
 * unit that completes `throughput` operations per cycle, each taking
 * `latency` cycles, keeps latency x throughput operations in flight; with
 * `per_warp` operations issued by one warp instruction, that is the number
 * of warps that must be ready to issue. Pure. */
#ifndef GPULINT_LITTLELAW_H
#define GPULINT_LITTLELAW_H

#include <stdbool.h>
#include <stddef.h>

#include "util/sbuf.h"

typedef struct littlelaw {
    double in_flight; /* operations (or bytes) in flight: latency x throughput */
    double warps;     /* in_flight / per_warp */
    long warps_whole; /* rounded up: warps are whole */
} littlelaw;

/* False, with why, unless latency, throughput and per_warp are positive
 * and finite. */
bool littlelaw_solve(double latency, double throughput, double per_warp, littlelaw *out, char *why,
                     size_t why_size);

/* `gpulint occupancy --latency`'s words: the warps needed (with explain,
 * why), then per target whether an SM holds them. */
void littlelaw_text(sbuf *b, double latency, double throughput, double per_warp, const littlelaw *r,
                    bool explain);
void littlelaw_target_text(sbuf *b, const char *label, int max_warps, const littlelaw *r);

#endif
