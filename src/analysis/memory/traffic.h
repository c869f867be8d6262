/* traffic: what a launch asks of each SM's L1/shared-memory unit, summed
 * over every block of the grid: the warp-wide requests and 32-byte sectors
 * of its global sites (what L1 must look up and return, hit or miss) and
 * the requests and wavefronts of its shared sites (bank analysis). These
 * are the quantities Nsight Compute counts as l1tex__t_requests/sectors and
 * shared wavefronts, and the work the L1 bound of analysis/timing/kroof divides
 * by the unit's rate. Pure: no I/O, no globals. */
#ifndef GPULINT_ANALYSIS_TRAFFIC_H
#define GPULINT_ANALYSIS_TRAFFIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/symbolic/access.h"
#include "analysis/symbolic/expr.h"

/* One site over the grid. units: sectors (global) or wavefronts (shared). */
typedef struct traffic_site_total {
    int64_t requests, units;
    int64_t lines;       /* global: the 128-byte lines of each request, summed */
    int64_t run_sectors; /* global: coalesce_request's run sectors, summed */
    int64_t wavefronts;  /* global: coalesce_request's L1 wavefronts, summed */
    /* exact: every guard and loop bound was evaluated. lower: the figures
     * are at most the real ones (a loop cut short); neither: an estimate
     * (a guard taken as true for every lane, a sampled loop bound). */
    bool exact, lower;
    /* A walk cut short and scaled to the full request count (an estimate):
     * floor_* keep what was walked, at most the real figures wherever
     * floor_is_lower (exact and lower sites have floor_* = the figures). */
    bool extrapolated, floor_is_lower;
    int64_t floor_requests, floor_units;
    /* Global sites: the most requests one warp makes, over the blocks
     * evaluated (the interior block, and the edge blocks where they
     * differ); 0 for shared sites. */
    int64_t busiest_warp_requests;
    int blocks_evaluated; /* 0: one interior block stands for every block */
    /* Global sites whose every lane in the grid is at one address (a
     * block index does not move it): the lanes' accesses, which an atomic
     * makes one after another at L2; 0 for any other site. */
    int64_t one_address_lanes;
    /* > 1: a shared load ptxas issues as one wide load for this many of
     * its loop's iterations (analysis/warp/vecmerge); the figures are the wide
     * load's. */
    int merged;
    bool uniform; /* false: sampled interior blocks differed (note) */
    char note[192];
} traffic_site_total;

/* The site over every block of grid x block, env binding the launch's
 * names. False, with why, when it cannot be evaluated. A site no lane of
 * the block reaches is 0 requests, true. */
bool traffic_site(const mem_access *a, const int64_t block[3], const expr_env *env,
                  const int64_t grid[3], traffic_site_total *out, char *why, size_t why_size);

/* Sites already summed over a grid, kept by the caller so that a report
 * asking for the same site, launch and bindings twice (its per-site totals
 * and a launch's traffic) walks the grid once. Same inputs, same answer:
 * no analysis depends on whether it was remembered. */
typedef struct traffic_memo traffic_memo;
traffic_memo *traffic_memo_new(void);
void traffic_memo_free(traffic_memo *m);
size_t traffic_memo_entries(const traffic_memo *m); /* sites walked so far */

/* traffic_site through memo (NULL: no memo). */
bool traffic_site_memo(traffic_memo *memo, const mem_access *a, const int64_t block[3],
                       const expr_env *env, const int64_t grid[3], traffic_site_total *out,
                       char *why, size_t why_size);

/* Global loads, stores and atomics: requests and sectors; shared:
 * requests and wavefronts. An atomic is its store half's request and
 * sectors (its load half names the same bytes: one ATOM/RED). */
enum { TRAFFIC_LOAD, TRAFFIC_STORE, TRAFFIC_SHARED, TRAFFIC_ATOMIC, TRAFFIC_KINDS };

#define TRAFFIC_MAX_PIECES 64 /* cusrc's record_piece: at most 64 pieces */

typedef struct traffic {
    /* Over every site evaluated. */
    int64_t requests[TRAFFIC_KINDS], units[TRAFFIC_KINDS];
    int64_t lines[TRAFFIC_KINDS];       /* global sites: 128-byte lines */
    int64_t run_sectors[TRAFFIC_KINDS]; /* and their run sectors */
    int64_t wavefronts[TRAFFIC_KINDS];  /* and their L1 wavefronts */
    /* Global: the sites' busiest_warp_requests summed, the busiest warp's
     * requests where one warp is the busiest at every site (a loop nest's
     * longest thread), more where the busiest warps differ. */
    int64_t busiest_requests[TRAFFIC_KINDS];
    /* Store sectors written in part and alone in their 128-byte line
     * within the request, at least: a request's 32 lanes of `width` bytes
     * fill at most `width` whole sectors, and none where the lanes step
     * more than `width` bytes (every sector then has a gap). L2 merges
     * such a sector more slowly than it takes a whole one. */
    int64_t partial_store_units;
    /* The other store sectors written in part: beside another sector of
     * their line that the request writes. L2 takes them faster than one
     * alone in its line and more slowly than a whole one. */
    int64_t shared_partial_store_units;
    /* Store sectors of structs stored in k pieces (mem_access.pieces), by
     * k: L1 merges some of a warp's back-to-back partial sectors before L2
     * (the model's l1_store_merge says how many). */
    int64_t piece_store_units[TRAFFIC_MAX_PIECES + 1];
    /* Global atomics at one address for the whole grid, as L2 gets them:
     * a warp's one where ptxas sums its lanes first (mem_access.atomic_sums
     * and an address it sees is the same in every lane), else each lane's. */
    int64_t one_address_atomics;
    int64_t one_address_float_atomics; /* of those, float and double ones */
    /* The same over the sites whose figures are exact or lower bounds:
     * what a time bound may use. */
    int64_t certain_requests[TRAFFIC_KINDS], certain_units[TRAFFIC_KINDS];
    int n_sites, n_left_out, n_estimated;
    int n_lower; /* sites whose figures are lower bounds (loops cut short) */
    /* NULL: every site exact. Else the first site left out or estimated,
     * and why. */
    char *why;
} traffic;

/* Sums the global and shared sites among sites[0..n); memo may be NULL. */
void traffic_compute(const mem_access *const *sites, size_t n, const int64_t grid[3],
                     const int64_t block[3], const expr_env *env, traffic_memo *memo, traffic *out);
void traffic_free(traffic *t);

#endif
