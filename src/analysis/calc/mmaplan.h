/* mmaplan: a GEMM on Tensor Cores as MMA fragments: how many fragments tile
 * each dimension and how much of each is padding, the useful FLOPs, the
 * least DRAM traffic (A and B read once, C written once), the intensity,
 * the bandwidth that would feed the peak, the bound, and for a measured
 * rate which ceiling explains the gap. Pure: no I/O, no globals. */
#ifndef GPULINT_MMAPLAN_H
#define GPULINT_MMAPLAN_H

#include <stdbool.h>
#include <stdint.h>

typedef struct mma_shape {
    int m, n, k;
    char name[24];
} mma_shape;

/* "m16n8k16": a shape PTX's mma.sync or WMMA offers for some type. */
bool mmaplan_shape(const char *name, mma_shape *out);
/* "m8n8k4, m16n8k4, ..." for error messages. */
const char *mmaplan_shape_list(void);

typedef struct mmaplan {
    int64_t dims[3];   /* M, N, K */
    int64_t frags[3];  /* ceil(M/m), ceil(N/n), ceil(K/k) */
    double util[3];    /* M / (frags x m) ... */
    double util_total; /* their product: useful share of the MMA work issued */
    double flops;      /* 2MNK, useful */
    double bytes;      /* in_elem x (MK + KN) + out_elem x MN */
    double ai;
    double peak, bandwidth; /* the ceilings given */
    double effective_peak;  /* peak x util_total: padding is work too */
    double attainable;      /* min(effective_peak, ai x bandwidth) */
    bool memory_bound;
    double bandwidth_needed; /* bytes / (flops / effective_peak) */
    double time_compute, time_memory, min_time;
    /* With a measured rate (> 0): */
    double measured;
    double of_peak, of_attainable;
} mmaplan;

/* How one warp's fragments spread over its 32 lanes. */
typedef struct mma_lanes {
    int elems[3]; /* A, B, C per lane with each element held once: mk/32, kn/32, mn/32 */
    int regs[3];  /* 32-bit registers for them: A and B at the operand size, C at the
                     accumulator's (fp32 or s32; fp64 for fp64-tensor) */
    int accumulator_bytes;
    /* WMMA's fragment<>::num_elements for this shape and type (A, B,
     * accumulator); all 0 where WMMA has no such fragment. */
    int wmma_elems[3];
} mma_lanes;

/* precision: "fp16-tensor", ... or NULL when only the operand size is known
 * (then no WMMA counts). */
void mmaplan_lanes(const mma_shape *s, const char *precision, int in_elem, mma_lanes *out);

/* False when a size is below 1 or an element size is not positive. */
bool mmaplan_compute(const int64_t dims[3], const mma_shape *s, int in_elem, int out_elem,
                     double peak, double bandwidth, double measured, mmaplan *out);

#endif
