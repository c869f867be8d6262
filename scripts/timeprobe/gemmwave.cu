// Which of a GEMM's re-reads of A and B L2 serves: the reference GEMMs of
// kernels/gemm.cu at N = PROBE_N (compile with -DPROBE_N=...), and
// gemm_naive and gemm_regtile again with dynamic shared memory they do not
// use, which leaves room for fewer blocks an SM (more waves, fewer blocks
// running together). Nsight Compute's DRAM bytes and L2 lookups (cold L2, as
// verify's DRAM rows) against the count of waves and of blocks that share a
// panel of A or B while they run. Run by l2share.sh.
#include <cstdio>
#include <cuda_fp16.h>

#include "../../kernels/verify.h"
#undef GEMM_N
#define GEMM_N PROBE_N
#include "../../kernels/gemm.cu"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e = (x);                                                                       \
        if (e != cudaSuccess) {                                                                    \
            printf("%s: %s\n", #x, cudaGetErrorString(e));                                         \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

template <typename K> static int fewer(K kernel, int blocks_per_sm, size_t *dyn)
{
    // the dynamic shared memory that leaves room for blocks_per_sm blocks
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, kernel));
    CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    for (size_t d = 1024; d <= 200 * 1024; d += 1024) {
        int nb = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, kernel, 256, d));
        if (nb <= blocks_per_sm) {
            *dyn = d;
            printf("%d blocks an SM with %zu bytes of dynamic shared memory\n", nb, d);
            return 0;
        }
    }
    return 1;
}

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
    size_t naive2 = 0, naive1 = 0, reg2 = 0, reg1 = 0;
    if (fewer(gemm_naive, 2, &naive2) || fewer(gemm_naive, 1, &naive1) ||
        fewer(gemm_regtile, 2, &reg2) || fewer(gemm_regtile, 1, &reg1))
        return 1;
    printf("N %d\n", N);
    gemm_naive<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(a, b, c);
    gemm_smem<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(a, b, c);
    gemm_regtile<<<dim3(N / 64, N / 64), dim3(16, 16)>>>(a, b, c);
    gemm_vec<<<dim3(N / 128, N / 128), dim3(16, 16)>>>((const float4 *)a, (const float4 *)b, c);
    gemm_wmma<<<dim3(N / 128, N / 128), 256>>>(ha, hb, c);
    gemm_naive<<<dim3(N / 16, N / 16), dim3(16, 16), naive2>>>(a, b, c);
    gemm_naive<<<dim3(N / 16, N / 16), dim3(16, 16), naive1>>>(a, b, c);
    gemm_regtile<<<dim3(N / 64, N / 64), dim3(16, 16), reg2>>>(a, b, c);
    gemm_regtile<<<dim3(N / 64, N / 64), dim3(16, 16), reg1>>>(a, b, c);
    CHECK(cudaDeviceSynchronize());
    printf("gemmwave: 9 launches\n");
    return 0;
}
