/* launchplan: block shapes for a problem of W x H x D independent elements
 * (one thread each, row-major, x along a row), compared as a launch would
 * run them: the grid that covers the problem, the threads left idle by
 * rounding up, occupancy on the target SM, waves over the GPU's SMs and
 * the fill of the last one, and whether a warp's row-major accesses use
 * every byte of the 32-byte sectors they fetch. Pure: no I/O, no globals. */
#ifndef GPULINT_LAUNCHPLAN_H
#define GPULINT_LAUNCHPLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/occupancy/occ.h"

typedef struct launchplan_problem {
    int64_t extent[3]; /* W, H, D >= 1 */
    int elem_size;     /* bytes per element accessed, for the sectors */
    occ_kernel kernel; /* registers and static shared memory (0 = not given) */
    int sm_count;      /* 0 = unknown: no waves */
} launchplan_problem;

typedef struct launchplan_candidate {
    int64_t block[3];
    int64_t grid[3];
    int64_t blocks; /* in the grid */
    int64_t threads;
    int64_t idle_threads;
    double idle_fraction; /* idle / threads */
    bool launches;        /* occupancy > 0 */
    occ_result occ;
    double waves;     /* blocks / (blocks_per_sm x SMs); < 0 when unknown */
    int full_waves;   /* ceil(waves) */
    double tail_fill; /* the last wave's share of the GPU's block slots */
    double sectors;   /* 32-byte sectors per warp request (first block, mean) */
    double ideal_sectors;
    bool coalesced;    /* every warp of the first block: sectors == ideal */
    int rows_per_warp; /* rows a warp's lanes span */
} launchplan_candidate;

/* False (with why) when the block is empty or larger than the arch allows. */
bool launchplan_evaluate(const gpu_arch *arch, const launchplan_problem *p, const int64_t block[3],
                         launchplan_candidate *out, char *why, size_t why_size);

/* Lexicographic preference: launches, coalesced, occupancy (to 1%), fewer
 * rows per warp, fewer idle threads, fuller waves, wider blocks. > 0 when a
 * is better. */
int launchplan_compare(const launchplan_candidate *a, const launchplan_candidate *b);

/* The best shape over every block of a multiple of 32 threads up to the
 * arch's limit, with x a power of two (rows stay aligned) and no extent
 * larger than the problem's rounded up to a warp. */
bool launchplan_search(const gpu_arch *arch, const launchplan_problem *p,
                       launchplan_candidate *best);

#endif
