/* tidguard: which warps of a block take each way of a PTX branch on the
 * thread's x index against a constant. CUB's raking scan runs its serial
 * scan in the first warp alone (`setp.gt.u32 %p2, %r1, 31; @%p2 bra`,
 * %r1 = %tid.x): a block of 1,024 threads runs that code once, not 32
 * times. The index may pass through moves, integer conversions, shifts,
 * masks and constant adds and multiplies (`tid >> 5`, a warp's number;
 * `tid & 31` or %laneid, its lane). Pure. */
#ifndef GPULINT_ANALYSIS_TIDGUARD_H
#define GPULINT_ANALYSIS_TIDGUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/timing/imix.h"

/* For the guarded jump insns[at] of a kernel's PTX launched with blocks of
 * block[0] x block[1] x block[2] threads: the share of a block's warps
 * with a lane that jumps (*taken) and with a lane that goes on to the next
 * instruction (*through). False where the guard is not such a comparison
 * (a value read from memory, a parameter, a register written twice). */
bool tidguard_shares(const imix_insn *insns, size_t n, size_t at, const int64_t block[3],
                     double *taken, double *through);

#endif
