// gpulint's driver for two kernels of siboehm/SGEMM_CUDA (MIT, LICENSE;
// the .cuh files as at commit 60cba6f, 2023-12-27): kernel 2 (global
// memory coalescing) and kernel 3 (shared-memory blocking), launched as
// src/runner.cu launches them, at the repository's largest size
// (M = N = K = 4096), without cuBLAS or the benchmark loop.
#include <cstdio>
#include <cuda_runtime.h>

#include "2_kernel_global_mem_coalesce.cuh"
#include "3_kernel_shared_mem_blocking.cuh"

int main()
{
    const int M = 4096, N = 4096, K = 4096;
    const float alpha = 0.5f, beta = 3.0f;
    float *A, *B, *C;
    cudaMalloc(&A, (size_t)M * K * sizeof(float));
    cudaMalloc(&B, (size_t)K * N * sizeof(float));
    cudaMalloc(&C, (size_t)M * N * sizeof(float));
    cudaMemset(A, 0, (size_t)M * K * sizeof(float));
    cudaMemset(B, 0, (size_t)K * N * sizeof(float));
    cudaMemset(C, 0, (size_t)M * N * sizeof(float));
    dim3 gridDim(CEIL_DIV(M, 32), CEIL_DIV(N, 32));
    dim3 blockDim(32 * 32);
    sgemm_global_mem_coalesce<32><<<gridDim, blockDim>>>(M, N, K, alpha, A, B, beta, C);
    cudaFuncSetAttribute(sgemm_shared_mem_block<32>, cudaFuncAttributePreferredSharedMemoryCarveout,
                         cudaSharedmemCarveoutMaxShared);
    sgemm_shared_mem_block<32><<<gridDim, blockDim>>>(M, N, K, alpha, A, B, beta, C);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    return e != cudaSuccess;
}
