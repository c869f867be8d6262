/* kroof: FLOPs and DRAM bytes of a kernel launch, from the front end's
 * per-thread counts (or a `// gpulint: flops=… bytes=…` annotation) times
 * the launch's threads, summed thread by thread where a count depends on
 * the thread, and the roofline bound they give on a product. Symbolic where
 * values are unknown; `--define NAME=VALUE` binds names. Pure: plain counts
 * in (the report layer hands over the front end's), totals out. */
#ifndef GPULINT_KROOF_H
#define GPULINT_KROOF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/symbolic/access.h"
#include "analysis/symbolic/expr.h"
#include "analysis/memory/l2share.h"
#include "analysis/timing/icount.h"
#include "analysis/timing/loadlat.h"
#include "analysis/memory/traffic.h"
#include "model/model.h"

typedef struct kroof {
    const char *kernel; /* variant name */
    const char *file;
    int line;       /* launch site, or the kernel when there is none */
    bool annotated; /* counts came from a gpulint: comment */
    /* The kernel branches: every arm was counted, so the counts are upper
     * bounds (a reduction's guarded adds count in every iteration). */
    bool upper_bound;
    /* A loop is counted at the most passes it makes (a binary search's,
     * one more than its least): the counts are upper values. */
    bool trips_at_most;
    /* The conditions of arms counted for every thread because they could
     * not be evaluated (a bounds check `i < n` with n unknown), joined by
     * &&; NULL when none. Where upper_bound is false the counts are still
     * upper values: the estimate takes every such check as passing. */
    expr *assumed;
    /* Totals for the launch (or per thread when there is no launch). */
    bool per_thread;
    expr *flops[4];       /* fp16, fp32, fp64, tensor */
    expr *transcendental; /* calls, reported apart from the flops */
    expr *bytes;          /* global bytes requested (loads + stores) */
    expr *store_bytes;    /* of bytes, the stores' */
    expr *accesses;       /* global loads and stores issued by all threads; NULL when annotated */
    bool known;           /* every count evaluated */
    double flops_value[4], transcendental_value, bytes_value, accesses_value;
    bool store_bytes_known;
    double store_bytes_value;
    /* The FLOPs every run does, at least: the arms whose condition cannot
     * be evaluated count for no thread (flops counts them for every one).
     * Equal to flops where no such arm does floating-point work. */
    expr *flops_lower[4];
    bool flops_lower_known;
    double flops_lower_value[4];
    /* The launch's threads, when known: the totals over them are the
     * per-thread counts a book asks for (exact averages when threads
     * differ, e.g. a bounds check's idle last block still counted). */
    bool threads_known, accesses_known;
    double threads_value;
    char *unbound; /* first name without a value, when !known */
    /* The bytes the launch must move to or from DRAM (analysis/memory/footprint):
     * every byte read once (a cold L2) and what is written past the L2's
     * capacity. compulsory_why NULL: exact; else a lower bound, and why. */
    bool has_compulsory;
    double compulsory_read, compulsory_write;
    double compulsory_read_sectors; /* 32-byte sectors DRAM reads, at least */
    char *compulsory_why;
    /* What the predicted time takes DRAM to move: the compulsory bytes,
     * or where they are a lower bound (sites under a condition on data
     * left out) the estimate's footprint, which counts those sites too,
     * where that is more. */
    double time_read_sectors, time_write;
    /* No global site's footprint could be followed (every one an index
     * the analysis cannot place): the estimate takes the bytes the
     * threads request, each moved once (docs/roofline.md, "Counts as
     * intervals"). */
    bool estimate_from_requested;
    char *why_no_compulsory; /* when !has_compulsory */
    /* What the launch asks of L1 and shared memory (analysis/memory/traffic), over
     * the grid; traffic_why NULL: every site exact, else the first that is
     * not (estimates) or was left out (then the sums miss it). */
    bool has_traffic;
    int64_t requests[TRAFFIC_KINDS], units[TRAFFIC_KINDS], lines[TRAFFIC_KINDS];
    int64_t run_sectors[TRAFFIC_KINDS];
    int64_t wavefronts[TRAFFIC_KINDS];
    int64_t busiest_requests[TRAFFIC_KINDS]; /* traffic.busiest_requests */
    bool traffic_estimated;                  /* some site is an estimate; else at least the sums */
    char *traffic_why;
    /* What reaches L2, an estimate (docs/roofline.md, "The L2 traffic of a
     * launch"): every store sector (L1 writes through), and the load sectors
     * each block covers, once per block (and again where a later loop
     * reads what L1 has let go), between the compulsory DRAM sectors and
     * the load sectors L1 is asked for. */
    bool has_l2;
    double l2_read_sectors, l2_write_sectors;
    double l2_partial_write_sectors;        /* of those, written in part alone in their line */
    double l2_shared_partial_write_sectors; /* in part, beside others (traffic.h) */
    double l2_reread_sectors;               /* of the reads, loops' re-reads L1 let go */
    /* A site's addresses could not be followed: the reads place it as the
     * DRAM estimate does (kroof_input.block_cover_sectors), and the DRAM
     * estimate does not use them. */
    bool l2_reads_unfollowed;
    char *l2_reread_why;
    /* The phases of the global loads (analysis/timing/loadlat), owned; lat.ok
     * false: not placed, and lat.why says why (empty: not computed). */
    loadlat lat;
    /* The warp executions the compiled code's instruction count is tied to
     * (analysis/timing/icount): each access site's requests and each loop's
     * iterations over the grid; owned, the paths borrowed from the unit. */
    icount_site *issue_sites;
    size_t n_issue_sites;
    /* With a product: */
    bool has_bound;
    /* Not every count known (!known), yet those that are bound the time:
     * min_time and its parts are set, nothing else of the bound. */
    bool floor_only;
    /* l1_time: the load sectors that are certain at the L1 data stage's
     * rate (one 128-byte wavefront per SM per clock), at least; a part of
     * min_time. */
    double l1_time;
    /* The least time any launch on the product took (its launch_floor_ns:
     * an empty kernel, the shortest measured): a part of min_time, 0 where
     * the product has none. */
    double launch_time;
    int64_t certain_requests[TRAFFIC_KINDS], certain_units[TRAFFIC_KINDS];
    int64_t one_address_atomics, one_address_float_atomics; /* traffic's */
    /* What reaches DRAM during the launch, an estimate (docs/roofline.md,
     * "DRAM bytes"): the footprint's reads in DRAM's 64-byte blocks, the
     * L2 estimate's re-reads that miss once the reads outgrow the L2, and
     * the sectors it dirties past what the L2 still holds at the end of a
     * launch (the product's l2_write_retained_bytes). With a product and a
     * footprint only. */
    bool has_dram_estimate;
    double dram_estimate_read, dram_estimate_write;
    double dram_estimate_rereads; /* of dram_estimate_read */
    /* Of dram_estimate_read, and written back: sectors stored in part that
     * L2 fills from DRAM (kroof's partial_fill). */
    double dram_estimate_partial_fill;
    double halo_l2_sectors; /* of the L2 re-reads, halos neighbouring blocks share */
    /* The panels blocks share (analysis/memory/l2share), left for the launch's
     * occupancy to count: their arrays, and the estimate's read with the
     * rest of the re-reads alone (dram_estimate_read counts theirs by the
     * 1 - L2 / footprint rule until then). */
    size_t n_share;
    l2share_array *share;
    char **share_names;
    double share_read_without, share_rereads_without;
    bool dram_estimate_low;      /* sites were missed: compulsory_why says which */
    char *dram_estimate_covered; /* sites counted by their boxes, which */
    char *dram_estimate_why;     /* when low: the first site missing */
    /* memory_time: the compulsory DRAM bytes at the peak bandwidth; ai:
     * FLOPs per compulsory byte (NAN without them). */
    double compute_time, memory_time, min_time, ai, attainable;
    /* The lower FLOPs at each precision's peak: the floor's compute term
     * (0 where they are not known). */
    double compute_time_lower;
    bool memory_bound;
    bool l1_bound; /* l1_time is the largest part of min_time */
    char *why_no_bound;
    bool no_product; /* why_no_bound: there is no product to bound on */
    /* The counts may miss code: never an upper or a lower bound, no time
     * bound from them. */
    char *incomplete;
    bool also_over; /* incomplete, and arms were counted for every thread too */
    /* A call whose instructions depend on its argument, counted at the
     * least measured (kroof_input.flops_estimate); NULL: none. */
    char *flops_estimate;
} kroof;

typedef struct kroof_defines {
    int n;
    const char *names[EXPR_MAX_BINDINGS];
    int64_t values[EXPR_MAX_BINDINGS];
} kroof_defines;

/* Adds d's bindings (may be NULL) to env. */
void kroof_defines_bind(const kroof_defines *d, expr_env *env);

/* Whether counting a branch's every arm is exact: a bounds check or a
 * condition the same for the whole block is (a bounds check's arm counted
 * for every launched thread where its bound is not known); any other is
 * not, unless the arm is an if's or a ?:'s whose condition the launch lets
 * gpulint evaluate thread by thread. */
typedef struct kroof_branches {
    bool ifs_uniform;    /* every if, ?: (and early exit) with work */
    bool others_uniform; /* every switch with work */
} kroof_branches;

/* A thread's counts as the front end made them; NULL = 0. An arm's work
 * is weighted by a symbol arm_names[n], 1 where arm_conds[n] holds. */
typedef struct kroof_counts {
    const expr *flops[4]; /* fp16, fp32, fp64, tensor */
    const expr *load_bytes, *store_bytes;
    const expr *transcendental_fp32, *transcendental_fp64;
    const expr *accesses; /* global loads and stores */
    int n_arms;
    int n_unweighted_arms; /* arms counted for every thread */
    int n_trips_at_most;   /* loops counted at their most passes (cusrc_bisect) */
    char *const *arm_names;
    expr *const *arm_conds;
} kroof_counts;

typedef struct kroof_input {
    const char *kernel; /* variant name */
    const char *file;
    int line; /* launch site, or the kernel when there is none */
    kroof_counts counts;
    /* A gpulint: comment's whole-kernel counts (both or neither). */
    const expr *annotated_flops, *annotated_bytes;
    bool has_launch;     /* false: counts stay per thread */
    const expr *threads; /* the launch's threads (unknown factors symbolic) */
    bool dims_known;     /* grid and block are constant: */
    int64_t grid[3], block[3];
    /* Why the counts may miss code (the front end could not read all of
     * the kernel); NULL = they cover it. */
    const char *incomplete;
    /* A math call whose compiled instructions depend on its argument: the
     * FLOPs count it at the least measured (cusrc_counts.flops_estimate). */
    const char *flops_estimate;
    /* Shared-memory traffic the sites do not hold (a CUB collective's
     * TempStorage): the shared wavefronts are then a lower count. */
    const char *shared_missing;
    /* The launch's footprint (analysis/memory/footprint), when its size is known;
     * footprint_why NULL: every site followed. */
    bool has_footprint;
    int64_t footprint_read, footprint_write, footprint_read_sectors;
    /* The DRAM estimate's footprint: the one above, or where sites were
     * left out one that counts them by their boxes (footprint_cover);
     * estimate_covered then names them, and estimate_missed says whether a
     * site is still missing. */
    int64_t estimate_read, estimate_read_sectors, estimate_read_blocks64, estimate_write_sectors;
    int64_t estimate_write; /* bytes */
    /* The estimate's sectors stored in part and not read, and their lines. */
    int64_t estimate_partial_write_sectors, estimate_partial_write_lines;
    const char *estimate_covered;
    bool estimate_missed;
    const char *estimate_why;              /* when estimate_missed: the first site missing */
    int estimate_sites, estimate_left_out; /* the estimate footprint's global sites, and left out */
    const char *footprint_why;
    const char *why_no_footprint;
    /* The launch's L1 traffic (analysis/memory/traffic), when its size is known;
     * NULL: not known. */
    const traffic *traffic;
    /* The sectors one interior block's loads cover (analysis/memory/footprint over
     * that block alone), when has_block_footprint. */
    bool has_block_footprint;
    int64_t block_read_sectors;
    /* Where it is not, the same block with each site the footprint cannot
     * follow placed as the DRAM estimate places it (a gather's index taken
     * to step one element from lane to lane): for the L2 estimate only. */
    bool has_block_cover;
    int64_t block_cover_sectors;
    /* Of what later loops of that block read again, the sectors L1 has let
     * go since (analysis/memory/l1reuse); block_reread_why says where. */
    int64_t block_reread_sectors;
    const char *block_reread_why;
    /* Per grid dimension, the sectors an interior block and its next
     * neighbour along it both read (a stencil's halo): footprint of the two
     * blocks together against each alone; 0 where none or not followed. */
    int64_t halo_sectors[3];
    /* Arrays whose blocks read the same panels (analysis/memory/l2share): one
     * interior block's and the grid's bytes of each, and the sectors their
     * blocks read from L2 past their footprint. */
    size_t n_share;
    const l2share_array *share;
    const char *const *share_names;
    int64_t share_l2_rereads;
    /* Every loop the kernel's sites saw, for trip counts by line (the first
     * listed for a line is used). */
    const loop_ctx *const *loops;
    size_t n_loops;
} kroof_input;

/* product may be NULL. Counts that branches make more than runs are upper
 * bounds, and no time bound is claimed from them. */
void kroof_compute(const kroof_input *in, const kroof_defines *defs, const gpu_product *product,
                   kroof_branches branches, kroof *out);
void kroof_free(kroof *k);
double kroof_total_flops(const kroof *k); /* every precision, tensor included */

#endif
