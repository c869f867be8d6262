/* launch_share: DRAM re-reads of shared panels, with the occupancy. */
#include "report/launch_share.h"

#include <stdlib.h>

#include "analysis/memory/l2share.h"
#include "util/sbuf.h"

static unsigned dims_of(const char *along)
{
    unsigned d = 0;
    for (const char *p = along ? along : ""; *p; p++)
        d |= *p == 'x' ? 1u : *p == 'y' ? 2u : *p == 'z' ? 4u : 0u;
    return d;
}

/* The blocks an SM holds keep one pace while they fill at most half its
 * warp slots (8 a scheduler on Hopper), and drift apart above: the regime
 * scripts/timeprobe/gemmorder.cu's block traces and DRAM bytes showed on
 * an H200 at 1, 2 and 4 blocks of 8 warps an SM (lockstep) and at 6 and 8
 * of them and 2 of 32 (drifting). A panel every SM reads is kept by each
 * L2 partition for its own SMs, so the L2 holds a partition's share of
 * them (tests/data/timeprobe/h200/l2share: gemm_wmma's waves of 43 MB read B
 * again from DRAM on a 60 MiB L2). */
void launch_share_apply(json_t *roof, const gpu_product *product, const int64_t grid[3],
                        int blocks_per_sm, int warps_per_sm, int max_warps_per_sm)
{
    json_t *dram = json_object_get(roof, "dram_bytes");
    json_t *sh = json_object_get(dram, "l2_sharing");
    json_t *arrays = json_object_get(sh, "arrays");
    size_t n = json_array_size(arrays);
    if (!n || !product || product->sm_count <= 0 || product->l2_bytes <= 0 || blocks_per_sm <= 0 ||
        max_warps_per_sm <= 0)
        return;
    l2share_array *a = xcalloc(n, sizeof *a);
    int64_t *bytes = xcalloc(n, sizeof *bytes), *fetches = xcalloc(n, sizeof *fetches);
    size_t i;
    json_t *e;
    json_array_foreach(arrays, i, e)
    {
        a[i].block_bytes = json_integer_value(json_object_get(e, "block_bytes"));
        a[i].grid_bytes = json_integer_value(json_object_get(e, "grid_bytes"));
        a[i].shared = dims_of(json_string_value(json_object_get(e, "shared_along")));
    }
    l2share_launch l = {.grid = {grid[0], grid[1], grid[2]},
                        .resident = (int64_t)blocks_per_sm * product->sm_count,
                        .lockstep = 2 * warps_per_sm <= max_warps_per_sm,
                        .l2_bytes = (int64_t)product->l2_bytes /
                                    (product->l2_partitions > 1 ? product->l2_partitions : 1)};
    int64_t wave = l2share_reads(&l, a, n, bytes, fetches);
    int64_t again = 0;
    json_array_foreach(arrays, i, e)
    {
        again += bytes[i] - a[i].grid_bytes;
        json_object_set_new(e, "fetches", json_integer(fetches[i]));
        json_object_set_new(e, "dram_bytes", json_integer(bytes[i]));
    }
    json_int_t read = json_integer_value(json_object_get(sh, "read_without")) + again;
    json_int_t rereads = json_integer_value(json_object_get(sh, "rereads_without")) + again;
    json_object_set_new(dram, "read", json_integer(read));
    json_object_set_new(dram, "bytes",
                        json_integer(read + json_integer_value(json_object_get(dram, "write"))));
    if (rereads > 0)
        json_object_set_new(dram, "rereads", json_integer(rereads));
    else
        json_object_del(dram, "rereads");
    json_object_set_new(sh, "regime", json_string(l.lockstep ? "lockstep" : "drifting"));
    json_object_set_new(sh, "resident_blocks", json_integer(l.resident));
    json_object_set_new(sh, "wave_bytes", json_integer(wave));
    json_object_set_new(sh, "again", json_integer(again));
    free(a);
    free(bytes);
    free(fetches);
}
