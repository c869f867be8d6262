// divergence.cu: SIMT-efficiency probes for `gpulint verify --check divergence`.
//
// What it isolates: the share of a warp's 32 lanes that execute a branch's
// region, as gpulint predicts it (sum of active lanes / (32 x executions),
// nvprof's warp_execution_efficiency). Two ways of measuring, neither
// needing a profiler:
//   - lanes: VERIFY_LANES(counts), written on the branch's own line, has the
//     first active lane add __popc(__activemask()) and one execution to that
//     line's counters; lanes / (32 x executions) is the efficiency. The
//     counter is itself code in the region, so the compiler keeps the branch
//     a branch, as gpulint reads it from the source;
//   - timing: a kernel whose two sides are long, equal chains of FMAs runs
//     both sides one after the other when a warp diverges, so its time
//     against a twin whose condition is warp-aligned (same work, no
//     divergence) is the efficiency. A side short enough to be predicated
//     runs for every lane in both twins: the times agree, and verify says
//     the compiler removed the branch (and shows it in the SASS, where
//     cuobjdump is installed) rather than report a disagreement.
#include "verify.h"

// tid % 2: even and odd lanes take different sides. 50%.
extern "C" __global__ void div_even_odd(unsigned long long *counts, float *out)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float a = 0.0f, b = 0.0f;
    if (tid % 2 == 0) { VERIFY_LANES(counts);
        a = 100.0f;
    } else {
        b = 200.0f;
    }
    out[tid] = a + b;
}

// (tid / 32) % 2: the condition changes only from one warp to the next. 100%.
extern "C" __global__ void div_warp_aligned(unsigned long long *counts, float *out)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float a = 0.0f, b = 0.0f;
    if ((tid / 32) % 2 == 0) { VERIFY_LANES(counts);
        a = 100.0f;
    } else {
        b = 200.0f;
    }
    out[tid] = a + b;
}

// Exercise 13.8's kind of range test on 128-thread blocks: warp 0 all in,
// warp 1 eight lanes, warp 2 none, warp 3 24 lanes: 64 / 96.
extern "C" __global__ void div_ranges(unsigned long long *counts, float *out)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float a = 1.0f;
    if (threadIdx.x < 40 || threadIdx.x >= 104) { VERIFY_LANES(counts);
        a = 2.0f;
    }
    out[tid] = a;
}

// A loop whose trip count is (lane % 4) + 1: the body runs 4 times per warp
// with 80 of 128 lane-iterations active, 62.5% (exercise 13.8).
extern "C" __global__ void div_lane_trips(unsigned long long *counts, float *out)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int i = 0; i < (int)(threadIdx.x % 4) + 1; i++) { VERIFY_LANES(counts);
        sum += (float)i;
    }
    out[tid] = sum;
}

// The neighbored reduction's test inside its loop: lanes drop out by halves.
extern "C" __global__ void div_neighbored(unsigned long long *counts, float *out)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (float)threadIdx.x;
    for (int stride = 1; stride < DIV_THREADS; stride *= 2) {
        if (threadIdx.x % (2 * stride) == 0) { VERIFY_LANES(counts);
            v += 1.0f;
        }
    }
    out[tid] = v;
}

// The interleaved form of the same reduction: whole warps drop out first.
extern "C" __global__ void div_interleaved(unsigned long long *counts, float *out)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (float)threadIdx.x;
    for (int stride = DIV_THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) { VERIFY_LANES(counts);
            v += 1.0f;
        }
    }
    out[tid] = v;
}

// ---- timing twins ----------------------------------------------------------
// Each twin runs DIV_WORK iterations whose branch condition changes with the
// iteration (so the compiler cannot hoist it out of the loop), and every
// side is pure arithmetic: the kernels are compute-bound, and the divergent
// twin's time over the converged one's is the SIMT efficiency. verify
// launches the two alternately and compares medians.

// Long sides (64 dependent FMAs each, against about 4 instructions of loop
// and test that both twins share): a real branch, both sides in turn.
extern "C" __global__ void div_heavy_divergent(float *out)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (float)tid;
    for (int i = 0; i < DIV_WORK; i++) {
        if ((tid + i) % 2 == 0) {
#pragma unroll
            for (int k = 0; k < 64; k++)
                x = x * 1.0001f + 0.5f;
        } else {
#pragma unroll
            for (int k = 0; k < 64; k++)
                x = x * 0.9999f + 0.25f;
        }
    }
    out[tid] = x;
}

// The same work with a warp-aligned condition: the reference time.
extern "C" __global__ void div_heavy_converged(float *out)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (float)tid;
    for (int i = 0; i < DIV_WORK; i++) {
        if ((tid / 32 + i) % 2 == 0) {
#pragma unroll
            for (int k = 0; k < 64; k++)
                x = x * 1.0001f + 0.5f;
        } else {
#pragma unroll
            for (int k = 0; k < 64; k++)
                x = x * 0.9999f + 0.25f;
        }
    }
    out[tid] = x;
}

// One instruction a side: short enough that the compiler computes both and
// selects (predication), so the twins take the same time.
extern "C" __global__ void div_short_divergent(const float *in, float *out)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float r = in[tid];
    for (int i = 0; i < DIV_SHORT_WORK; i++) {
        if ((tid + i) % 2 == 0)
            r = r * 1.0001f;
        else
            r = r + 0.5f;
    }
    out[tid] = r;
}

extern "C" __global__ void div_short_converged(const float *in, float *out)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float r = in[tid];
    for (int i = 0; i < DIV_SHORT_WORK; i++) {
        if ((tid / 32 + i) % 2 == 0)
            r = r * 1.0001f;
        else
            r = r + 0.5f;
    }
    out[tid] = r;
}

void divergence_launches(unsigned long long *c, float *o, const float *in)
{
    div_even_odd<<<DIV_BLOCKS, DIV_THREADS>>>(c, o);
    div_warp_aligned<<<DIV_BLOCKS, DIV_THREADS>>>(c, o);
    div_ranges<<<DIV_BLOCKS, 128>>>(c, o);
    div_lane_trips<<<DIV_BLOCKS, DIV_THREADS>>>(c, o);
    div_neighbored<<<DIV_BLOCKS, DIV_THREADS>>>(c, o);
    div_interleaved<<<DIV_BLOCKS, DIV_THREADS>>>(c, o);
    div_heavy_divergent<<<DIV_BLOCKS, DIV_THREADS>>>(o);
    div_heavy_converged<<<DIV_BLOCKS, DIV_THREADS>>>(o);
    div_short_divergent<<<DIV_BLOCKS, DIV_THREADS>>>(in, o);
    div_short_converged<<<DIV_BLOCKS, DIV_THREADS>>>(in, o);
}
