/* blockperm: a grid whose blocks take their tiles in another order (the
 * CUDA samples' diagonal transpose: bx = (blockIdx.x + blockIdx.y) %
 * gridDim.x, by = blockIdx.x) touches the addresses the plain order
 * touches when the new order is a permutation of the grid's blocks. Finds
 * the parts of an access's expressions that reorder blocks, proves the
 * permutation by running it over every block of the grid, and writes the
 * plain block indices in their place, so that affbox can follow the
 * access. What the set of addresses is does not depend on which block
 * takes which tile; when they are touched does, and nothing here says so.
 * Pure: no I/O, no globals. */
#ifndef GPULINT_ANALYSIS_BLOCKPERM_H
#define GPULINT_ANALYSIS_BLOCKPERM_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/symbolic/access.h"

/* The most blocks a grid may have for its reordering to be checked. */
#define BLOCKPERM_MAX_BLOCKS (1 << 22)

/* Rewrites a (a bound copy: every name but the loop counters has its
 * value, gridDim included) in place where a reordering of the blocks is a
 * permutation of grid; true when it did. */
bool blockperm_rewrite(mem_access *a, const int64_t grid[3]);

#endif
