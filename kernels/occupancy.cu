// occupancy.cu: residency probes for `gpulint verify --check occupancy`.
//
// What it isolates: how many blocks one SM holds at once, for a spread of
// registers per thread, static and dynamic shared memory, block sizes,
// carveouts and named barriers. No profiler is needed: every block records
// the SM it ran on (%smid) and when it started and ended (%globaltimer), and
// spins long enough (RESIDENCY_SPIN_NS) that all blocks an SM holds at once
// overlap. gpulint sweeps the intervals per SM; the largest overlap is the
// measured blocks per SM, compared with gpulint's occupancy engine and with
// cudaOccupancyMaxActiveBlocksPerMultiprocessor.
//
// Why it is built this way:
//   - registers: R values are kept live across the spin loop, so ptxas
//     needs about R + 10 registers; the prediction uses what ptxas reports,
//     so the exact count does not matter, only that the spread is wide;
//   - shared memory: a static array of SMEM bytes is written and read, so
//     ptxas cannot drop it; dynamic shared memory comes from the launch;
//   - barriers: NB named barriers are used in the loop (bar.sync 1..NB-1),
//     so ptxas reports "used NB barriers", which limits residency from
//     Hopper on;
//   - every kernel is extern "C" so its symbol is its name.
#include "verify.h"

template <int R, int SMEM, int NB>
__device__ __forceinline__ void resident(unsigned long long *records, float *sink,
                                         unsigned long long spin_ns)
{
    __shared__ unsigned stash[SMEM > 0 ? SMEM / 4 : 1];
    const unsigned long long start = verify_globaltimer();
    unsigned v[R];
#pragma unroll
    for (int i = 0; i < R; i++)
        v[i] = threadIdx.x * (i + 1);
    if (SMEM > 0)
        stash[threadIdx.x % (SMEM > 0 ? SMEM / 4 : 1)] = threadIdx.x;
    while (verify_globaltimer() - start < spin_ns) {
#pragma unroll
        for (int i = 0; i < R; i++)
            v[i] = v[i] * 1664525u + v[(i + 1) % R];
#pragma unroll
        for (int b = 1; b < NB; b++)
            asm volatile("bar.sync %0;" ::"r"(b));
    }
    const unsigned long long end = verify_globaltimer();
    unsigned acc = 0;
#pragma unroll
    for (int i = 0; i < R; i++)
        acc ^= v[i];
    if (acc == 0x9e3779b9u) /* never: keeps v and stash live */
        sink[0] = (float)(acc + (SMEM > 0 ? stash[1] : 0));
    if (threadIdx.x == 0) {
        records[3 * blockIdx.x] = verify_smid();
        records[3 * blockIdx.x + 1] = start;
        records[3 * blockIdx.x + 2] = end;
    }
}

#define RESIDENT(name, R, SMEM, NB)                                                                \
    extern "C" __global__ void name(unsigned long long *records, float *sink,                      \
                                    unsigned long long spin_ns)                                    \
    {                                                                                              \
        resident<R, SMEM, NB>(records, sink, spin_ns);                                             \
    }

// Registers: from about 17 to about 200 per thread.
RESIDENT(occ_regs8, 8, 0, 0)
RESIDENT(occ_regs32, 32, 0, 0)
RESIDENT(occ_regs56, 56, 0, 0)
RESIDENT(occ_regs96, 96, 0, 0)
RESIDENT(occ_regs128, 128, 0, 0)
RESIDENT(occ_regs192, 192, 0, 0)
// Static shared memory per block (the 48 KB static limit is 49152 bytes).
RESIDENT(occ_smem8k, 8, 8192, 0)
RESIDENT(occ_smem20k, 8, 20000, 0)
RESIDENT(occ_smem40k, 8, 40000, 0)
RESIDENT(occ_smem48k, 8, 48000, 0)
// Named barriers per block.
RESIDENT(occ_bar4, 8, 0, 4)
RESIDENT(occ_bar8, 8, 0, 8)
RESIDENT(occ_bar16, 8, 0, 16)

// Dynamic shared memory: the size comes from the launch (and above 48 KB
// from cudaFuncAttributeMaxDynamicSharedMemorySize, set by verify).
extern "C" __global__ void occ_dynamic(unsigned long long *records, float *sink,
                                       unsigned long long spin_ns)
{
    extern __shared__ unsigned dyn[];
    dyn[threadIdx.x] = threadIdx.x;
    resident<8, 0, 0>(records, sink, spin_ns);
    if (dyn[(threadIdx.x + 1) % blockDim.x] == 0xffffffffu)
        sink[1] = 1.0f;
}
