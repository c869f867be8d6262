/* lanes: evaluates an expression for every lane of every warp of a thread
 * block, following the loops around it in SIMT lockstep, and hands each
 * warp-wide request (one warp, one loop iteration) to a callback. The bank,
 * coalescing and divergence models are all "look at the 32 lanes of one
 * request"; this is the part they share. Each tree is walked once for the
 * 32 lanes (expr_eval_lanes), and an innermost loop whose value is affine
 * in its counter is stepped by addition: the same requests, found without
 * evaluating the trees each iteration. For counts that repeat every 128
 * bytes (bank, coalescing), requests that repeat are visited once with
 * their number (lanes_visit.repeat). Pure: no I/O, no globals. */
#ifndef GPULINT_LANES_H
#define GPULINT_LANES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/symbolic/access.h"
#include "analysis/symbolic/expr.h"

#define LANES_WARP 32
#define LANES_MAX_THREADS 1024      /* the per-block limit of every CUDA GPU since Fermi */
#define LANES_MAX_ITER 4096         /* iterations followed per loop instance */
#define LANES_UNKNOWN_BOUND_ITER 64 /* iterations followed when a loop bound is unknown */
#define LANES_MAX_VISITS_PER_WARP 16384
#define LANES_METRICS 6
#define LANES_MAX_ASSUMED 8
#define LANES_WHY_MAX 256
#define LANES_NOTE_MAX 768

/* One warp-wide request: the value of the expression in each lane that
 * takes part. Lanes outside `active` hold 0. */
typedef struct lanes_visit {
    int warp;        /* warp index within the block (consecutive linear thread ids) */
    long iteration;  /* how many requests this warp made before this one */
    uint32_t active; /* lanes that exist, are inside every loop, and pass the guard */
    int64_t value[LANES_WARP];
    int64_t tid[LANES_WARP][3]; /* threadIdx of each lane */
    bool probe; /* a re-run with an unknown bound to a test value: check only, record nothing */
    /* The requests this one stands for (1 unless the job sets
     * counts_mod_128): this one and the next repeat - 1 its lanes make
     * with every lane moved alike by multiples of 128 bytes. */
    long repeat;
} lanes_visit;

/* Fills m[0..LANES_METRICS) with the request's numbers (wavefronts,
 * sectors...). Returns false, with a sentence in why, to stop the run. */
typedef bool (*lanes_fn)(const lanes_visit *v, int64_t m[LANES_METRICS], char *why, size_t why_size,
                         void *ctx);

typedef struct lanes_job {
    const char *what;  /* "index", "condition": used in reasons */
    const expr *value; /* evaluated per lane; ignored with last_loop_trips */
    const expr *guard; /* NULL = every lane */
    const loop_ctx *loops;
    int n_loops;
    /* Instead of one visit per iteration of the innermost loop, run that
     * loop to completion and visit once per instance with each lane's trip
     * count as its value (active = the lanes that reached the loop). */
    bool last_loop_trips;
    /* With last_loop_trips: a trip count found in closed form is taken in
     * full rather than stopped at LANES_MAX_ITER (nothing is walked, so the
     * cap's cost does not arise); with counts_mod_128 too, so is a loop
     * around it nothing inside reads the counter of (its requests are
     * replayed once for the whole run, not walked). */
    bool uncapped_trips;
    /* fn's numbers for a request do not change when every lane moves by
     * the same multiple of 128 bytes, and fn counts a visit v->repeat
     * times (the bank and coalescing counts): an affine innermost loop
     * whose lanes move alike then visits one period of its requests,
     * each standing for the iterations 128 bytes apart. */
    bool counts_mod_128;
    int64_t block[3];
    const expr_env *env; /* constants; may be NULL */
    lanes_fn fn;
    void *ctx;
} lanes_job;

typedef struct lanes_result {
    bool ok;
    char why[LANES_WHY_MAX]; /* when !ok */
    int warps;
    long visits;
    /* Loop steps evaluated one by one (a trip count in closed form is
     * one): with visits, the work the run took. */
    int64_t steps;
    int64_t worst[LANES_METRICS]; /* maximum of each metric over the visits */
    int64_t sum[LANES_METRICS];
    /* The block's busiest warp: the most requests one warp made, and the
     * most of each metric one warp's requests sum to (a warp's time, where
     * its requests follow one another). */
    long busiest_requests;
    int64_t busiest_sum[LANES_METRICS];
    /* Unknown symbols taken as 0 because they provably shift every lane of a
     * warp alike: re-running with other values gave the same numbers. */
    int n_assumed;
    char assumed[LANES_MAX_ASSUMED][64];
    bool loop_capped;          /* a loop ran past LANES_MAX_ITER or the visit cap */
    bool bound_sampled;        /* a loop bound was unknown: LANES_UNKNOWN_BOUND_ITER iterations */
    bool guard_assumed;        /* the guard could not be evaluated: lanes taken as active */
    char note[LANES_NOTE_MAX]; /* the above in words, "" when nothing was assumed */
} lanes_result;

/* Runs the job. Returns res->ok. */
bool lanes_run(const lanes_job *job, lanes_result *res);

/* Walks a memory access's byte offset (with its guard and loops) over the
 * block, calling fn per warp request; fn's counts must repeat every 128
 * bytes and count a visit v->repeat times (counts_mod_128). False with a reason in why when the
 * access cannot be walked, fails, or no lane reaches it. */
bool lanes_run_access(const mem_access *a, const int64_t block[3], const expr_env *env, lanes_fn fn,
                      void *ctx, lanes_result *res, char *why, size_t why_size);

/* threadIdx of a linear thread id in a block (x fastest, as CUDA numbers them). */
void lanes_thread_index(const int64_t block[3], int64_t linear, int64_t tid[3]);

/* Sorts a request's lane values (addresses, words) ascending. Insertion
 * sort: a request has at most 128 of them, usually already in lane order,
 * where this is linear and avoids qsort's buffer and indirect calls. */
void lanes_sort(int64_t *v, int n);
/* Whether every lane of active moved by the same multiple of unit bytes
 * from prev to cur: a request so moved by 128 bytes touches as many
 * sectors, lines and banks as before (the bank and coalescing callbacks
 * then reuse the last request's counts). */
bool lanes_moved_by(const int64_t prev[LANES_WARP], const int64_t cur[LANES_WARP], uint32_t active,
                    int64_t unit);

/* True when e can differ between the lanes of a warp: it reads threadIdx,
 * or a loop counter whose start, step or bound reads it (directly or
 * through another such counter). */
bool lanes_expr_per_lane(const expr *e, const loop_ctx *loops, int n_loops);

#endif
