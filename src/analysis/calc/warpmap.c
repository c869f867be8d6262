/* warpmap: threads of a block into warps (see warpmap.h). */
#include "analysis/calc/warpmap.h"

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

static void idx_text(sbuf *b, const int64_t t[3], const int64_t block[3])
{
    if (block[1] == 1 && block[2] == 1)
        sbuf_addf(b, "%lld", (long long)t[0]);
    else if (block[2] == 1)
        sbuf_addf(b, "(%lld,%lld)", (long long)t[0], (long long)t[1]);
    else
        sbuf_addf(b, "(%lld,%lld,%lld)", (long long)t[0], (long long)t[1], (long long)t[2]);
}

void warpmap_text(sbuf *b, const warpmap *m, bool explain)
{
    sbuf_addf(b, "launch: grid %lldx%lldx%lld x block %lldx%lldx%lld (%lld threads per block)\n",
              (long long)m->grid[0], (long long)m->grid[1], (long long)m->grid[2],
              (long long)m->block[0], (long long)m->block[1], (long long)m->block[2],
              (long long)m->threads_per_block);
    sbuf_addf(b, "warps per block: %d\n", m->warps_per_block);
    sbuf_addf(b, "warps in the grid: %lld\n", (long long)m->warps_in_grid);
    sbuf_addf(b, "lanes used: %lld of %lld (%.1f%%)\n", (long long)m->threads_in_grid,
              (long long)m->lanes_in_grid, 100.0 * m->lane_use);
    sbuf_add(b, "\nwarp  lanes  threads (x fastest)\n");
    for (int w = 0; w < m->warps_per_block; w++) {
        const warpmap_warp *x = &m->warps[w];
        sbuf_addf(b, "%4d  %5d  ", w, x->lanes);
        idx_text(b, x->first, m->block);
        sbuf_add(b, " .. ");
        idx_text(b, x->last, m->block);
        if (x->lanes < WARPMAP_WARP)
            sbuf_addf(b, "  (%d lanes idle)", WARPMAP_WARP - x->lanes);
        sbuf_addc(b, '\n');
    }
    if (explain) {
        sbuf_add(b, "\nhow:\n");
        sbuf_add(b, "  A block's threads are numbered x fastest: linear id = x");
        if (m->block[1] > 1 || m->block[2] > 1)
            sbuf_addf(b, " + y * %lld", (long long)m->block[0]);
        if (m->block[2] > 1)
            sbuf_addf(b, " + z * %lld", (long long)(m->block[0] * m->block[1]));
        sbuf_add(b, ".\n");
        sbuf_addf(b,
                  "  Each 32 consecutive ids are one warp: ceil(%lld / 32) = %d warp%s per "
                  "block, x %lld block%s = %lld.\n",
                  (long long)m->threads_per_block, m->warps_per_block,
                  m->warps_per_block == 1 ? "" : "s", (long long)m->blocks,
                  m->blocks == 1 ? "" : "s", (long long)m->warps_in_grid);
        if (m->threads_per_block % WARPMAP_WARP)
            sbuf_addf(b,
                      "  The last warp of each block holds %lld threads: its other %lld lanes "
                      "sit idle but still take warp slots (a block size that is a multiple of 32 "
                      "wastes none).\n",
                      (long long)(m->threads_per_block % WARPMAP_WARP),
                      (long long)(WARPMAP_WARP - m->threads_per_block % WARPMAP_WARP));
        if (m->rows_split)
            sbuf_add(b, "  Some warps hold threads of more than one row (y or z): a branch or "
                        "an access that depends on y splits them.\n");
    }
}
