// reduction.cu: the reduction ladder (`gpulint verify --ladder reduction`).
//
// Sums RED_N ints (256 MB) into one partial sum per block, in the steps the
// chapter 3 seed walks through, then the warp-shuffle step that ends most
// modern ladders. As in the seed, the first seven steps reduce in place in
// global memory (each block overwrites its own slice of the input), so
// verify restores the input before every timed run. What each step changes:
//   red_neighbored        tid % (2 * stride): lanes of every warp split
//   red_neighbored_less   index = 2 * stride * tid: the first threads work,
//                         whole warps retire (fewer divergent warps)
//   red_interleaved       tid < stride, idata[tid + stride]: contiguous,
//                         coalesced accesses
//   red_unroll2/4/8       each thread first adds 2/4/8 elements one block
//                         apart: fewer blocks, more loads in flight
//   red_unroll_warps8     the last 32 lanes without __syncthreads (volatile)
//   red_complete8         the loop unrolled for 512-thread blocks
//   red_shuffle8          8 elements per thread read as int4 pairs, warp
//                         shuffles, one shared word per warp: nothing written
//                         back to global memory but the block's sum
// Every block writes its sum to out[blockIdx.x]; verify checks the total.
#include "verify.h"

#define RED_BLOCK 512

extern "C" __global__ void red_neighbored(int *in, int *out)
{
    const unsigned tid = threadIdx.x;
    int *idata = in + blockIdx.x * blockDim.x;
    for (int stride = 1; stride < RED_BLOCK; stride *= 2) {
        if (tid % (2 * stride) == 0)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = idata[0];
}

extern "C" __global__ void red_neighbored_less(int *in, int *out)
{
    const unsigned tid = threadIdx.x;
    int *idata = in + blockIdx.x * blockDim.x;
    for (int stride = 1; stride < RED_BLOCK; stride *= 2) {
        const int index = 2 * stride * tid;
        if (index < RED_BLOCK)
            idata[index] += idata[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = idata[0];
}

extern "C" __global__ void red_interleaved(int *in, int *out)
{
    const unsigned tid = threadIdx.x;
    int *idata = in + blockIdx.x * blockDim.x;
    for (int stride = RED_BLOCK / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = idata[0];
}

// Block b first folds the U slices b*U .. b*U+U-1 into slice b*U.
#define RED_UNROLL(name, U)                                                                        \
    extern "C" __global__ void name(int *in, int *out)                                             \
    {                                                                                              \
        const unsigned tid = threadIdx.x;                                                          \
        const long long base = (long long)blockIdx.x * RED_BLOCK * U;                              \
        int *idata = in + base;                                                                    \
        int sum = 0;                                                                               \
        for (int k = 0; k < U; k++)                                                                \
            sum += in[base + k * RED_BLOCK + tid];                                                 \
        idata[tid] = sum;                                                                          \
        __syncthreads();                                                                           \
        for (int stride = RED_BLOCK / 2; stride > 0; stride >>= 1) {                               \
            if (tid < stride)                                                                      \
                idata[tid] += idata[tid + stride];                                                 \
            __syncthreads();                                                                       \
        }                                                                                          \
        if (tid == 0)                                                                              \
            out[blockIdx.x] = idata[0];                                                            \
    }

RED_UNROLL(red_unroll2, 2)
RED_UNROLL(red_unroll4, 4)
RED_UNROLL(red_unroll8, 8)

extern "C" __global__ void red_unroll_warps8(int *in, int *out)
{
    const unsigned tid = threadIdx.x;
    const long long base = (long long)blockIdx.x * RED_BLOCK * 8;
    int *idata = in + base;
    int sum = 0;
    for (int k = 0; k < 8; k++)
        sum += in[base + k * RED_BLOCK + tid];
    idata[tid] = sum;
    __syncthreads();
    for (int stride = RED_BLOCK / 2; stride > 32; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        volatile int *v = idata;
        v[tid] += v[tid + 32];
        v[tid] += v[tid + 16];
        v[tid] += v[tid + 8];
        v[tid] += v[tid + 4];
        v[tid] += v[tid + 2];
        v[tid] += v[tid + 1];
    }
    if (tid == 0)
        out[blockIdx.x] = idata[0];
}

extern "C" __global__ void red_complete8(int *in, int *out)
{
    const unsigned tid = threadIdx.x;
    const long long base = (long long)blockIdx.x * RED_BLOCK * 8;
    int *idata = in + base;
    int sum = 0;
    for (int k = 0; k < 8; k++)
        sum += in[base + k * RED_BLOCK + tid];
    idata[tid] = sum;
    __syncthreads();
    if (tid < 256)
        idata[tid] += idata[tid + 256];
    __syncthreads();
    if (tid < 128)
        idata[tid] += idata[tid + 128];
    __syncthreads();
    if (tid < 64)
        idata[tid] += idata[tid + 64];
    __syncthreads();
    if (tid < 32) {
        volatile int *v = idata;
        v[tid] += v[tid + 32];
        v[tid] += v[tid + 16];
        v[tid] += v[tid + 8];
        v[tid] += v[tid + 4];
        v[tid] += v[tid + 2];
        v[tid] += v[tid + 1];
    }
    if (tid == 0)
        out[blockIdx.x] = idata[0];
}

// Reads only: two int4 per thread (8 ints), shuffles within each warp, one
// shared word per warp, then the first warp shuffles those.
extern "C" __global__ void red_shuffle8(const int4 *in, int *out)
{
    __shared__ int warp_sums[RED_BLOCK / 32];
    const unsigned tid = threadIdx.x;
    const long long base = (long long)blockIdx.x * RED_BLOCK * 2;
    const int4 a = in[base + tid];
    const int4 b = in[base + RED_BLOCK + tid];
    int sum = a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w;
    for (int offset = 16; offset > 0; offset >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (tid % 32 == 0)
        warp_sums[tid / 32] = sum;
    __syncthreads();
    if (tid < 32) {
        sum = tid < RED_BLOCK / 32 ? warp_sums[tid] : 0;
        for (int offset = 16; offset > 0; offset >>= 1)
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (tid == 0)
            out[blockIdx.x] = sum;
    }
}

void reduction_launches(int *in, int *out)
{
    red_neighbored<<<RED_N / RED_BLOCK, RED_BLOCK>>>(in, out);
    red_neighbored_less<<<RED_N / RED_BLOCK, RED_BLOCK>>>(in, out);
    red_interleaved<<<RED_N / RED_BLOCK, RED_BLOCK>>>(in, out);
    red_unroll2<<<RED_N / RED_BLOCK / 2, RED_BLOCK>>>(in, out);
    red_unroll4<<<RED_N / RED_BLOCK / 4, RED_BLOCK>>>(in, out);
    red_unroll8<<<RED_N / RED_BLOCK / 8, RED_BLOCK>>>(in, out);
    red_unroll_warps8<<<RED_N / RED_BLOCK / 8, RED_BLOCK>>>(in, out);
    red_complete8<<<RED_N / RED_BLOCK / 8, RED_BLOCK>>>(in, out);
    red_shuffle8<<<RED_N / RED_BLOCK / 8, RED_BLOCK>>>((const int4 *)in, out);
}
