/* diverge: warp divergence at a branch or loop. Evaluates the condition (or
 * the loop's trip count) in every lane of every warp of the block, through
 * the enclosing loops, and predicts the SIMT efficiency of the region it
 * guards. Pure: no I/O, no globals.
 *
 * SIMT efficiency, as a fraction of the 32 lanes a warp instruction could
 * use (the definition of nvprof's warp_execution_efficiency):
 *   - if / ?: : the then-region. A warp executes it whenever at least one
 *     of its active lanes takes it, with only those lanes enabled, so
 *       efficiency = sum(taken lanes) / (32 x number of such executions)
 *     over warps x iterations. (An else-region runs the remaining lanes the
 *     same way; it is not counted here.)
 *   - switch: each distinct case value among a warp's lanes is a separate
 *     pass: sum(active lanes) / (32 x sum(distinct values)).
 *   - loop (BRANCH_LOOP): the body runs max(trips) times for the warp, lane
 *     l enabled in trips(l) of them:
 *       efficiency = sum(trips) / (32 x sum(max trips))
 *     e.g. exercise 13.8, (i % 4) + 1 iterations: 80 / (32 x 4) = 62.5%.
 * Partial warps (a block of 40 threads) lower the efficiency without being
 * divergent. */
#ifndef GPULINT_DIVERGE_H
#define GPULINT_DIVERGE_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/symbolic/access.h"
#include "analysis/symbolic/expr.h"
#include "analysis/symbolic/lanes.h"

typedef enum diverge_verdict {
    DIVERGE_NOT_ANALYZED, /* reason says why */
    DIVERGE_DIVERGENT,    /* some warp's active lanes disagree: flagged */
    DIVERGE_CONVERGENT,   /* evaluated per lane: every warp agrees */
    DIVERGE_WARP_UNIFORM, /* reads only values that are the same for a whole warp */
    DIVERGE_BOUNDS_CHECK, /* thread index against an unknown bound: not flagged */
    /* if / ?: whose lanes disagree only where the work no longer fills the
     * warps it runs in (a reduction's last steps): no other assignment of
     * work to threads would run fewer warps, so it is not flagged. */
    DIVERGE_UNAVOIDABLE,
} diverge_verdict;

typedef struct diverge_result {
    diverge_verdict verdict;
    bool flagged; /* verdict == DIVERGE_DIVERGENT */
    /* Why it was not analysed or not flagged, in words. */
    char reason[LANES_WHY_MAX];
    double efficiency; /* see above; 1.0 when not evaluated per lane */
    long region_runs;  /* warp executions of the region (denominator above) */
    long warp_visits;  /* warps x iterations evaluated */
    long divergent_visits;
    /* if / ?: — warp executions of each side against the fewest warps that
     * could hold the same lanes, iteration by iteration (ceil(lanes / 32)).
     * More runs than that is divergence a different thread mapping removes:
     * the neighbored reduction (flagged) against the interleaved one (not). */
    long taken_runs, taken_ideal_runs, other_runs, other_ideal_runs;
    int warps;
    /* The first divergent warp, for explanations. */
    int worst_warp;
    long worst_iteration;
    uint32_t worst_active;
    int64_t worst_value[LANES_WARP]; /* condition value, or trip count, per lane */
    int64_t min_trips, max_trips;    /* loops: over all lanes evaluated */
    bool assumed;
    char note[LANES_NOTE_MAX];
} diverge_result;

/* For BRANCH_LOOP, b->loops[b->n_loops - 1] is the loop itself (its
 * condition is b->cond) and the others enclose it; for the other kinds all
 * of b->loops enclose the branch. */
bool diverge_analyze(const branch_site *b, const int64_t block[3], const expr_env *env,
                     diverge_result *out);

/* Textbook counts for one block (the issue-10 fields): evaluated per lane
 * whatever the verdict, so a bounds check or a warp-uniform condition is
 * counted too. A branch inside loops is counted over every iteration: a
 * warp enters when some lane takes it in some iteration, and diverges when
 * the active lanes of one visit disagree. */
typedef struct diverge_counts {
    int warps;               /* warps in the block */
    int64_t warps_entering;  /* with a lane on the then-path (loops: the body) */
    int64_t warps_divergent; /* with a visit whose active lanes disagree */
    int64_t lanes_on;        /* lane-executions of the path (loops: trips summed) */
    int64_t runs;            /* warp-executions of the path: simd = lanes_on / (32 x runs) */
    int64_t other_runs;      /* an if's: warp-executions of the else path */
    /* Per warp: lanes_on / (32 x runs); < 0 when the warp never runs it. */
    double warp_efficiency[LANES_MAX_THREADS / LANES_WARP];
    /* Loops, summed over the warps' instances: the iterations every active
     * lane runs (min trips) and those only some run (max - min). */
    int64_t iterations_uniform, iterations_divergent;
    /* The same per warp of the block (loops). */
    int64_t warp_uniform[LANES_MAX_THREADS / LANES_WARP];
    int64_t warp_divergent[LANES_MAX_THREADS / LANES_WARP];
    bool exact;  /* no loop bound sampled, no guard or symbol assumed */
    long visits; /* warp requests, and loop steps / 32: the cost of counting one block */
    char why[LANES_WHY_MAX];
} diverge_counts;

/* False, with out->why, when the condition cannot be evaluated per lane. */
bool diverge_count(const branch_site *b, const int64_t block[3], const expr_env *env,
                   diverge_counts *out);

/* Which block-index dimensions the branch's condition or loops read. */
void diverge_uses_block_index(const branch_site *b, bool uses[3]);

/* The warp executions of the branch's path (a loop's body) over every
 * block of grid: diverge_count's runs summed block by block, by block
 * class where the branch reads the block index (analysis/symbolic/gridcls). env
 * binds the launch; *exact false where a count was sampled or assumed.
 * False, with why, when a block cannot be counted. */
bool diverge_grid_runs(const branch_site *b, const int64_t block[3], const expr_env *env,
                       const int64_t grid[3], int64_t *runs, bool *exact, char *why,
                       size_t why_size);
/* The same for an if's else path ([1]) beside its then path ([0]). */
bool diverge_grid_arms(const branch_site *b, const int64_t block[3], const expr_env *env,
                       const int64_t grid[3], int64_t runs[2], bool *exact, char *why,
                       size_t why_size);

const char *diverge_verdict_name(diverge_verdict v); /* "divergent", "bounds-check", ... */

#endif
