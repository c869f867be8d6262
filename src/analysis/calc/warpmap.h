/* warpmap: how the threads of a block fall into warps. The hardware rule:
 * a block's threads are numbered x fastest, then y, then z (linear id =
 * x + y * Bx + z * Bx * By), and each run of 32 consecutive ids is one
 * warp; a block whose size is not a multiple of 32 ends in a partial warp
 * whose missing lanes still hold warp slots. Pure: no I/O, no globals. */
#ifndef GPULINT_WARPMAP_H
#define GPULINT_WARPMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/sbuf.h"

#define WARPMAP_WARP 32
#define WARPMAP_MAX_WARPS 32 /* a block of 1024 threads */

typedef struct warpmap_warp {
    int64_t first_linear, last_linear; /* linear ids of its first and last lane */
    int64_t first[3], last[3];         /* their (x, y, z) */
    int lanes;                         /* lanes holding a thread (32 but for the last warp) */
} warpmap_warp;

typedef struct warpmap {
    int64_t block[3], grid[3];
    int64_t threads_per_block;
    int warps_per_block;
    int64_t blocks, warps_in_grid, threads_in_grid;
    int64_t lanes_in_grid; /* warps x 32: the warp slots the launch holds */
    double lane_use;       /* threads / lanes */
    bool rows_split;       /* a warp holds threads of more than one y row */
    warpmap_warp warps[WARPMAP_MAX_WARPS];
} warpmap;

/* False, with why, when a dimension is below 1, the block holds more than
 * 1,024 threads or the grid's counts overflow. */
bool warpmap_compute(const int64_t block[3], const int64_t grid[3], warpmap *out, char *why,
                     size_t why_size);

/* `gpulint warps`'s answer: the launch, each warp's lanes and threads, and
 * with explain how threads are numbered into warps. */
void warpmap_text(sbuf *out, const warpmap *m, bool explain);

#endif
