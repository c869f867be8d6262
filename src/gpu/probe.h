/* probe: the ways `gpulint verify` measures a kernel on the GPU without a
 * profiler. Each launches a loaded kernel and returns raw numbers; what
 * they mean is verify's business (verify/judge), and so are the buffers'
 * contents: the probes see device pointers only.
 *   residency   per-block (SM, start, end) records
 *   cycles      clock64 per warp of a one-block probe -> slowest warp per run
 *   times       event-timed launches (warm-up first) -> one time per run
 *   lanes       lane counters -> active lanes and executions per line */
#ifndef GPULINT_PROBE_H
#define GPULINT_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/gpurt.h"

typedef struct probe_launch {
    int grid[3], block[3];
    int64_t dynamic_smem;
} probe_launch;

/* A device copy made before each timed launch (an in-place kernel's input
 * put back). */
typedef struct probe_copy {
    void *dst;
    const void *src;
    size_t bytes;
} probe_copy;

typedef struct probe_residency {
    uint64_t *records; /* (smid, start, end) per block of the grid; free() */
    /* cudaOccupancyMaxActiveBlocksPerMultiprocessor, or for a cluster
     * launch cudaOccupancyMaxActiveClusters */
    int api;
    int grid;      /* blocks launched */
    int registers; /* cudaFuncGetAttributes */
    int64_t static_smem;
} probe_residency;

typedef struct probe_residency_spec {
    int block;
    int64_t dynamic_smem;
    int carveout;  /* -1: leave the default */
    int predicted; /* blocks per SM, or for a cluster launch clusters on the GPU */
    int sms;
    uint64_t spin_ns;
    int cluster;      /* > 0: a launch in 1-D clusters of this many blocks */
    bool nonportable; /* cudaFuncAttributeNonPortableClusterSizeAllowed */
} probe_residency_spec;

/* Sets the dynamic-shared-memory opt-in (above 48 KB) and the carveout,
 * asks the occupancy API, then launches enough blocks to fill every SM
 * twice over at one more block than the larger of `predicted` and the
 * API's answer (for clusters: twice one more cluster than the larger). */
bool probe_residency_run(gpurt_kernel k, const probe_residency_spec *s, probe_residency *out,
                         char *err, size_t errlen);

/* `repeat` launches (after one untimed when `warmup`) of a one-block probe
 * whose warps each write their clock64 span to cycles[warp]; slowest[r] is
 * the slowest warp's span in launch r. */
bool probe_cycles_run(gpurt_kernel k, const probe_launch *l, int repeat, bool warmup,
                      double *slowest, char *err, size_t errlen);

/* `warmup` untimed then `repeat` timed launches (ms each); the `restore`
 * copies are made before every launch, outside the timing. */
bool probe_times(gpurt_kernel k, const probe_launch *l, void **args, int warmup, int repeat,
                 const probe_copy *restore, int n_restore, double *ms, char *err, size_t errlen);

/* One launch with the device counters (counter_bytes of them, 2 per source
 * line) zeroed first; counts is filled (lanes at 2 x line, executions at
 * 2 x line + 1). */
bool probe_lanes_run(gpurt_kernel k, const probe_launch *l, void **args, void *counters,
                     size_t counter_bytes, uint64_t *counts, size_t n_counts, char *err,
                     size_t errlen);

#endif
