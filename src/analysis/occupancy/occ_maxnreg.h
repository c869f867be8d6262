/* occ_maxnreg: warp-specialised kernels that change their warpgroups'
 * registers at run time (setmaxnreg, sm_90a on). The launch reserves
 * ptxas's count for every thread of the block -- what occupancy counts;
 * setmaxnreg.dec gives a warpgroup's surplus back to the block's pool and
 * setmaxnreg.inc waits until the pool has what it asks (PTX ISA,
 * "setmaxnreg"). So of a block's warpgroups only so many can hold the
 * raised count at once, the others lowered; more wait forever. Pure. */
#ifndef GPULINT_OCC_MAXNREG_H
#define GPULINT_OCC_MAXNREG_H

#include <stdbool.h>

#include "model/model.h"

/* PTX ISA: the count is a multiple of 8 from 24 to 256; a warpgroup is
 * four warps. */
enum { MAXNREG_MIN = 24, MAXNREG_MAX = 256, MAXNREG_STEP = 8, MAXNREG_WARPGROUP = 128 };

typedef struct occ_maxnreg_in {
    int launch_regs;          /* ptxas's registers a thread */
    int threads;              /* per block */
    const int *raise, *lower; /* the .inc and .dec counts found (-1: not an immediate) */
    int n_raise, n_lower;
} occ_maxnreg_in;

typedef struct occ_maxnreg {
    int reserved;   /* registers a thread the launch reserves (rounded to the warp's unit) */
    int warpgroups; /* threads / 128; 0 when the block is not whole warpgroups */
    int raise_to;   /* the largest .inc count; 0 = none */
    int lower_to;   /* the smallest .dec count; 0 = none (the others keep `reserved`) */
    /* Warpgroups that can hold raise_to at once with every other one at
     * lower_to (or reserved); -1 when not known (no whole warpgroups, an
     * operand not an immediate). */
    int most_raised;
    int bad_count; /* a count outside 24..256 or not a multiple of 8; 0 = none */
} occ_maxnreg;

void occ_maxnreg_compute(const gpu_arch *a, const occ_maxnreg_in *in, occ_maxnreg *out);

#endif
