/* verify.h: sizes and device helpers shared by the reference kernels of
 * `gpulint verify`.
 *
 * The #define lines with integer values are also read by gpulint itself
 * (src/verify/manifest.c) to size the buffers that verify.ini names, so a
 * size lives in one place. Sizes are chosen far above the 50-60 MB L2 of an
 * H100/H200 wherever a kernel is timed against DRAM, so no cache can make a
 * kernel beat its DRAM bound. */
#ifndef GPULINT_KERNELS_VERIFY_H
#define GPULINT_KERNELS_VERIFY_H

/* Residency: each block spins this long (ns of %globaltimer), long enough
 * that every block an SM holds at once overlaps every other. */
#define RESIDENCY_SPIN_NS 20000

/* Bank conflicts: one block of 32 warps (enough to keep the shared-memory
 * pipe busy: with 4 warps issue limits a conflict-free request to 4 cycles),
 * each warp issuing BANK_ITERS x 4 requests. */
#define BANK_THREADS 1024
#define BANK_ITERS 256
#define BANK_REQUESTS (BANK_THREADS / 32 * BANK_ITERS * 4)

/* Coalescing: warp requests over 2 GiB, each sector read once. */
#define COAL_BYTES (2048 * 1024 * 1024LL)
#define COAL_BLOCKS 1056
#define COAL_THREADS 256
#define COAL_WARPS (COAL_BLOCKS * COAL_THREADS / 32)

/* Divergence: the lane counters (a pair per source line). */
#define LANE_LINES 1024
#define DIV_THREADS 256
#define DIV_BLOCKS 4224
#define DIV_WORK 128       /* iterations of 64 FMAs a side */
#define DIV_SHORT_WORK 16384 /* iterations of one instruction a side */

/* Streaming kernels (vector add, copies, transposes, reductions). */
#define VEC_N (64 * 1024 * 1024)
#define COPY_N (128 * 1024 * 1024)
#define TR_N 8192
#define RED_N (64 * 1024 * 1024)
#define STENCIL_N 8192

/* GEMM: square, fp32 (and fp16 inputs for the tensor-core step). */
#define GEMM_N 4096

/* Ceilings: grids that fill every SM several times over. */
#define PEAK_BLOCKS 1056
#define PEAK_THREADS 256
#define PEAK_ITERS 4096
#define MMA_ITERS 4096

/* Calibration (`verify --calibrate`): the time model's [timing] constants.
 * Dependent-load chains over 16 KiB (held by L1), 8 MiB (by L2, not L1) and
 * 1 GiB (neither, and beyond the TLBs' reach as the bundled probes were);
 * a 2 GiB streaming read; 24 MiB for L2's own bandwidth (half the H100's
 * 50 MB L2, so it holds the buffer however the two partitions share it). */
#define CAL_L1_WORDS (16 * 1024 / 4)
#define CAL_L2_WORDS (8 * 1024 * 1024 / 4)
#define CAL_DRAM_WORDS (1024 * 1024 * 1024 / 4)
#define CAL_READ_FLOATS (512 * 1024 * 1024)
#define CAL_L2_BYTES (24 * 1024 * 1024)
#define CAL_L2_FLOATS (CAL_L2_BYTES / 4)

#ifdef __CUDACC__
/* %globaltimer: ns since an epoch shared by all SMs; %smid: which SM. */
__device__ __forceinline__ unsigned long long verify_globaltimer(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ unsigned verify_smid(void)
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

/* Count the lanes that execute this point: the first active lane adds the
 * active-lane count and one execution to the counters of this source line.
 * SIMT efficiency of the region = lanes / (32 x executions). */
#define VERIFY_LANES(counts)                                                                       \
    do {                                                                                           \
        unsigned verify_mask_ = __activemask();                                                    \
        if ((threadIdx.x & 31) == (unsigned)(__ffs(verify_mask_) - 1)) {                           \
            atomicAdd(&(counts)[2 * __LINE__], (unsigned long long)__popc(verify_mask_));          \
            atomicAdd(&(counts)[2 * __LINE__ + 1], 1ull);                                          \
        }                                                                                          \
    } while (0)
#endif

#endif
