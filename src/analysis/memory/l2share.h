/* l2share: which of a launch's re-reads of global memory L2 serves, from
 * which blocks read the same data at about the same time. A GEMM's blocks
 * of one row read one panel of A and the blocks of one column one panel of
 * B; each block streams its panels through once, so a panel read by a
 * block that runs beside its first reader comes from L2, and one read after
 * the L2 has streamed a matrix past it comes from DRAM again. Two regimes,
 * both seen in the block traces of scripts/timeprobe/gemmorder.cu (H200):
 * - lockstep: the blocks an SM holds start and end together, so the GPU
 *   runs the grid in waves of `resident` blocks in launch order, every
 *   block of a wave at the same point of its loop: a panel comes from DRAM
 *   once for each wave that reads it (gemm_regtile, gemm_vec, gemm_wmma
 *   at N = 4096, regtile and wmma at 8192, gemm_naive at 4 blocks an SM:
 *   within 1% of Nsight Compute's DRAM bytes; tests/l2share_truth.py);
 * - drifting: the blocks an SM holds fall out of step (the first it was
 *   given ends first, its warps issuing ahead), and the SM's blocks start
 *   one after another: blocks launched g apart run g / resident of a
 *   block's time apart, and a panel comes again from DRAM where what the g
 *   blocks launched between its two readers read outgrows the L2
 *   (gemm_naive, gemm_smem: every block row reads B again).
 * Pure: no I/O, no globals. */
#ifndef GPULINT_ANALYSIS_L2SHARE_H
#define GPULINT_ANALYSIS_L2SHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/memory/footprint.h"

/* One array a launch reads. block_bytes: what one block reads of it;
 * grid_bytes: what the whole grid reads (its footprint), both in the unit
 * DRAM moves (64-byte blocks x 64). shared: bit d set where blocks that
 * differ in blockIdx.d alone read the same bytes of it (its addresses,
 * guards and loops do not use blockIdx.d). */
typedef struct l2share_array {
    int64_t block_bytes, grid_bytes;
    unsigned shared;
} l2share_array;

typedef struct l2share_launch {
    int64_t grid[3];
    int64_t resident; /* blocks the GPU holds at once: blocks an SM x SMs */
    bool lockstep;
    int64_t l2_bytes; /* what L2 keeps of data every SM reads */
} l2share_launch;

/* For each array: the bytes DRAM reads of it (grid_bytes, and block_bytes
 * for each of the fetches[i] past a panel's first; an array no block
 * shares with another gets grid_bytes, fetches 0).
 * Returns the bytes one wave (resident blocks) reads. */
int64_t l2share_reads(const l2share_launch *l, const l2share_array *arrays, size_t n,
                      int64_t *dram_bytes, int64_t *fetches);

/* Whether the sites' guards leave out any byte of what the grid reads or
 * writes (with_guards: the launch's footprint): the footprint again with
 * every guard dropped, compared array by array. */
bool l2share_guards_cut(const footprint_site *sites, size_t n, const int64_t grid[3],
                        const int64_t block[3], const expr_env *env, const footprint *with_guards);

/* Bit d set where blocks that differ in blockIdx.d alone read the same
 * bytes of the array: no site of it uses blockIdx.d in its address or
 * loops, nor in its guard where guards_cut (false: the guards keep every
 * lane of every block, a bounds check the grid fits, so a guard naming
 * blockIdx.d does not make the blocks read differently). An array the
 * launch also writes gets 0 (a block may read what another wrote). */
unsigned l2share_dims(const footprint_site *sites, size_t n, const char *array, bool guards_cut);

/* How many of the launch-ordered blocks [start, start + len) read distinct
 * panels of an array shared along `shared`: the distinct values of the
 * other dimensions' block indices among them. */
int64_t l2share_panels(const int64_t grid[3], unsigned shared, int64_t start, int64_t len);

#endif
