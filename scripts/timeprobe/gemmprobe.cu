// The five reference GEMMs of kernels/gemm.cu (N = GEMM_N) at the launch
// shapes `gpulint verify` uses, each launched twice (the second is the one
// to profile: caches warm from the first as in verify's timed runs), for
// Nsight Compute's view of what each waits on: stall reasons, shared
// wavefronts (whether ptxas merged a thread's neighbouring shared loads),
// L2 hits and misses by source, DRAM bytes. Run by gemmprobe.sh.
#include <cstdio>
#include <cuda_fp16.h>

#include "../../kernels/gemm.cu"

#define CHECK(x)                                                                            \
    do {                                                                                    \
        cudaError_t e = (x);                                                                \
        if (e != cudaSuccess) {                                                             \
            printf("%s: %s\n", #x, cudaGetErrorString(e));                                  \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

int main()
{
    const size_t n = (size_t)N * N;
    float *a, *b, *c;
    __half *ha, *hb;
    CHECK(cudaMalloc(&a, n * 4));
    CHECK(cudaMalloc(&b, n * 4));
    CHECK(cudaMalloc(&c, n * 4));
    CHECK(cudaMalloc(&ha, n * 2));
    CHECK(cudaMalloc(&hb, n * 2));
    CHECK(cudaMemset(a, 0, n * 4));
    CHECK(cudaMemset(b, 0, n * 4));
    CHECK(cudaMemset(ha, 0, n * 2));
    CHECK(cudaMemset(hb, 0, n * 2));
    for (int r = 0; r < 2; r++) {
        gemm_naive<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(a, b, c);
        gemm_smem<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(a, b, c);
        gemm_regtile<<<dim3(N / 64, N / 64), dim3(16, 16)>>>(a, b, c);
        gemm_vec<<<dim3(N / 128, N / 128), dim3(16, 16)>>>((const float4 *)a, (const float4 *)b,
                                                           c);
        gemm_wmma<<<dim3(N / 128, N / 128), 256>>>(ha, hb, c);
    }
    CHECK(cudaDeviceSynchronize());
    printf("gemmprobe: 5 kernels x 2 at N = %d\n", N);
    return 0;
}
