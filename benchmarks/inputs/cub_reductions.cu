// Benchmark input: reductions and scans through CUB, the way real code uses
// it: block-level collectives in templated kernels (three algorithms, two
// block sizes) and the device-wide cub::DeviceReduce / DeviceScan entry
// points, which instantiate CUB's own kernels. Pulls in all of cub/cub.cuh.
#include <cub/cub.cuh>
#include <cuda_runtime.h>

template <int BLOCK, int ITEMS, cub::BlockReduceAlgorithm ALG>
__global__ void block_sum(const float *__restrict__ in, float *__restrict__ out, int n)
{
    using Reduce = cub::BlockReduce<float, BLOCK, ALG>;
    __shared__ typename Reduce::TempStorage tmp;
    float items[ITEMS];
    int base = blockIdx.x * BLOCK * ITEMS;
    cub::LoadDirectStriped<BLOCK>(threadIdx.x, in + base, items, n - base, 0.0f);
    float s = Reduce(tmp).Sum(items);
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
}

template <int BLOCK, int ITEMS>
__global__ void block_scan(const int *__restrict__ in, int *__restrict__ out, int n)
{
    using Load = cub::BlockLoad<int, BLOCK, ITEMS, cub::BLOCK_LOAD_TRANSPOSE>;
    using Scan = cub::BlockScan<int, BLOCK>;
    using Store = cub::BlockStore<int, BLOCK, ITEMS, cub::BLOCK_STORE_TRANSPOSE>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Scan::TempStorage scan;
        typename Store::TempStorage store;
    } tmp;
    int items[ITEMS];
    int base = blockIdx.x * BLOCK * ITEMS;
    Load(tmp.load).Load(in + base, items, n - base, 0);
    __syncthreads();
    Scan(tmp.scan).ExclusiveSum(items, items);
    __syncthreads();
    Store(tmp.store).Store(out + base, items, n - base);
}

struct AbsMax {
    __device__ float operator()(float a, float b) const { return fabsf(a) > fabsf(b) ? a : b; }
};

template <int BLOCK>
__global__ void warp_absmax(const float *__restrict__ in, float *__restrict__ out, int n)
{
    using Warp = cub::WarpReduce<float>;
    __shared__ typename Warp::TempStorage tmp[BLOCK / 32];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    float m = Warp(tmp[threadIdx.x / 32]).Reduce(v, AbsMax{});
    if (threadIdx.x % 32 == 0)
        out[i / 32] = m;
}

cudaError_t run_all(const float *xf, float *yf, const int *xi, int *yi, int n, void *scratch,
                    size_t scratch_bytes, cudaStream_t s)
{
    block_sum<128, 4, cub::BLOCK_REDUCE_WARP_REDUCTIONS><<<(n + 511) / 512, 128, 0, s>>>(xf, yf, n);
    block_sum<256, 4, cub::BLOCK_REDUCE_RAKING><<<(n + 1023) / 1024, 256, 0, s>>>(xf, yf, n);
    block_sum<256, 8, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY><<<(n + 2047) / 2048, 256, 0, s>>>(
        xf, yf, n);
    block_scan<128, 8><<<(n + 1023) / 1024, 128, 0, s>>>(xi, yi, n);
    block_scan<256, 4><<<(n + 1023) / 1024, 256, 0, s>>>(xi, yi, n);
    warp_absmax<256><<<(n + 255) / 256, 256, 0, s>>>(xf, yf, n);

    size_t bytes = scratch_bytes;
    cudaError_t e = cub::DeviceReduce::Sum(scratch, bytes, xf, yf, n, s);
    if (e == cudaSuccess)
        e = cub::DeviceReduce::Max(scratch, bytes, xf, yf, n, s);
    if (e == cudaSuccess)
        e = cub::DeviceScan::InclusiveSum(scratch, bytes, xi, yi, n, s);
    return e;
}
