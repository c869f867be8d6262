// bank.cu: shared-memory bank-conflict probes for `gpulint verify --check bank`.
//
// What it isolates: the wavefronts one warp-wide shared-memory load needs,
// for 4-, 8- and 16-byte accesses, strides, padding, an XOR swizzle, a
// broadcast, repeated addresses and 2-D blocks. Each kernel has exactly one
// load site; gpulint predicts its wavefronts from the source, and the
// hardware's answer is read with clock64(): one block of 32 warps
// (BANK_THREADS) issues BANK_REQUESTS loads, and the SM's cycles per request
// is the shared-memory pipe's cost of one request. A wavefront costs a fixed
// number of cycles per access width (on an H100: 1 for 4- and 8-byte
// accesses, 2 for 16-byte ones), which verify fits on the same run from the
// patterns whose wavefront count no model can dispute (the conflict-free
// stride 1: bytes / 128, and all lanes in one bank: 32) and then applies to
// every row. A broadcast of each width (every lane on one address) is the
// least work a request of that width can be: a row predicted to cost less
// time than it is below what timing resolves, and verify says so.
//
// Why it is built this way:
//   - 32 warps: with 4, issue limits even a conflict-free load to 4 cycles;
//   - arrays are [2][4][row]: iteration `it` reads half `it & 1`, row u, so
//     the addresses change every iteration (nothing can be hoisted out of
//     the loop) while every row starts on bank 0 (rows are multiples of 32
//     words), so each request has the same banks as the first;
//   - every component of a vector load is used, so the compiler keeps the
//     8- or 16-byte load instead of narrowing it.
#include "verify.h"

template <typename T> __device__ __forceinline__ void bank_fill(T *p, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        float *f = (float *)&p[i];
        for (int k = 0; k < (int)(sizeof(T) / 4); k++)
            f[k] = (float)(i + k);
    }
    __syncthreads();
}

__device__ __forceinline__ unsigned long long bank_start(void)
{
    __syncthreads();
    return clock64();
}

__device__ __forceinline__ void bank_finish(unsigned long long *cycles, float *sink,
                                            unsigned long long start, float acc)
{
    const unsigned long long end = clock64();
    __syncthreads();
    const int warp = (threadIdx.y * blockDim.x + threadIdx.x) / 32;
    if ((threadIdx.x & 31) == 0)
        cycles[warp] = end - start;
    if (acc == -1.0f)
        sink[0] = acc;
}

__device__ __forceinline__ float sum4(float4 v) { return v.x + v.y + v.z + v.w; }
__device__ __forceinline__ float sum2(double v) { return (float)v; }

// ---- 4-byte accesses: lane i reads element i x S --------------------------
#define BANK_F32_STRIDE(S)                                                                         \
    extern "C" __global__ void bank_f32_stride##S(unsigned long long *cycles, float *sink)         \
    {                                                                                              \
        __shared__ float buf[2][4][32 * S];                                                        \
        bank_fill(&buf[0][0][0], 2 * 4 * 32 * S);                                                  \
        const int lane = threadIdx.x % 32;                                                         \
        float acc = 0.0f;                                                                          \
        const unsigned long long start = bank_start();                                             \
        _Pragma("unroll 1") for (int it = 0; it < BANK_ITERS; it++)                              \
            for (int u = 0; u < 4; u++)                                                            \
                acc += buf[it & 1][u][lane * S];                                                   \
        bank_finish(cycles, sink, start, acc);                                                     \
    }

BANK_F32_STRIDE(1)  // 1 wavefront: the ideal
BANK_F32_STRIDE(2)  // 2-way
BANK_F32_STRIDE(3)  // odd stride: conflict-free
BANK_F32_STRIDE(4)  // 4-way
BANK_F32_STRIDE(8)  // 8-way
BANK_F32_STRIDE(16) // 16-way
BANK_F32_STRIDE(32) // every lane in bank 0: 32-way
BANK_F32_STRIDE(33) // a padded column: conflict-free

// Every lane reads the same word: one wavefront, broadcast.
extern "C" __global__ void bank_f32_broadcast(unsigned long long *cycles, float *sink)
{
    __shared__ float buf[2][4][32];
    bank_fill(&buf[0][0][0], 2 * 4 * 32);
    float acc = 0.0f;
    const unsigned long long start = bank_start();
#pragma unroll 1
    for (int it = 0; it < BANK_ITERS; it++)
        for (int u = 0; u < 4; u++)
            acc += buf[it & 1][u][0];
    bank_finish(cycles, sink, start, acc);
}

// Lane pairs read the same word (lane / 2): a multicast, one wavefront.
extern "C" __global__ void bank_f32_pairs(unsigned long long *cycles, float *sink)
{
    __shared__ float buf[2][4][32];
    bank_fill(&buf[0][0][0], 2 * 4 * 32);
    const int lane = threadIdx.x % 32;
    float acc = 0.0f;
    const unsigned long long start = bank_start();
#pragma unroll 1
    for (int it = 0; it < BANK_ITERS; it++)
        for (int u = 0; u < 4; u++)
            acc += buf[it & 1][u][lane / 2];
    bank_finish(cycles, sink, start, acc);
}

// ---- 2-D blocks (32 x 32 threads: warp = one threadIdx.y) -----------------
// A transpose's column read from an unpadded 32 x 32 tile: 32-way.
extern "C" __global__ void bank_tile_column(unsigned long long *cycles, float *sink)
{
    __shared__ float tile[2][4][32][32];
    bank_fill(&tile[0][0][0][0], 2 * 4 * 32 * 32);
    float acc = 0.0f;
    const unsigned long long start = bank_start();
#pragma unroll 1
    for (int it = 0; it < BANK_ITERS; it++)
        for (int u = 0; u < 4; u++)
            acc += tile[it & 1][u][threadIdx.x][threadIdx.y];
    bank_finish(cycles, sink, start, acc);
}

// The same read from a tile padded to 33 columns: conflict-free.
extern "C" __global__ void bank_tile_padded(unsigned long long *cycles, float *sink)
{
    __shared__ float tile[2][4][32][33];
    bank_fill(&tile[0][0][0][0], 2 * 4 * 32 * 33);
    float acc = 0.0f;
    const unsigned long long start = bank_start();
#pragma unroll 1
    for (int it = 0; it < BANK_ITERS; it++)
        for (int u = 0; u < 4; u++)
            acc += tile[it & 1][u][threadIdx.x][threadIdx.y];
    bank_finish(cycles, sink, start, acc);
}

// The same read from an unpadded tile with an XOR swizzle: conflict-free.
extern "C" __global__ void bank_tile_xor(unsigned long long *cycles, float *sink)
{
    __shared__ float tile[2][4][32][32];
    bank_fill(&tile[0][0][0][0], 2 * 4 * 32 * 32);
    float acc = 0.0f;
    const unsigned long long start = bank_start();
#pragma unroll 1
    for (int it = 0; it < BANK_ITERS; it++)
        for (int u = 0; u < 4; u++)
            acc += tile[it & 1][u][threadIdx.x][threadIdx.y ^ threadIdx.x];
    bank_finish(cycles, sink, start, acc);
}

// 16 x 64 threads: a warp is two rows of 16. Row-major read: conflict-free.
extern "C" __global__ void bank_2d_rows(unsigned long long *cycles, float *sink)
{
    __shared__ float tile[2][4][64][16];
    bank_fill(&tile[0][0][0][0], 2 * 4 * 64 * 16);
    float acc = 0.0f;
    const unsigned long long start = bank_start();
#pragma unroll 1
    for (int it = 0; it < BANK_ITERS; it++)
        for (int u = 0; u < 4; u++)
            acc += tile[it & 1][u][threadIdx.y][threadIdx.x];
    bank_finish(cycles, sink, start, acc);
}

// 16 x 64 threads reading the transpose of a 16 x 64 tile: 16 lanes of a
// half-warp sit 64 words apart, all in one bank.
extern "C" __global__ void bank_2d_columns(unsigned long long *cycles, float *sink)
{
    __shared__ float tile[2][4][16][64];
    bank_fill(&tile[0][0][0][0], 2 * 4 * 16 * 64);
    float acc = 0.0f;
    const unsigned long long start = bank_start();
#pragma unroll 1
    for (int it = 0; it < BANK_ITERS; it++)
        for (int u = 0; u < 4; u++)
            acc += tile[it & 1][u][threadIdx.x][threadIdx.y];
    bank_finish(cycles, sink, start, acc);
}

// ---- 8-byte accesses (double) ----------------------------------------------
#define BANK_F64_STRIDE(S)                                                                         \
    extern "C" __global__ void bank_f64_stride##S(unsigned long long *cycles, float *sink)         \
    {                                                                                              \
        __shared__ double buf[2][4][32 * S];                                                       \
        bank_fill(&buf[0][0][0], 2 * 4 * 32 * S);                                                  \
        const int lane = threadIdx.x % 32;                                                         \
        float acc = 0.0f;                                                                          \
        const unsigned long long start = bank_start();                                             \
        _Pragma("unroll 1") for (int it = 0; it < BANK_ITERS; it++)                              \
            for (int u = 0; u < 4; u++)                                                            \
                acc += sum2(buf[it & 1][u][lane * S]);                                             \
        bank_finish(cycles, sink, start, acc);                                                     \
    }

BANK_F64_STRIDE(1)  // 256 bytes: 2 wavefronts, the ideal
BANK_F64_STRIDE(2)  // 4
BANK_F64_STRIDE(3)  // odd stride
BANK_F64_STRIDE(16) // every lane in banks 0-1: 32

// Every lane reads one double: the least work an 8-byte request can be.
extern "C" __global__ void bank_f64_broadcast(unsigned long long *cycles, float *sink)
{
    __shared__ double buf[2][4][32];
    bank_fill(&buf[0][0][0], 2 * 4 * 32);
    float acc = 0.0f;
    const unsigned long long start = bank_start();
#pragma unroll 1
    for (int it = 0; it < BANK_ITERS; it++)
        for (int u = 0; u < 4; u++)
            acc += sum2(buf[it & 1][u][0]);
    bank_finish(cycles, sink, start, acc);
}

// Lane pairs read the same double (lane / 2).
extern "C" __global__ void bank_f64_pairs(unsigned long long *cycles, float *sink)
{
    __shared__ double buf[2][4][32];
    bank_fill(&buf[0][0][0], 2 * 4 * 32);
    const int lane = threadIdx.x % 32;
    float acc = 0.0f;
    const unsigned long long start = bank_start();
#pragma unroll 1
    for (int it = 0; it < BANK_ITERS; it++)
        for (int u = 0; u < 4; u++)
            acc += sum2(buf[it & 1][u][lane / 2]);
    bank_finish(cycles, sink, start, acc);
}

// ---- 16-byte accesses (float4) ---------------------------------------------
#define BANK_F128_STRIDE(S)                                                                        \
    extern "C" __global__ void bank_f128_stride##S(unsigned long long *cycles, float *sink)        \
    {                                                                                              \
        __shared__ float4 buf[2][4][32 * S];                                                       \
        bank_fill(&buf[0][0][0], 2 * 4 * 32 * S);                                                  \
        const int lane = threadIdx.x % 32;                                                         \
        float acc = 0.0f;                                                                          \
        const unsigned long long start = bank_start();                                             \
        _Pragma("unroll 1") for (int it = 0; it < BANK_ITERS; it++)                              \
            for (int u = 0; u < 4; u++)                                                            \
                acc += sum4(buf[it & 1][u][lane * S]);                                             \
        bank_finish(cycles, sink, start, acc);                                                     \
    }

BANK_F128_STRIDE(1) // 512 bytes: 4 wavefronts, the ideal
BANK_F128_STRIDE(2) // 8
BANK_F128_STRIDE(3) // odd stride
BANK_F128_STRIDE(8) // every lane in banks 0-3: 32

// Every lane reads one float4: the least work a 16-byte request can be.
extern "C" __global__ void bank_f128_broadcast(unsigned long long *cycles, float *sink)
{
    __shared__ float4 buf[2][4][32];
    bank_fill(&buf[0][0][0], 2 * 4 * 32);
    float acc = 0.0f;
    const unsigned long long start = bank_start();
#pragma unroll 1
    for (int it = 0; it < BANK_ITERS; it++)
        for (int u = 0; u < 4; u++)
            acc += sum4(buf[it & 1][u][0]);
    bank_finish(cycles, sink, start, acc);
}

// Groups of four lanes read the same float4 (lane / 4).
extern "C" __global__ void bank_f128_quads(unsigned long long *cycles, float *sink)
{
    __shared__ float4 buf[2][4][32];
    bank_fill(&buf[0][0][0], 2 * 4 * 32);
    const int lane = threadIdx.x % 32;
    float acc = 0.0f;
    const unsigned long long start = bank_start();
#pragma unroll 1
    for (int it = 0; it < BANK_ITERS; it++)
        for (int u = 0; u < 4; u++)
            acc += sum4(buf[it & 1][u][lane / 4]);
    bank_finish(cycles, sink, start, acc);
}

// The launches the runner makes (never called: read by gpulint's source
// analysis, which predicts each load with these block shapes).
void bank_launches(unsigned long long *c, float *s)
{
    bank_f32_stride1<<<1, BANK_THREADS>>>(c, s);
    bank_f32_stride2<<<1, BANK_THREADS>>>(c, s);
    bank_f32_stride3<<<1, BANK_THREADS>>>(c, s);
    bank_f32_stride4<<<1, BANK_THREADS>>>(c, s);
    bank_f32_stride8<<<1, BANK_THREADS>>>(c, s);
    bank_f32_stride16<<<1, BANK_THREADS>>>(c, s);
    bank_f32_stride32<<<1, BANK_THREADS>>>(c, s);
    bank_f32_stride33<<<1, BANK_THREADS>>>(c, s);
    bank_f32_broadcast<<<1, BANK_THREADS>>>(c, s);
    bank_f32_pairs<<<1, BANK_THREADS>>>(c, s);
    bank_tile_column<<<1, dim3(32, 32)>>>(c, s);
    bank_tile_padded<<<1, dim3(32, 32)>>>(c, s);
    bank_tile_xor<<<1, dim3(32, 32)>>>(c, s);
    bank_2d_rows<<<1, dim3(16, 64)>>>(c, s);
    bank_2d_columns<<<1, dim3(16, 64)>>>(c, s);
    bank_f64_stride1<<<1, BANK_THREADS>>>(c, s);
    bank_f64_stride2<<<1, BANK_THREADS>>>(c, s);
    bank_f64_stride3<<<1, BANK_THREADS>>>(c, s);
    bank_f64_stride16<<<1, BANK_THREADS>>>(c, s);
    bank_f64_broadcast<<<1, BANK_THREADS>>>(c, s);
    bank_f64_pairs<<<1, BANK_THREADS>>>(c, s);
    bank_f128_stride1<<<1, BANK_THREADS>>>(c, s);
    bank_f128_stride2<<<1, BANK_THREADS>>>(c, s);
    bank_f128_stride3<<<1, BANK_THREADS>>>(c, s);
    bank_f128_stride8<<<1, BANK_THREADS>>>(c, s);
    bank_f128_broadcast<<<1, BANK_THREADS>>>(c, s);
    bank_f128_quads<<<1, BANK_THREADS>>>(c, s);
}
