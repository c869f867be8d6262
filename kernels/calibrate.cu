// calibrate.cu: the probes `gpulint verify --calibrate` times to measure
// the time model's [timing] constants on the user's own card (docs/timing.md
// lists what each constant means; scripts/timeprobe/ has the probes the
// bundled values came from, run under Nsight Compute).
//
// verify times each probe with CUDA events, as it times the reference
// kernels the constants are judged on. Every constant but the launch time
// is the slope between two runs that differ only in how much work they do
// (steps of a chain, passes over a buffer, blocks per SM), so the launch's
// own cost and a chain's first, cold loads cancel.
//
// Why each is built this way:
//   - chains: one thread follows a random cycle through 128-byte lines
//     (verify.ini's `cycle` buffers), so every load waits for the one
//     before and no neighbour is fetched along. The position is kept in
//     `at` between launches: the 1 GiB chain walks on into lines no earlier
//     launch touched, while the 16 KiB and 8 MiB chains run whole cycles
//     and come back to where they started, warm;
//   - streaming reads: 16-byte vectors, grid-stride, with the wrap done by
//     a compare and a subtract (a 64-bit remainder per load would bound the
//     probe by its instructions rather than by DRAM);
//   - L2 bandwidth: ld.global.cg / st.global.cg (past L1) over a buffer L2
//     holds, repeated: the first pass fills L2, the slope over passes is L2;
//   - every kernel is extern "C" so its symbol is its name.
#include "verify.h"

extern "C" __global__ void cal_empty() {}

extern "C" __global__ void cal_chase(const unsigned *next, unsigned *at, int slot, int steps)
{
    unsigned p = at[slot];
    for (int i = 0; i < steps; i++)
        p = next[p];
    at[slot] = p;
}

extern "C" __global__ void cal_read(const float4 *a, long long n4, float *sink)
{
    float4 s = make_float4(0, 0, 0, 0);
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 v = a[i];
        s.x += v.x;
        s.y += v.y;
        s.z += v.z;
        s.w += v.w;
    }
    if (s.x + s.y + s.z + s.w == 1.0f) // never with the zeroed buffer: keeps the loads
        sink[0] = s.x;
}

__device__ __forceinline__ float4 load_cg(const float4 *p)
{
    float4 v;
    asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
    return v;
}

__device__ __forceinline__ void store_cg(float4 *p, float4 v)
{
    asm volatile("st.global.cg.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(v.x), "f"(v.y),
                 "f"(v.z), "f"(v.w)
                 : "memory");
}

// `passes` over n4 vectors; each pass starts a third of the way further so
// that a block never meets in L1 what it read before (and .cg skips L1).
extern "C" __global__ void cal_read_l2(const float4 *a, int n4, int passes, float *sink)
{
    float s = 0;
    const int stride = gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++) {
        int shift = (int)((long long)p * n4 / 3 % n4);
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
            int j = i + shift;
            j -= j >= n4 ? n4 : 0;
            float4 v = load_cg(a + j);
            s += v.x + v.y + v.z + v.w;
        }
    }
    if (s == 1.0f)
        sink[0] = s;
}

extern "C" __global__ void cal_write_l2(float4 *a, int n4, int passes)
{
    const int stride = gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride)
            store_cg(a + i, make_float4((float)p, 0, 0, 0));
}

// Each lane writes 4 bytes into a 128-byte line of its own (as a naive
// transpose's column writes do): every store is part of a sector.
extern "C" __global__ void cal_write_partial(float *a, int lines, int passes)
{
    const int stride = gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < lines; i += stride)
            asm volatile("st.global.f32 [%0], %1;" ::"l"(a + (long long)i * 32), "f"((float)p)
                         : "memory");
}

// A loop step that only waits at the block's barrier.
extern "C" __global__ void cal_barrier(int steps)
{
    for (int i = 0; i < steps; i++)
        __syncthreads();
}
