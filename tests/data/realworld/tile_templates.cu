// Tiled SGEMM templated over its tile shape, the way tutorial code grows:
// one kernel, several instantiations chosen at run time from the problem.
#include <cstdio>
#include <cuda_runtime.h>

template <int BM, int BN, int BK, int TM>
__global__ void sgemm_tiled(int M, int N, int K, float alpha, const float *__restrict__ A,
                            const float *__restrict__ B, float beta, float *__restrict__ C)
{
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int tcol = threadIdx.x % BN, trow = threadIdx.x / BN;
    float acc[TM] = {0.0f};
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = threadIdx.x; i < BM * BK; i += blockDim.x) {
            int r = i / BK, c = i % BK;
            As[i] = (row0 + r < M && k0 + c < K) ? A[(row0 + r) * K + k0 + c] : 0.0f;
        }
        for (int i = threadIdx.x; i < BK * BN; i += blockDim.x) {
            int r = i / BN, c = i % BN;
            Bs[i] = (k0 + r < K && col0 + c < N) ? B[(k0 + r) * N + col0 + c] : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k) {
            float b = Bs[k * BN + tcol];
#pragma unroll
            for (int m = 0; m < TM; ++m)
                acc[m] += As[(trow * TM + m) * BK + k] * b;
        }
        __syncthreads();
    }
#pragma unroll
    for (int m = 0; m < TM; ++m) {
        int r = row0 + trow * TM + m, c = col0 + tcol;
        if (r < M && c < N)
            C[r * N + c] = alpha * acc[m] + beta * C[r * N + c];
    }
}

template <int BM, int BN, int BK, int TM>
static void launch(int M, int N, int K, const float *A, const float *B, float *C)
{
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    sgemm_tiled<BM, BN, BK, TM><<<grid, BM * BN / TM>>>(M, N, K, 1.0f, A, B, 0.0f, C);
}

void sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
    if (M >= 4096 && N >= 4096)
        launch<64, 64, 8, 8>(M, N, K, A, B, C);
    else if (M >= 512)
        launch<32, 32, 16, 4>(M, N, K, A, B, C);
    else
        launch<16, 16, 16, 1>(M, N, K, A, B, C);
}

int main()
{
    const int n = 1024;
    float *a, *b, *c;
    cudaMalloc(&a, n * n * sizeof(float));
    cudaMalloc(&b, n * n * sizeof(float));
    cudaMalloc(&c, n * n * sizeof(float));
    sgemm(n, n, n, a, b, c);
    printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
