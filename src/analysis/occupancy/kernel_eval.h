/* kernel_eval: everything gpulint reports about one compiled kernel on one
 * architecture: the largest launchable block, occupancy at the block size in
 * use (or the best and the common sizes when none is known), and advice.
 * Pure. */
#ifndef GPULINT_KERNEL_EVAL_H
#define GPULINT_KERNEL_EVAL_H

#include <stdbool.h>

#include "analysis/occupancy/occ.h"

#define KERNEL_EVAL_COMMON 4
extern const int kernel_eval_common_blocks[KERNEL_EVAL_COMMON]; /* 128 256 512 1024 */

typedef struct kernel_eval {
    occ_kernel res;
    int max_block; /* largest block the registers allow */
    bool has_launch;
    occ_launch launch;
    occ_result occ;
    occ_advice advice[4];
    int n_advice;
    int best_block; /* 0 when nothing launches */
    occ_result best;
    occ_result common[KERNEL_EVAL_COMMON];
} kernel_eval;

/* launch: the block size in use (NULL when unknown). defaults carries the
 * dynamic smem and carveout used for the best/common sizes. */
void kernel_evaluate(const gpu_arch *a, const occ_kernel *k, const occ_launch *launch,
                     const occ_launch *defaults, kernel_eval *out);

#endif
