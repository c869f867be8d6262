// Calls the source front end walks at their call sites, and the ones it
// cannot: each kernel checks one rule (tests/unit/test_cusrc.c).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// Streaming copies through the cache-hint intrinsics clang's CUDA headers
// lack (__stcs, __ldlu): the file must parse without errors.
__global__ void stream_copy(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        __stcs(out + i, __ldlu(in + i) * 2.0f);
}

// Cooperative groups: ranks and sizes are the thread's indices.
__global__ void warp_sums(const float *in, float *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int w = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    float s = cg::reduce(warp, in[w * 32 + warp.thread_rank()], cg::plus<float>());
    if (warp.thread_rank() == 0)
        out[w] = s;
}

// A helper reached through two levels, each with its own `i`.
__device__ float sq(float x) { return x * x; }
__device__ float row_norm(const float *row, int n)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += sq(row[i]);
    return s;
}
__global__ void norms(const float *m, float *out, int rows, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += blockDim.x * gridDim.x)
        out[i] = row_norm(m + i * n, n);
}

// Not followed, and said: recursion, a body in another file, memory
// through a pointer loaded from memory.
__device__ int depth(int x) { return x <= 0 ? 0 : 1 + depth(x - 1); }
__device__ float elsewhere(float x);
__global__ void opaque(float *out, float **tables, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = depth(n) + elsewhere(out[i]);
}
__global__ void gather(float *out, float **tables)
{
    int i = threadIdx.x;
    float *t = tables[blockIdx.x];
    out[i] = t[i];
}

// A helper reading a local array through a pointer: registers, not memory
// gpulint cannot place.
__device__ float sum4(const float *v) { return v[0] + v[1] + v[2] + v[3]; }
__global__ void local_sum(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float r[4];
    for (int k = 0; k < 4; k++)
        r[k] = in[4 * i + k];
    out[i] = sum4(r);
}

int main()
{
    stream_copy<<<256, 256>>>(0, 0, 65536);
    warp_sums<<<64, 256>>>(0, 0);
    norms<<<64, 256>>>(0, 0, 16384, 128);
    opaque<<<1, 32>>>(0, 0, 4);
    gather<<<4, 32>>>(0, 0);
    local_sum<<<4, 32>>>(0, 0);
    return 0;
}
