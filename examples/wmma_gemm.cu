// wmma_gemm.cu: half-precision GEMM on the Tensor Cores through the WMMA
// API (mma.h). Each warp computes one 16x16 tile of C = A * B, stepping
// through K 16 at a time; every wmma::mma_sync is a 16x16x16 matrix
// multiply-accumulate, 2 * 16 * 16 * 16 = 8192 flops per warp.
//
// Build: nvcc -arch=sm_90 -o wmma_gemm wmma_gemm.cu
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

constexpr int WM = 16, WN = 16, WK = 16;

// A is M x K row-major, B is K x N column-major, C is M x N row-major.
// The block is 128 threads: 4 warps side by side along N.
__global__ void wmmaGemm(const half *A, const half *B, float *C, int M, int N, int K)
{
    int warpM = blockIdx.y;
    int warpN = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;

    wmma::fragment<wmma::matrix_a, WM, WN, WK, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, WM, WN, WK, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, WM, WN, WK, float> acc;
    wmma::fill_fragment(acc, 0.0f);

    for (int k = 0; k < K; k += WK) {
        wmma::load_matrix_sync(a, A + warpM * WM * K + k, K);
        wmma::load_matrix_sync(b, B + warpN * WN * K + k, K);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + warpM * WM * N + warpN * WN, acc, N, wmma::mem_row_major);
}

int main()
{
    const int M = 1024, N = 1024, K = 1024;
    half *A, *B;
    float *C;
    cudaMalloc(&A, M * K * sizeof(half));
    cudaMalloc(&B, K * N * sizeof(half));
    cudaMalloc(&C, M * N * sizeof(float));

    dim3 block(128);
    dim3 grid(N / (WN * 4), M / WM);
    wmmaGemm<<<grid, block>>>(A, B, C, M, N, K);

    cudaError_t err = cudaDeviceSynchronize();
    printf("wmma_gemm: %s\n", cudaGetErrorString(err));
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    return err == cudaSuccess ? 0 : 1;
}
