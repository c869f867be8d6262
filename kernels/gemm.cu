// gemm.cu: the SGEMM ladder (`gpulint verify --ladder gemm`).
//
// C = A x B for GEMM_N x GEMM_N row-major matrices, in the steps the
// chapter 6 seed describes, then a tensor-core step:
//   gemm_naive    one thread per C element, A and B read from global memory
//                 for every multiply-add (the caches catch most re-reads)
//   gemm_smem     32 x 32 tiles of A and B staged in shared memory
//   gemm_regtile  64 x 64 block tiles, 4 x 4 outputs per thread kept in
//                 registers: each shared value feeds four FMAs
//   gemm_vec      128 x 128 block tiles, 8 x 8 per thread, float4 loads and
//                 two shared buffers: the next tile is read from global
//                 memory while the current one is multiplied
//   gemm_wmma     fp16 inputs, fp32 accumulation on the tensor cores
//                 (wmma 16 x 16 x 16): 128 x 128 tiles staged in shared
//                 memory, each warp a 64 x 32 piece of C
// Every step computes the same product; verify checks sampled elements of C
// against a double-precision dot product.
#include <cuda_fp16.h>
#include <mma.h>

#include "verify.h"

#define N GEMM_N

extern "C" __global__ void gemm_naive(const float *a, const float *b, float *c)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < N; k++)
        sum += a[row * N + k] * b[k * N + col];
    c[row * N + col] = sum;
}

#define T 32
extern "C" __global__ void gemm_smem(const float *a, const float *b, float *c)
{
    __shared__ float as[T][T], bs[T][T];
    const int row = blockIdx.y * T + threadIdx.y;
    const int col = blockIdx.x * T + threadIdx.x;
    float sum = 0.0f;
    for (int k0 = 0; k0 < N; k0 += T) {
        as[threadIdx.y][threadIdx.x] = a[row * N + k0 + threadIdx.x];
        bs[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * N + col];
        __syncthreads();
        for (int k = 0; k < T; k++)
            sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
        __syncthreads();
    }
    c[row * N + col] = sum;
}

// 16 x 16 threads; thread (tx, ty) owns rows ty*4.., columns tx*4.. of the
// 64 x 64 tile. A's tile is stored transposed so a thread's four rows are
// one contiguous read.
#define RB 64
#define RK 16
extern "C" __global__ void gemm_regtile(const float *a, const float *b, float *c)
{
    __shared__ float as[RK][RB], bs[RK][RB];
    const int tid = threadIdx.y * 16 + threadIdx.x;
    const int row0 = blockIdx.y * RB, col0 = blockIdx.x * RB;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < N; k0 += RK) {
        for (int i = 0; i < 4; i++) {
            const int idx = tid + i * 256;
            as[idx % RK][idx / RK] = a[(row0 + idx / RK) * N + k0 + idx % RK];
            bs[idx / RB][idx % RB] = b[(k0 + idx / RB) * N + col0 + idx % RB];
        }
        __syncthreads();
        for (int k = 0; k < RK; k++) {
            float ra[4], rb[4];
            for (int i = 0; i < 4; i++) {
                ra[i] = as[k][threadIdx.y * 4 + i];
                rb[i] = bs[k][threadIdx.x * 4 + i];
            }
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++)
                    acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            c[(row0 + threadIdx.y * 4 + i) * N + col0 + threadIdx.x * 4 + j] = acc[i][j];
}

// 16 x 16 threads, 128 x 128 tiles, K in steps of 8. Each thread loads one
// float4 of A's tile (stored transposed) and one of B's, keeps an 8 x 8
// accumulator, and reads the next tiles into registers before multiplying
// the current ones (double buffering).
#define VB 128
#define VK 8
extern "C" __global__ void gemm_vec(const float4 *a4, const float4 *b4, float *c)
{
    __shared__ __align__(16) float as[2][VK][VB];
    __shared__ __align__(16) float bs[2][VK][VB];
    const int tid = threadIdx.y * 16 + threadIdx.x;
    const int row0 = blockIdx.y * VB, col0 = blockIdx.x * VB;
    const int arow = tid / 2, acol = (tid % 2) * 4; // A tile: 128 rows x 8
    const int brow = tid / 32, bcol = (tid % 32) * 4; // B tile: 8 rows x 128
    float acc[8][8] = {};
    float4 na = a4[((row0 + arow) * N + acol) / 4];
    float4 nb = b4[(brow * N + col0 + bcol) / 4];
    int buf = 0;
    as[0][acol + 0][arow] = na.x;
    as[0][acol + 1][arow] = na.y;
    as[0][acol + 2][arow] = na.z;
    as[0][acol + 3][arow] = na.w;
    *(float4 *)&bs[0][brow][bcol] = nb;
    __syncthreads();
    for (int k0 = 0; k0 < N; k0 += VK) {
        const bool more = k0 + VK < N;
        if (more) {
            na = a4[((row0 + arow) * N + k0 + VK + acol) / 4];
            nb = b4[((k0 + VK + brow) * N + col0 + bcol) / 4];
        }
        for (int k = 0; k < VK; k++) {
            const float4 a0 = *(const float4 *)&as[buf][k][threadIdx.y * 8];
            const float4 a1 = *(const float4 *)&as[buf][k][threadIdx.y * 8 + 4];
            const float4 b0 = *(const float4 *)&bs[buf][k][threadIdx.x * 8];
            const float4 b1 = *(const float4 *)&bs[buf][k][threadIdx.x * 8 + 4];
            const float ra[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float rb[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
            for (int i = 0; i < 8; i++)
                for (int j = 0; j < 8; j++)
                    acc[i][j] += ra[i] * rb[j];
        }
        if (more) {
            buf ^= 1;
            as[buf][acol + 0][arow] = na.x;
            as[buf][acol + 1][arow] = na.y;
            as[buf][acol + 2][arow] = na.z;
            as[buf][acol + 3][arow] = na.w;
            *(float4 *)&bs[buf][brow][bcol] = nb;
        }
        __syncthreads();
    }
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j += 4)
            *(float4 *)&c[(row0 + threadIdx.y * 8 + i) * N + col0 + threadIdx.x * 8 + j] =
                make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
}

// 8 warps (2 x 4), each a 64 x 32 piece of a 128 x 128 block tile; A and B
// staged in shared memory 32 columns of K at a time with 16-byte loads, rows
// padded by 8 halves (16 bytes) so the fragment loads do not conflict.
#define WM 128
#define WN 128
#define WK 32
extern "C" __global__ void gemm_wmma(const __half *a, const __half *b, float *c)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700 /* tensor cores: sm_70 on */
    using namespace nvcuda;
    __shared__ __align__(32) __half as[WM][WK + 8];
    __shared__ __align__(32) __half bs[WK][WN + 8];
    const int warp = threadIdx.x / 32;
    const int wm = warp / 4, wn = warp % 4;
    const int row0 = blockIdx.y * WM, col0 = blockIdx.x * WN;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);
    for (int k0 = 0; k0 < N; k0 += WK) {
        for (int i = 0; i < 2; i++) {
            const int idx = threadIdx.x + i * 256; /* 512 uint4 per tile */
            const int ar = idx / 4, ac = (idx % 4) * 8;
            *(uint4 *)&as[ar][ac] = *(const uint4 *)&a[(row0 + ar) * N + k0 + ac];
            const int br = idx / 16, bc = (idx % 16) * 8;
            *(uint4 *)&bs[br][bc] = *(const uint4 *)&b[(k0 + br) * N + col0 + bc];
        }
        __syncthreads();
        for (int kk = 0; kk < WK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[4];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb[2];
            for (int i = 0; i < 4; i++)
                wmma::load_matrix_sync(fa[i], &as[wm * 64 + i * 16][kk], WK + 8);
            for (int j = 0; j < 2; j++)
                wmma::load_matrix_sync(fb[j], &bs[kk][wn * 32 + j * 16], WN + 8);
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 2; j++)
                    wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            wmma::store_matrix_sync(c + (row0 + wm * 64 + i * 16) * N + col0 + wn * 32 + j * 16,
                                    acc[i][j], N, wmma::mem_row_major);
#endif
}

void gemm_launches(const float *a, const float *b, float *c, const __half *ha, const __half *hb)
{
    gemm_naive<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(a, b, c);
    gemm_smem<<<dim3(N / T, N / T), dim3(T, T)>>>(a, b, c);
    gemm_regtile<<<dim3(N / RB, N / RB), dim3(16, 16)>>>(a, b, c);
    gemm_vec<<<dim3(N / VB, N / VB), dim3(16, 16)>>>((const float4 *)a, (const float4 *)b, c);
    gemm_wmma<<<dim3(N / WN, N / WM), 256>>>(ha, hb, c);
}
