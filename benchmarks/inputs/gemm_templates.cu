// Benchmark input: a templated, register-tiled GEMM in the style of small
// CUTLASS-like libraries. Tile shapes, element types and the epilogue are
// template arguments; run_all() instantiates eight configurations, so ptxas
// compiles eight kernels with different register and shared-memory needs.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace mini {

struct Identity {
    template <typename T> __device__ T operator()(T x, int, int) const { return x; }
};

struct BiasRelu {
    const float *bias;
    template <typename T> __device__ T operator()(T x, int, int col) const
    {
        T v = x + static_cast<T>(bias[col]);
        return v > T(0) ? v : T(0);
    }
};

template <typename T> struct Acc { using type = T; };
template <> struct Acc<__half> { using type = float; };

template <typename T> __device__ inline typename Acc<T>::type widen(T x) { return x; }
template <> __device__ inline float widen<__half>(__half x) { return __half2float(x); }

template <typename T, int BM, int BN, int BK, int TM, int TN, typename Epilogue>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
gemm(int M, int N, int K, const T *__restrict__ A, const T *__restrict__ B,
     typename Acc<T>::type *__restrict__ C, Epilogue epi)
{
    using AccT = typename Acc<T>::type;
    constexpr int THREADS = (BM / TM) * (BN / TN);
    __shared__ AccT As[BK][BM + 1]; // +1: no bank conflicts on the transposed store
    __shared__ AccT Bs[BK][BN];

    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int tr = tid / (BN / TN), tc = tid % (BN / TN);

    AccT acc[TM][TN] = {};
    AccT a_frag[TM], b_frag[TN];

    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = tid; i < BM * BK; i += THREADS) {
            int r = i / BK, c = i % BK;
            int gr = row0 + r, gc = k0 + c;
            As[c][r] = (gr < M && gc < K) ? widen(A[gr * K + gc]) : AccT(0);
        }
        for (int i = tid; i < BK * BN; i += THREADS) {
            int r = i / BN, c = i % BN;
            int gr = k0 + r, gc = col0 + c;
            Bs[r][c] = (gr < K && gc < N) ? widen(B[gr * N + gc]) : AccT(0);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int m = 0; m < TM; ++m)
                a_frag[m] = As[k][tr * TM + m];
#pragma unroll
            for (int n = 0; n < TN; ++n)
                b_frag[n] = Bs[k][tc * TN + n];
#pragma unroll
            for (int m = 0; m < TM; ++m)
#pragma unroll
                for (int n = 0; n < TN; ++n)
                    acc[m][n] += a_frag[m] * b_frag[n];
        }
        __syncthreads();
    }
#pragma unroll
    for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n) {
            int r = row0 + tr * TM + m, c = col0 + tc * TN + n;
            if (r < M && c < N)
                C[r * N + c] = epi(acc[m][n], r, c);
        }
}

template <typename T, int BM, int BN, int BK, int TM, int TN, typename Epilogue>
cudaError_t launch(int M, int N, int K, const T *A, const T *B, typename Acc<T>::type *C,
                   Epilogue epi, cudaStream_t stream = 0)
{
    dim3 block((BM / TM) * (BN / TN));
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    gemm<T, BM, BN, BK, TM, TN, Epilogue><<<grid, block, 0, stream>>>(M, N, K, A, B, C, epi);
    return cudaGetLastError();
}

} // namespace mini

int run_all(int M, int N, int K, const float *Af, const float *Bf, float *Cf, const double *Ad,
            const double *Bd, double *Cd, const __half *Ah, const __half *Bh, const float *bias)
{
    using namespace mini;
    cudaError_t e = cudaSuccess;
    e = launch<float, 128, 128, 8, 8, 8>(M, N, K, Af, Bf, Cf, Identity{});
    e = launch<float, 64, 64, 8, 4, 4>(M, N, K, Af, Bf, Cf, Identity{});
    e = launch<float, 128, 64, 16, 8, 4>(M, N, K, Af, Bf, Cf, BiasRelu{bias});
    e = launch<float, 32, 32, 32, 2, 2>(M, N, K, Af, Bf, Cf, BiasRelu{bias});
    e = launch<double, 64, 64, 8, 4, 4>(M, N, K, Ad, Bd, Cd, Identity{});
    e = launch<double, 32, 64, 8, 4, 8>(M, N, K, Ad, Bd, Cd, Identity{});
    e = launch<__half, 128, 128, 8, 8, 8>(M, N, K, Ah, Bh, Cf, Identity{});
    e = launch<__half, 64, 128, 16, 4, 8>(M, N, K, Ah, Bh, Cf, BiasRelu{bias});
    if (e != cudaSuccess)
        std::fprintf(stderr, "gemm: %s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
