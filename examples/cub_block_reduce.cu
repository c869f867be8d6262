// cub_block_reduce.cu: a block-wide sum with CUB's BlockReduce. CUB keeps
// its scratch space in a __shared__ TempStorage; the kernel's own loads are
// plain coalesced reads. Parsing <cub/cub.cuh> takes a few seconds: it is
// a large header library.
//
// Build: nvcc -arch=sm_90 -o cub_block_reduce cub_block_reduce.cu
#include <cstdio>
#include <cub/cub.cuh>
#include <cuda_runtime.h>

template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__global__ void blockSum(const int *in, int *out)
{
    using BlockReduce = cub::BlockReduce<int, BLOCK_THREADS>;
    __shared__ typename BlockReduce::TempStorage temp;

    int items[ITEMS_PER_THREAD];
    int base = blockIdx.x * BLOCK_THREADS * ITEMS_PER_THREAD;
    for (int i = 0; i < ITEMS_PER_THREAD; i++)
        items[i] = in[base + i * BLOCK_THREADS + threadIdx.x];

    int sum = BlockReduce(temp).Sum(items);
    if (threadIdx.x == 0)
        out[blockIdx.x] = sum;
}

int main()
{
    const int blocks = 4096;
    int *in, *out;
    cudaMalloc(&in, blocks * 128 * 4 * sizeof(int));
    cudaMalloc(&out, blocks * sizeof(int));
    blockSum<128, 4><<<blocks, 128>>>(in, out);
    cudaError_t err = cudaDeviceSynchronize();
    printf("cub_block_reduce: %s\n", cudaGetErrorString(err));
    cudaFree(in);
    cudaFree(out);
    return err == cudaSuccess ? 0 : 1;
}
