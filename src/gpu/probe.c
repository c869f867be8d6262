/* probe: launch-and-measure methods (see probe.h). */
#include "gpu/probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sbuf.h"

#define STATIC_SMEM_LIMIT 49152 /* above it a block must opt in */

/* The API's answer and the grid that fills the GPU twice over. */
static bool size_grid(gpurt_kernel k, const probe_residency_spec *s, probe_residency *out,
                      char *err, size_t errlen)
{
    if (s->cluster > 0) {
        if (!gpurt_set_nonportable_cluster(k, s->nonportable, err, errlen) ||
            !gpurt_cluster_occupancy(k, s->block, s->dynamic_smem, s->cluster, &out->api, err,
                                     errlen))
            return false;
        int most = (s->predicted > out->api ? s->predicted : out->api) + 1;
        out->grid = 2 * most * s->cluster;
        return true;
    }
    if (!gpurt_occupancy(k, s->block, s->dynamic_smem, &out->api, err, errlen))
        return false;
    int most = (s->predicted > out->api ? s->predicted : out->api) + 1;
    out->grid = 2 * most * s->sms;
    return true;
}

bool probe_residency_run(gpurt_kernel k, const probe_residency_spec *s, probe_residency *out,
                         char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    gpurt_attrs attrs;
    if (!gpurt_kernel_attrs(k, &attrs, err, errlen))
        return false;
    out->registers = attrs.registers;
    out->static_smem = attrs.static_smem;
    /* The attribute persists on the kernel: set it for every case, to the
     * default when the case does not opt in. */
    int64_t limit = s->dynamic_smem > STATIC_SMEM_LIMIT - attrs.static_smem
                        ? s->dynamic_smem
                        : STATIC_SMEM_LIMIT - attrs.static_smem;
    if (!gpurt_set_max_dynamic_smem(k, limit, err, errlen) ||
        !gpurt_set_carveout(k, s->carveout >= 0 ? s->carveout : -1, err, errlen) ||
        !size_grid(k, s, out, err, errlen))
        return false;
    void *records = NULL, *sink = NULL;
    size_t bytes = (size_t)out->grid * 3 * sizeof(uint64_t);
    bool ok = gpurt_alloc(&records, bytes, err, errlen) && gpurt_alloc(&sink, 64, err, errlen) &&
              gpurt_memset(records, 0, bytes, err, errlen);
    uint64_t *host = NULL;
    if (ok) {
        uint64_t spin = s->spin_ns;
        void *args[] = {&records, &sink, &spin};
        int grid[3] = {out->grid, 1, 1}, blk[3] = {s->block, 1, 1};
        ok = s->cluster > 0 ? gpurt_launch_clusters(k, out->grid, s->block, s->dynamic_smem,
                                                    s->cluster, args, err, errlen)
                            : gpurt_launch(k, grid, blk, s->dynamic_smem, args, NULL, err, errlen);
    }
    if (ok) {
        host = xcalloc((size_t)out->grid * 3, sizeof *host);
        ok = gpurt_to_host(host, records, bytes, err, errlen);
    }
    if (ok)
        out->records = host;
    else
        free(host);
    gpurt_free(records);
    gpurt_free(sink);
    return ok;
}

bool probe_cycles_run(gpurt_kernel k, const probe_launch *l, int repeat, bool warmup,
                      double *slowest_per_run, char *err, size_t errlen)
{
    int threads = l->block[0] * l->block[1] * l->block[2];
    int warps = (threads + 31) / 32;
    void *cycles = NULL, *sink = NULL;
    bool ok = gpurt_alloc(&cycles, (size_t)warps * sizeof(uint64_t), err, errlen) &&
              gpurt_alloc(&sink, 64, err, errlen);
    uint64_t *host = xcalloc((size_t)warps, sizeof *host);
    void *args[] = {&cycles, &sink};
    /* The first launch loads the module's code: not counted. */
    for (int r = warmup ? -1 : 0; ok && r < repeat; r++) {
        ok = gpurt_launch(k, l->grid, l->block, l->dynamic_smem, args, NULL, err, errlen) &&
             gpurt_to_host(host, cycles, (size_t)warps * sizeof *host, err, errlen);
        if (ok && r >= 0) {
            uint64_t slowest = 0;
            for (int w = 0; w < warps; w++)
                if (host[w] > slowest)
                    slowest = host[w];
            slowest_per_run[r] = (double)slowest;
        }
    }
    free(host);
    gpurt_free(cycles);
    gpurt_free(sink);
    return ok;
}

bool probe_times(gpurt_kernel k, const probe_launch *l, void **args, int warmup, int repeat,
                 const probe_copy *restore, int n_restore, double *ms, char *err, size_t errlen)
{
    for (int r = -warmup; r < repeat; r++) {
        for (int i = 0; i < n_restore; i++)
            if (!gpurt_device_copy(restore[i].dst, restore[i].src, restore[i].bytes, err, errlen))
                return false;
        double t;
        if (!gpurt_launch(k, l->grid, l->block, l->dynamic_smem, args, &t, err, errlen))
            return false;
        if (r >= 0)
            ms[r] = t;
    }
    return true;
}

bool probe_lanes_run(gpurt_kernel k, const probe_launch *l, void **args, void *counters,
                     size_t counter_bytes, uint64_t *counts, size_t n_counts, char *err,
                     size_t errlen)
{
    if (n_counts * sizeof *counts > counter_bytes) {
        snprintf(err, errlen, "the counter buffer holds %zu counters, not %zu",
                 counter_bytes / sizeof *counts, n_counts);
        return false;
    }
    return gpurt_memset(counters, 0, counter_bytes, err, errlen) &&
           gpurt_launch(k, l->grid, l->block, l->dynamic_smem, args, NULL, err, errlen) &&
           gpurt_to_host(counts, counters, n_counts * sizeof *counts, err, errlen);
}
