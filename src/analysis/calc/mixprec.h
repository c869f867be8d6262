/* mixprec: the speedup of a workload whose parts run at different rates
 * (mixed precision: FP16 on Tensor Cores 3x as fast as FP32, say), by
 * Amdahl's law, and the share that must move to the fast rate to reach a
 * target speedup. Pure: no I/O, no globals.
 *
 * A part holding fraction f of the original time, made r times faster,
 * takes f / r: speedup = 1 / sum(f_i / r_i). Moving a share x to rate r
 * with the rest at rate 1 gives 1 / ((1 - x) + x / r); for a target S,
 * x = (1 - 1/S) / (1 - 1/r), reachable only while S <= r. */
#ifndef GPULINT_MIXPREC_H
#define GPULINT_MIXPREC_H

#include <stdbool.h>
#include <stddef.h>

#define MIXPREC_MAX_PARTS 16

typedef struct mixprec_part {
    double fraction; /* share of the original time, 0..1 */
    double rate;     /* speed relative to the original, > 0 */
} mixprec_part;

/* False with why when the fractions are not in 0..1, do not sum to 1
 * (within 1e-6), or a rate is not positive. */
bool mixprec_speedup(const mixprec_part *parts, int n, double *speedup, char *why, size_t why_size);

/* The share at rate `rate` (the rest at 1) that gives `target`; false when
 * target > rate (unreachable: even all of it at that rate falls short), the
 * rate is 1 or target <= 0. */
bool mixprec_fraction_for(double target, double rate, double *fraction);

#endif
