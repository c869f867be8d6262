/* regtile: register tiling inside a shared-memory-tiled GEMM (the fourth
 * step of the usual SGEMM ladder): each thread keeps a TM x TN block of C in
 * registers, and at every k of a K tile loads TM values of A and TN of B
 * from shared memory for TM x TN FMAs. Counts the shared-memory loads that
 * leaves, its FLOP per shared byte and, given the SM count and clock, the
 * ceiling shared-memory bandwidth puts on the kernel. Pure: no I/O. */
#ifndef GPULINT_REGTILE_H
#define GPULINT_REGTILE_H

#include <stdbool.h>
#include <stddef.h>

/* One conflict-free warp-wide shared load of 4-byte words per clock per SM:
 * 32 banks of 32 bits each (CUDA C++ Programming Guide, "Shared Memory",
 * compute capability 5.x and later). Counted in lane bytes, so a broadcast
 * costs what any other conflict-free load costs. */
#define REGTILE_SMEM_BYTES_PER_CLOCK 128

typedef struct regtile {
    double m, n, k;
    int tile, tm, tn, elem;
    int threads_per_block;  /* (T/TM) x (T/TN) */
    int outputs_per_thread; /* TM x TN */
    double fma_per_load;    /* TM TN / (TM + TN) */
    double gain;            /* over one output per thread (1 FMA per 2 loads) */
    double smem_loads;      /* M N K (TM + TN) / (TM TN), over the whole GEMM */
    double smem_bytes;      /* x elem */
    double smem_ai;         /* 2MNK / smem_bytes = 2 TM TN / (elem (TM + TN)) */
    double smem_ai_untiled; /* the same with TM = TN = 1: 1 / elem */
    int registers_min;      /* (TM TN + TM + TN) x elem/4: the tile and its operands */
    /* The tile's own bank conflicts, for the usual layout (A stored k-major,
     * As[k][m], and Bs[k][n]; thread (tx, ty) reads As[k][ty*TM + i] and
     * Bs[k][tx*TN + j] one element at a time; tx along x, T/TN of them):
     * wavefronts per warp request over the ideal, averaged over the block's
     * warps, from analysis/warp/bank; 0 when they could not be evaluated. */
    double a_conflict, b_conflict;
    double conflict_slowdown; /* (TM a + TN b) / (TM + TN): shared time per k over conflict-free */
    /* With the SM count and clock (0 when not given): */
    double smem_bandwidth;       /* SMs x 128 B x clock */
    double smem_ceiling;         /* smem_ai x smem_bandwidth, FLOP/s: conflict-free */
    double smem_ceiling_banked;  /* the same divided by conflict_slowdown */
    double smem_ceiling_untiled; /* smem_ai_untiled x smem_bandwidth */
} regtile;

/* False with why when a size is below 1, TM or TN does not divide the tile
 * T, or the block would have more than 1,024 threads. sm_count and clock_mhz
 * may be 0 (no ceiling). */
bool regtile_compute(double m, double n, double k, int tile, int tm, int tn, int elem, int sm_count,
                     double clock_mhz, regtile *out, char *why, size_t why_size);

#endif
