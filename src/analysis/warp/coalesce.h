/* coalesce: global-memory coalescing. For one warp's load or store, the
 * 32-byte sectors it touches against the fewest that could carry the same
 * bytes, and the efficiency (bytes asked for / bytes moved); for an access
 * site, the worst and average over every warp of the block and every loop
 * iteration. Pure: no I/O, no globals. */
#ifndef GPULINT_COALESCE_H
#define GPULINT_COALESCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/symbolic/access.h"
#include "analysis/symbolic/expr.h"
#include "analysis/symbolic/lanes.h"

#define COALESCE_SECTOR 32

typedef struct coalesce_request {
    int sectors; /* distinct 32-byte sectors */
    int ideal;   /* ceil(bytes / 32): the same bytes, contiguous and aligned */
    int lines;   /* distinct 128-byte lines */
    /* The sectors of the request's contiguous runs, a run of fewer than
     * four counted as four: what its lines take, with a line a run crosses
     * by alignment alone counted as filled. */
    int run_sectors;
    /* the L1's cycles for it as a load: its lines four a clock, or the
     * most lines whose words share one of the 32 banks */
    int wavefronts;
    int64_t bytes; /* distinct addresses of the active lanes * width */
} coalesce_request;

/* addr[l] is lane l's byte offset from the (aligned) base, read only for
 * lanes in `active`. width is 1, 2, 4, 8 or 16. False, with why, on a bad
 * width or a misaligned address. */
bool coalesce_request_eval(const int64_t addr[LANES_WARP], uint32_t active, int width,
                           coalesce_request *out, char *why, size_t why_size);

typedef struct coalesce_result {
    bool analyzed;
    bool unreached;             /* not analyzed because no lane of this block reaches it */
    char reason[LANES_WHY_MAX]; /* when !analyzed */
    int width;
    int worst_sectors;       /* sectors of the worst request */
    int worst_ideal;         /* ideal sectors of that request */
    double average_sectors;  /* over warps x iterations */
    int ideal_sectors;       /* for a full warp: 32 * width / 32 */
    double efficiency;       /* all bytes requested / (all sectors * 32) */
    double worst_efficiency; /* of the worst request */
    long requests;
    long busiest_requests;     /* of the block's busiest warp */
    int64_t total_sectors;     /* summed over the requests: what L1 serves */
    int64_t total_lines;       /* the same in 128-byte lines */
    int64_t total_run_sectors; /* the same in run sectors (coalesce_request) */
    int64_t total_wavefronts;  /* the same in L1 wavefronts */
    int64_t lane_ops;          /* active lanes summed over the requests */
    /* Every request's active lanes at one address, the same in all the
     * block's requests (`atomicAdd(sum, x)`): L2 takes them one by one. */
    bool one_address;
    int warps;
    int worst_warp;
    long worst_iteration;
    uint32_t worst_active;
    int64_t worst_addr[LANES_WARP];
    bool assumed; /* see note; the alignment assumption is always in it */
    bool capped;
    bool guard_assumed; /* a guard was not evaluated: every lane taken as active */
    bool bound_sampled; /* a loop bound was unknown and sampled */
    char note[LANES_NOTE_MAX];
} coalesce_result;

/* Evaluates a->byte_offset in every lane of every warp of the block, through
 * the loops around the access. env holds known constants. */
bool coalesce_analyze(const mem_access *a, const int64_t block[3], const expr_env *env,
                      coalesce_result *out);
/* The same in the block env binds (the grid's interior block); where no
 * lane of it reaches the access (a triangle's guard keeps block 1's rows
 * out), in the grid's middle block, then its last (grid NULL: not known). */
bool coalesce_analyze_reached(const mem_access *a, const int64_t block[3], const int64_t grid[3],
                              const expr_env *env, coalesce_result *out);

#endif
