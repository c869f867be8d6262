/* warpmap: threads of a block into warps (see warpmap.h). */
#include "analysis/warpmap.h"

#include <stdio.h>
#include <string.h>

static void index_of(const int64_t block[3], int64_t linear, int64_t out[3])
{
    out[0] = linear % block[0];
    out[1] = linear / block[0] % block[1];
    out[2] = linear / (block[0] * block[1]);
}

bool warpmap_compute(const int64_t block[3], const int64_t grid[3], warpmap *out, char *why,
                     size_t why_size)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 3; i++) {
        if (block[i] < 1 || grid[i] < 1) {
            snprintf(why, why_size, "%s dimension %c is %lld; it must be at least 1",
                     block[i] < 1 ? "block" : "grid", "xyz"[i],
                     (long long)(block[i] < 1 ? block[i] : grid[i]));
            return false;
        }
        out->block[i] = block[i];
        out->grid[i] = grid[i];
    }
    if (block[0] > 1024 || block[1] > 1024 || block[2] > 64 ||
        block[0] * block[1] * block[2] > 1024) {
        snprintf(why, why_size,
                 "a block of %lldx%lldx%lld cannot launch (at most 1024 threads, 1024 x 1024 x "
                 "64)",
                 (long long)block[0], (long long)block[1], (long long)block[2]);
        return false;
    }
    out->threads_per_block = block[0] * block[1] * block[2];
    out->warps_per_block = (int)((out->threads_per_block + WARPMAP_WARP - 1) / WARPMAP_WARP);
    out->blocks = 1;
    for (int i = 0; i < 3; i++)
        if (__builtin_mul_overflow(out->blocks, grid[i], &out->blocks)) {
            snprintf(why, why_size, "the grid has more blocks than can be counted");
            return false;
        }
    if (__builtin_mul_overflow(out->blocks, (int64_t)out->warps_per_block, &out->warps_in_grid) ||
        __builtin_mul_overflow(out->blocks, out->threads_per_block, &out->threads_in_grid) ||
        __builtin_mul_overflow(out->warps_in_grid, (int64_t)WARPMAP_WARP, &out->lanes_in_grid)) {
        snprintf(why, why_size, "the grid has more threads than can be counted");
        return false;
    }
    out->lane_use = (double)out->threads_in_grid / (double)out->lanes_in_grid;
    for (int w = 0; w < out->warps_per_block; w++) {
        warpmap_warp *x = &out->warps[w];
        x->first_linear = (int64_t)w * WARPMAP_WARP;
        x->last_linear = x->first_linear + WARPMAP_WARP - 1;
        if (x->last_linear >= out->threads_per_block)
            x->last_linear = out->threads_per_block - 1;
        x->lanes = (int)(x->last_linear - x->first_linear + 1);
        index_of(block, x->first_linear, x->first);
        index_of(block, x->last_linear, x->last);
        out->rows_split |= x->first[1] != x->last[1] || x->first[2] != x->last[2];
    }
    return true;
}
