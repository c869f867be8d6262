/* ktime: a launch's predicted run time, from what the other analyses
 * count (FLOPs, DRAM bytes, L1 traffic, occupancy) and constants measured
 * on the hardware (models' [timing]: scripts/timeprobe), never fitted to
 * the kernels it is judged on. The model is docs/roofline.md's "Predicted
 * time": the launch's fixed cost plus the longest of: the units it keeps
 * busy (DRAM, L1, each precision's pipes, the schedulers' issue; per SM,
 * the busiest SM's share of the blocks; L2 where the product's L2 was
 * measured) joined as a Euclidean norm, handing short blocks out (a
 * closed queue), and the latency its warps cannot hide (the phases of a
 * warp's loads, waves of warps; their dependent chains).
 * Pure: no I/O, no globals. */
#ifndef GPULINT_ANALYSIS_KTIME_H
#define GPULINT_ANALYSIS_KTIME_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/memory/traffic.h"
#include "analysis/timing/pipes.h"
#include "model/model.h"

enum {
    KTIME_LAUNCH,
    KTIME_DRAM,
    KTIME_L2,
    KTIME_L1,
    KTIME_FP16,
    KTIME_FP32,
    KTIME_FP64,
    KTIME_TENSOR,
    KTIME_ISSUE,
    KTIME_DISPATCH,
    KTIME_LATENCY,
    KTIME_CHAIN,
    KTIME_ATOMIC, /* atomics at one address, one after another at L2 */
    KTIME_PARTS
};

/* A global load as analysis/timing/loadlat places it: its phase (loads of one
 * phase are in flight together), its warp requests over the grid, the
 * share of them that fetch past L1 and, of the blocks' fetches, the share
 * that are the grid's first touch of a sector. */
typedef struct ktime_load {
    int phase;
    double requests, new_share, first_share;
    /* loadlat's lockstep iterations (0: the warps run apart) and the share
     * of them that read what another warp stored (from L2). */
    double lockstep, restored_share;
    /* the share of its block's bytes an earlier statement touched: from L2
     * at worst, never from DRAM */
    double seen_share;
    double together; /* iterations whose loads are in flight together (0, 1: one at a time) */
    /* The most requests one warp makes (0: not known): a launch lasts at
     * least as long as that warp waits, whatever the mean. */
    double busiest;
    /* 128-byte lines over the grid (0: not known): L1 returns one a clock,
     * so a request waits behind the same request of the SM's other warps. */
    double lines;
} ktime_load;

/* One launch's totals. */
typedef struct ktime_counts {
    double flops[4]; /* fp16, fp32, fp64, tensor */
    double dram_bytes;
    double dram_read_sectors; /* 32-byte sectors DRAM must read */
    /* Local memory's DRAM bytes (analysis/memory/localmem): whole lines,
     * a warp's lanes interleaved, whatever the global accesses' fill. */
    double local_dram_bytes;
    bool has_traffic;
    double requests[TRAFFIC_KINDS], units[TRAFFIC_KINDS];
    double busiest_loads;        /* the busiest warp's global load requests; 0: not known */
    double lines[TRAFFIC_KINDS]; /* global: 128-byte lines; 0 = not known */
    /* global: the sectors of each request's contiguous runs, a run shorter
     * than a line counted as a line (analysis/warp/coalesce); 0 = not known */
    double run_sectors[TRAFFIC_KINDS];
    /* global: the L1's wavefronts (coalesce_request.wavefronts); 0 = not
     * known (a model saved before stop 102: the lines are taken) */
    double wavefronts[TRAFFIC_KINDS];
    bool has_l2;                              /* kroof's L2 estimate: */
    double l2_read_sectors, l2_write_sectors; /* sectors L2 serves and absorbs */
    double l2_partial_write_sectors;          /* of those written, in part alone in a line */
    double l2_shared_partial_write_sectors;   /* in part, beside others of their line */
    /* Atomics L2 makes one after another at one address (traffic's
     * one_address_atomics); 0: none. */
    double one_address_atomics;
    double one_address_float_atomics; /* of those, float and double ones */
    int64_t blocks;
    int threads_per_block;
    int blocks_per_sm; /* occupancy */
    /* The loads in phase order (a phase's loads next to one another);
     * n_loads 0: not known, and the latency term takes every load request
     * of a warp one after another. */
    const ktime_load *loads;
    size_t n_loads;
    /* Warp instructions over the launch in the blocks of the code the
     * source's counts placed (analysis/timing/icount); 0: not known, and there is
     * no issue term. */
    double warp_insts;
    /* SM clocks the warps take to issue those blocks, each alone, waiting
     * on their instructions' latencies (analysis/timing/depchain), summed
     * over the warps; 0: not known, and there is no chain term. */
    double chain_cycles;
    /* Of the warp instructions, those on each pipe slower than issue
     * (analysis/timing/pipes); all 0: not known, issued one a clock. */
    double pipe_insts[PIPES_N];
} ktime_counts;

typedef struct ktime_consts {
    int sms;
    double clock_hz;
    double flops_per_clock_per_sm[4]; /* fp16, fp32, fp64, tensor; 0: none */
    double launch_s, dram_latency_s, dram_bandwidth, l1_latency_cycles;
    double block_dispatch_s; /* each further block an SM is handed; 0: not measured */
    /* The least time between two blocks an SM starts, and an empty block's
     * life at one an SM; 0: not measured, and no dispatch term. */
    double block_interval_s, block_serial_s;
    /* a loop step that only waits at __syncthreads: alone, and each
     * resident warp's share when many are (SM clocks; 0: not measured) */
    double barrier_cycles, barrier_warp_cycles;
    bool has_l2; /* the product's [timing] has the three L2 constants */
    double l2_latency_s, l2_read_bandwidth, l2_write_bandwidth;
    double l2_partial_write_bandwidth;        /* 0: not measured, partial writes as whole */
    double l2_shared_partial_write_bandwidth; /* 0: not measured, taken as whole */
    double same_address_atomic_rate;          /* a second; 0: not measured, no atomic term */
    double same_address_float_atomic_rate;    /* float and double adds; 0: the above */
    double issue_per_clock_per_sm;            /* warp instructions an SM issues a clock, at most */
    double pipe_clocks[PIPES_N];              /* a scheduler's clocks a warp instruction; 0: one */
} ktime_consts;

typedef struct ktime {
    bool ok;
    char why[160];            /* when !ok */
    double part[KTIME_PARTS]; /* seconds; 0 where it does not apply */
    double predicted;         /* launch + the parts joined (ktime.c: combined) */
    int limiter;              /* the largest part after the launch */
    double waves;             /* blocks over what the SMs hold at once */
    double wave_wait;         /* a mean warp's wait on its loads in one wave, s */
} ktime;

/* The constants of product at the SM clock given (Hz); false, with why,
 * when the product has no measured [timing]. */
bool ktime_consts_of(const gpu_product *product, double clock_hz, ktime_consts *out, char *why,
                     size_t why_size);
void ktime_predict(const ktime_counts *c, const ktime_consts *k, ktime *out);
const char *ktime_part_name(int part); /* "dram", "l1", "fp32", "latency", ... */

#endif
