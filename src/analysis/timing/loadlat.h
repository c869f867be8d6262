/* loadlat: which of a launch's global loads a warp waits on one after
 * another, and where each one's data come from, for the latency term of
 * analysis/timing/ktime. A warp issues in order: loads with nothing between them
 * that needs their data go out together and it waits for the slowest; a
 * global store (which may alias every later load, and needs the data of the
 * loads before it) ends such a group. So the loads of one loop body, or of
 * the code outside loops, fall into phases split at each statement that
 * stores to global memory, and before a load whose index another load of
 * the phase reads (a gather); a loop's iterations follow one another. A load
 * waits on L1 alone for a sector its warp asked for before; a sector new to
 * the warp waits for a fetch, which the block makes once for its warps
 * (they ask for what they share at about the same time, and a hit on a
 * line still on its way waits for it), from DRAM where it is the grid's
 * first touch of the sector, else from L2. Pure. */
#ifndef GPULINT_ANALYSIS_LOADLAT_H
#define GPULINT_ANALYSIS_LOADLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/symbolic/access.h"
#include "analysis/symbolic/expr.h"
#include "analysis/memory/traffic.h"

/* The most iterations of a constant loop taken as unrolled in full. */
#define LOADLAT_UNROLLED 16

typedef struct loadlat_load {
    const mem_access *access;
    int phase;        /* loads of one phase are in flight together */
    int64_t requests; /* warp requests over the grid */
    /* Of its requests, the share that meets a sector new to the warp (to
     * the block where a warp is not a row of it): a fetch past L1. */
    double new_share;
    /* Of the blocks' first touches of its sectors, the share that are the
     * grid's first: from DRAM, at least (analysis/timing/ktime adds the blocks
     * that share a sector in the wave that fetches it). */
    double first_share;
    /* Under a loop whose body calls __syncthreads: the iterations the
     * block's warps go through together, down to the innermost such loop
     * (each waits, every iteration, for the block's slowest warp), else 0;
     * and of those iterations the share after the first where the block
     * stores to the same array in the loop: they read what another warp
     * stored, which comes from L2 when several blocks share the SM
     * (scripts/timeprobe/barrierprobe.cu). */
    double lockstep, restored_share;
    /* Of the block's bytes it reads, the share an earlier statement of the
     * block (outside the loops around this load) already loaded or stored:
     * those sectors are in L1 or L2, never DRAM's to fetch again. */
    double seen_share;
    /* Iterations of its innermost loop whose loads are in flight together:
     * a loop nvcc unrolls in full (a trip count known when it compiles, at
     * most LOADLAT_UNROLLED) with no global store or barrier in its body;
     * 1 otherwise. */
    double together;
    /* Nothing in its innermost loop's body holds a later iteration's loads
     * back (no global store, no barrier): where nvcc unrolls the loop in
     * part (the code shows how far), the copies' loads go out together. */
    bool free_body;
    /* The most requests one warp makes (traffic's busiest_warp_requests):
     * a launch lasts at least as long as that warp waits. */
    int64_t busiest_requests;
    int64_t lines; /* 128-byte lines over the grid (traffic's) */
} loadlat_load;

typedef struct loadlat {
    bool ok;
    char why[192]; /* when !ok: the first load that could not be placed */
    size_t n;
    loadlat_load *loads;
    int n_phases;
} loadlat;

/* The global loads among sites[0..n) of one launch; env binds the names
 * the launch and --define give values; env and memo may be NULL. */
void loadlat_compute(const mem_access *const *sites, size_t n, const int64_t grid[3],
                     const int64_t block[3], const expr_env *env, traffic_memo *memo, loadlat *out);
void loadlat_free(loadlat *l);

#endif
