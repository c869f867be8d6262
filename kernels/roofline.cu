// roofline.cu: the device's ceilings and streaming reference kernels for
// `gpulint verify --check roofline`.
//
// Ceilings (measured on the user's GPU, shown next to the spec):
//   ceil_copy      DRAM copy bandwidth, bytes read + written, 1 GiB moved;
//   ceil_fp32/64   FMA throughput: 8 independent chains per thread, so the
//                  pipes never wait on a result;
//   ceil_fp16/bf16 tensor-core throughput through mma.sync (wmma 16x16x16),
//                  8 independent accumulators per warp. Hopper's datasheet
//                  rate needs wgmma (sm_90a); mma.sync reaches less, and
//                  verify says so.
// Reference kernels: gpulint predicts their FLOPs and DRAM bytes from the
// source and the minimum time on the device; verify checks that none runs
// faster than that bound (which would mean a wrong count) and shows the
// share of the measured ceiling each reaches. Every buffer is at least
// 256 MB, far above the L2, so no kernel beats its DRAM bound through the
// cache.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "verify.h"

// ---- ceilings ---------------------------------------------------------------
extern "C" __global__ void ceil_copy(const float4 *__restrict__ in, float4 *__restrict__ out)
{
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    out[i] = in[i];
}

#define CEIL_FMA(name, T)                                                                          \
    extern "C" __global__ void name(T *out, T m)                                                   \
    {                                                                                              \
        T a0 = threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3;                                 \
        T a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7;                                      \
        for (int i = 0; i < PEAK_ITERS; i++) {                                                     \
            a0 = a0 * m + a1;                                                                      \
            a1 = a1 * m + a2;                                                                      \
            a2 = a2 * m + a3;                                                                      \
            a3 = a3 * m + a4;                                                                      \
            a4 = a4 * m + a5;                                                                      \
            a5 = a5 * m + a6;                                                                      \
            a6 = a6 * m + a7;                                                                      \
            a7 = a7 * m + a0;                                                                      \
        }                                                                                          \
        out[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;        \
    }

CEIL_FMA(ceil_fp32, float)
CEIL_FMA(ceil_fp64, double)

// 8 accumulators from 2 A and 4 B fragments: distinct products, so the
// compiler cannot merge the chains. Tensor cores arrived with sm_70 (fp16)
// and sm_80 (bf16); for older GPUs the body is left out and verify.ini's
// min_cc keeps verify from running it.
template <typename T> __device__ __forceinline__ void mma_peak(float *out)
{
    using namespace nvcuda;
    __shared__ T a[2 * 256], b[4 * 256];
    for (int i = threadIdx.x; i < 4 * 256; i += blockDim.x) {
        if (i < 2 * 256)
            a[i] = T(0.001f * (i % 97));
        b[i] = T(0.002f * (i % 89));
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> fa[2];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major> fb[4];
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[8];
    for (int k = 0; k < 2; k++)
        wmma::load_matrix_sync(fa[k], a + 256 * k, 16);
    for (int k = 0; k < 4; k++)
        wmma::load_matrix_sync(fb[k], b + 256 * k, 16);
    for (int k = 0; k < 8; k++)
        wmma::fill_fragment(c[k], 0.0f);
    for (int i = 0; i < MMA_ITERS; i++)
        for (int k = 0; k < 8; k++)
            wmma::mma_sync(c[k], fa[k & 1], fb[k >> 1], c[k]);
    float s = 0.0f;
    for (int k = 0; k < 8; k++)
        for (int e = 0; e < c[k].num_elements; e++)
            s += c[k].x[e];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

extern "C" __global__ void ceil_fp16_mma(float *out)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
    mma_peak<__half>(out);
#endif
}

extern "C" __global__ void ceil_bf16_mma(float *out)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    mma_peak<__nv_bfloat16>(out);
#endif
}

// ---- reference kernels ------------------------------------------------------
// c = a + b: 12 bytes and 1 FLOP per element, memory-bound everywhere.
extern "C" __global__ void rf_vector_add(const float *a, const float *b, float *c)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];
}

// Every other element: the read moves twice the bytes it uses.
extern "C" __global__ void rf_strided_copy(const float *in, float *out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[2 * i];
}

// A 5-point stencil on an 8192 x 8192 grid (edges left out): gpulint counts
// the 5 reads each point requests; the L1/L2 serve 4 of them from lines
// already read, so DRAM sees about one read and one write per point.
extern "C" __global__ void rf_stencil(const float *in, float *out)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= 1 && x < STENCIL_N - 1 && y >= 1 && y < STENCIL_N - 1)
        out[y * STENCIL_N + x] = 0.5f * in[y * STENCIL_N + x] +
                                 0.125f * (in[(y - 1) * STENCIL_N + x] + in[(y + 1) * STENCIL_N + x] +
                                           in[y * STENCIL_N + x - 1] + in[y * STENCIL_N + x + 1]);
}

// 256 dependent FMAs per element: 512 FLOP per 8 bytes, compute-bound.
extern "C" __global__ void rf_fma_heavy(const float *in, float *out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i];
    for (int k = 0; k < 256; k++)
        x = x * 0.999f + 0.001f;
    out[i] = x;
}

void roofline_launches(const float4 *in4, float4 *out4, float *f, double *d, const float *a,
                       const float *b, float *c)
{
    ceil_copy<<<COPY_N / 4 / 256, 256>>>(in4, out4);
    ceil_fp32<<<PEAK_BLOCKS, PEAK_THREADS>>>(f, 0.999f);
    ceil_fp64<<<PEAK_BLOCKS, PEAK_THREADS>>>(d, 0.999);
    ceil_fp16_mma<<<PEAK_BLOCKS, 128>>>(f);
    ceil_bf16_mma<<<PEAK_BLOCKS, 128>>>(f);
    rf_vector_add<<<VEC_N / 256, 256>>>(a, b, c);
    rf_strided_copy<<<VEC_N / 256, 256>>>(a, c);
    rf_stencil<<<dim3(STENCIL_N / 32, STENCIL_N / 8), dim3(32, 8)>>>(a, c);
    rf_fma_heavy<<<VEC_N / 256, 256>>>(a, c);
}
