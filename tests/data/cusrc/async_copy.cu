// Copies the hardware makes for the threads: cp.async through
// __pipeline_memcpy_async, and a block's cooperative_groups::memcpy_async.
// No access of the source names the global bytes they read, so the
// counts say they miss them rather than report too few bytes as whole.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

__global__ void stage_pipeline(const float4 *in, float *out)
{
    __shared__ float4 tile[256];
    int i = blockIdx.x * 256 + threadIdx.x;
    __pipeline_memcpy_async(&tile[threadIdx.x], &in[i], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[i] = tile[threadIdx.x].x + tile[255 - threadIdx.x].y;
}

__global__ void stage_group(const float *in, float *out)
{
    __shared__ float tile[1024];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, tile, in + blockIdx.x * 1024, sizeof tile);
    cg::wait(block);
    out[blockIdx.x * 1024 + threadIdx.x] = 2.0f * tile[1023 - threadIdx.x];
}

int main()
{
    float4 *a;
    float *b, *c;
    cudaMalloc(&a, 4096 * 256 * sizeof(float4));
    cudaMalloc(&b, 4096 * 1024 * sizeof(float));
    cudaMalloc(&c, 4096 * 1024 * sizeof(float));
    stage_pipeline<<<4096, 256>>>(a, b);
    stage_group<<<4096, 1024>>>(b, c);
    cudaDeviceSynchronize();
    return 0;
}
