// gpulint's driver for flash-attention-minimal's forward_kernel: the
// configuration forward() in flash.cu computes, at bench.py's sizes
// (batch 16, 12 heads, sequence 64, head dimension 64), without torch.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <math.h>

#include "forward_kernel.cuh"

int main()
{
    const int B = 16, nh = 12, N = 64, d = 64;
    const int Bc = 32, Br = 32;
    const int Tc = 2, Tr = 2; // ceil((float)N / Bc), ceil((float)N / Br)
    const float softmax_scale = 0.125f; // 1 / sqrt(d)
    size_t n = (size_t)B * nh * N * d, nlm = (size_t)B * nh * N;
    float *Q, *K, *V, *O, *l, *m;
    cudaMalloc(&Q, n * sizeof(float));
    cudaMalloc(&K, n * sizeof(float));
    cudaMalloc(&V, n * sizeof(float));
    cudaMalloc(&O, n * sizeof(float));
    cudaMalloc(&l, nlm * sizeof(float));
    cudaMalloc(&m, nlm * sizeof(float));
    cudaMemset(Q, 0, n * sizeof(float));
    cudaMemset(K, 0, n * sizeof(float));
    cudaMemset(V, 0, n * sizeof(float));
    cudaMemset(O, 0, n * sizeof(float));
    cudaMemset(l, 0, nlm * sizeof(float));
    cudaMemset(m, 0, nlm * sizeof(float));
    const int sram_size = (3 * Bc * d * sizeof(float)) + (Bc * Br * sizeof(float));
    dim3 grid_dim(B, nh);
    dim3 block_dim(Bc);
    forward_kernel<<<grid_dim, block_dim, sram_size>>>(Q, K, V, N, d, Tc, Tr, Bc, Br, softmax_scale,
                                                       l, m, O);
    cudaError_t e = cudaDeviceSynchronize();
    printf("forward_kernel: %s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
