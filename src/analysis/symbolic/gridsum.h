/* gridsum: the exact sum of a per-thread integer expression over every
 * thread of a launch, without visiting each thread, where the expression
 * separates into factors of one dimension each. Bounds checks are
 * conjunctions of per-dimension comparisons (`y < NY && x < NX` with
 * x = blockIdx.x * blockDim.x + threadIdx.x), so the threads that pass
 * them are a product of per-dimension counts: a 2048 x 2048 launch costs
 * 2 x 2048 evaluations instead of 4 million. Pure: no I/O, no globals. */
#ifndef GPULINT_ANALYSIS_GRIDSUM_H
#define GPULINT_ANALYSIS_GRIDSUM_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/symbolic/expr.h"

/* Sums e over blockIdx in [0, grid) and threadIdx in [0, block), every
 * other name already bound (expr_bind). False, with nothing set, when e
 * does not separate, reads another name, fails to evaluate for some
 * thread's factor, or the sum overflows: the caller then walks the
 * threads. */
bool gridsum_separable(const expr *e, const int64_t grid[3], const int64_t block[3], int64_t *out);

#endif
