/* divcount: divergence counted the way textbooks ask, for a condition or a
 * per-thread trip count over a whole launch: warps in the grid, warps that
 * enter, warps that diverge, the SIMD efficiency of each warp of the first
 * block, and for loops the iterations every lane runs against those only
 * some run. Evaluates the expression for every thread of every block
 * (every block only when it reads blockIdx/gridDim; otherwise block 0
 * stands for all). Pure: no I/O, no globals.
 *
 * The hardware rule behind every number: a warp issues an instruction for
 * its 32 lanes at once; lanes that do not take a path sit idle while the
 * warp runs it, and a warp none of whose lanes take a path skips it. So a
 * path costs one warp execution per warp that has at least one lane on it,
 * and its SIMD efficiency is the lanes that use those executions over 32
 * per execution (nvprof's warp_execution_efficiency). */
#ifndef GPULINT_DIVCOUNT_H
#define GPULINT_DIVCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/symbolic/expr.h"
#include "util/sbuf.h"

#define DIVCOUNT_MAX_WARPS 32                 /* a block of 1024 threads */
#define DIVCOUNT_MAX_EVALS (int64_t)(1 << 26) /* threads evaluated in all */

/* Loops, per warp: the iterations all its lanes run and those only some
 * run. A textbook asks them per warp ("how many iterations have no
 * divergence?"); where warps differ, each distinct pair is a class with
 * how many warps have it and the first that does. */
#define DIVCOUNT_MAX_CLASSES 4
typedef struct divcount_class {
    int64_t uniform, divergent;
    int64_t warps;    /* warps of the grid with this pair */
    int64_t block[3]; /* the first of them: its block */
    int warp;         /* and its warp in that block */
} divcount_class;

typedef struct divcount_classes {
    divcount_class c[DIVCOUNT_MAX_CLASSES];
    int n;
    bool more; /* more distinct pairs than DIVCOUNT_MAX_CLASSES */
} divcount_classes;

/* Counts `warps` warps with this pair, the first at (block, warp). */
void divcount_class_add(divcount_classes *s, int64_t uniform, int64_t divergent, int64_t warps,
                        const int64_t block[3], int warp);
/* Every warp counted has the same pair. */
bool divcount_classes_agree(const divcount_classes *s);
/* "4 uniform, 0 divergent in each of the 8 warps", or each class with its
 * first warp when they differ; counted: the warps per class are known. */
void divcount_classes_text(sbuf *out, const divcount_classes *s, bool counted, long long warps);

/* One side of a branch (the then-path, or the else-path). */
typedef struct divcount_path {
    int64_t warps_entering; /* warps of the grid with at least one lane on it */
    int64_t lanes;          /* lanes of the grid on it */
    double simd_efficiency; /* lanes / (32 x warps_entering); 0 when none enter */
} divcount_path;

typedef struct divcount {
    bool loop; /* trips rather than a condition */
    int64_t block[3], grid[3];
    int warps_per_block;
    int64_t warps_in_grid;
    bool every_block;        /* the expression read blockIdx/gridDim: each block evaluated */
    int64_t warps_divergent; /* warps whose existing lanes disagree */
    divcount_path taken;     /* the then-path, or the loop body */
    divcount_path other;     /* the else-path (branches only) */
    /* First block, per warp: lanes that exist, lanes taking the path (loop:
     * lanes with at least one trip); -1 = the warp skips the path. */
    int first_lanes[DIVCOUNT_MAX_WARPS];
    int first_taken[DIVCOUNT_MAX_WARPS];
    /* taken / 32 (loops: sum of trips / (32 x max trips)); < 0 when skipped */
    double first_efficiency[DIVCOUNT_MAX_WARPS];
    /* Loops: per warp min and max trips summed over the grid's warps. */
    int64_t iterations_uniform;                   /* sum over warps of min(trips of its lanes) */
    int64_t iterations_divergent;                 /* sum over warps of max - min */
    int64_t lane_trips_sum;                       /* sum of every lane's trips */
    int64_t warp_trips_sum;                       /* sum over warps of max trips */
    divcount_classes per_warp;                    /* the same, warp by warp */
    int64_t first_trips[DIVCOUNT_MAX_WARPS * 32]; /* first block, per thread */
    int64_t min_trips, max_trips;
    /* Loops: the same lanes regrouped so threads of equal trip count share
     * warps (sorted by trips, 32 to a warp), for the block as given; and
     * the smallest block, a multiple of 32 up to 1024, where that reaches
     * 100% (0 = none does). */
    double regrouped_efficiency;
    int regroup_full_block;
} divcount;

/* cond: nonzero = the lane takes the then-path. trips: the number of times
 * the lane runs the loop body (negative counts as 0, as a for loop would).
 * block and grid are launch extents (>= 1 each, block at most 1024
 * threads). False with a sentence in why when an evaluation fails (an
 * unbound name, a division by zero) or the grid is too large to evaluate
 * block by block. */
bool divcount_branch(const expr *cond, const int64_t block[3], const int64_t grid[3],
                     const expr_env *env, divcount *out, char *why, size_t why_size);
bool divcount_loop(const expr *trips, const int64_t block[3], const int64_t grid[3],
                   const expr_env *env, divcount *out, char *why, size_t why_size);

#endif
