// reduction.cu: parallel sum within a block, three ways (after "Professional
// CUDA C Programming", chapter 3, with the partial sums in shared memory).
//
//   reduceNeighbored      stride doubles; the active threads are those with
//                         tid % (2 * stride) == 0: divergent, half the lanes
//                         of every warp idle from the first step on.
//   reduceNeighboredLess  the same pairs, but thread tid works on index
//                         2 * stride * tid: no divergence until the active
//                         threads fit in one warp, but the shared accesses
//                         are strided by 2 * stride words: bank conflicts.
//   reduceInterleaved     stride halves from blockDim.x / 2; thread tid adds
//                         element tid + stride: contiguous, conflict-free.
//
// Build: nvcc -arch=sm_90 -o reduction reduction.cu
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define BLOCK 256

__global__ void reduceNeighbored(const float *in, float *out, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0)
            sdata[tid] += sdata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

__global__ void reduceNeighboredLess(const float *in, float *out, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tid;
        if (index < blockDim.x)
            sdata[index] += sdata[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

__global__ void reduceInterleaved(const float *in, float *out, unsigned int n)
{
    cg::thread_block block = cg::this_thread_block();
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? in[i] : 0.0f;
    block.sync();

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            sdata[tid] += sdata[tid + stride];
        block.sync();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

int main()
{
    const unsigned int n = 1 << 24;
    const unsigned int blocks = (n + BLOCK - 1) / BLOCK;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, blocks * sizeof(float));
    cudaMemset(in, 0, n * sizeof(float));

    reduceNeighbored<<<blocks, BLOCK>>>(in, out, n);
    reduceNeighboredLess<<<blocks, BLOCK>>>(in, out, n);
    reduceInterleaved<<<blocks, BLOCK>>>(in, out, n);

    cudaError_t err = cudaDeviceSynchronize();
    printf("reduction: %s\n", cudaGetErrorString(err));
    cudaFree(in);
    cudaFree(out);
    return err == cudaSuccess ? 0 : 1;
}
