/* l1reuse: whether L1 still holds what a block's loads read when a later
 * loop of the block reads it again. A kernel that sweeps its data in one
 * loop and again in the next (a layer norm's statistics pass, then its
 * normalising pass over the same row) finds the first sweep in L1 only when
 * what the SM's blocks read in that loop fits in L1; past that, L1's LRU
 * has let the start of the sweep go before the next loop comes back to it,
 * and every sector the second loop shares with the first comes from L2
 * again. Reuse inside one loop (neighbours, warps of a block in step) is
 * not this module's: the L2 estimate keeps counting it once per block.
 * Pure: no I/O, no globals. */
#ifndef GPULINT_ANALYSIS_L1REUSE_H
#define GPULINT_ANALYSIS_L1REUSE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/symbolic/expr.h"
#include "analysis/memory/footprint.h"
#include "model/model.h"

#define L1REUSE_WHY_MAX 256

typedef struct l1reuse {
    /* Sectors one block's later loops read from L2 again: those they share
     * with the loop before, where that loop reads more than L1 keeps. */
    int64_t reread_sectors;
    char why[L1REUSE_WHY_MAX]; /* the first loop that is read again, in words */
} l1reuse;

/* What L1 can keep for each of the blocks an SM holds at once: the unified
 * L1/shared memory less the smallest carveout that holds their shared
 * memory, shared among them. The blocks are counted by threads, block
 * slots, shared memory and grid_blocks_per_sm (the grid's blocks over the
 * SMs, rounded up; 0: not known), not registers, which may hold fewer: the
 * share is at least this. 0 where the arch does not carve L1 from one
 * memory. */
int64_t l1reuse_bytes_per_block(const gpu_arch *arch, int64_t threads_per_block,
                                int64_t smem_per_block, int64_t grid_blocks_per_sm);

/* Sites of one launch (footprint's); bid the block taken for all. */
void l1reuse_compute(const footprint_site *sites, size_t n, const int64_t grid[3],
                     const int64_t block[3], const expr_env *env, const int64_t bid[3],
                     int64_t l1_bytes_per_block, l1reuse *out);

#endif
