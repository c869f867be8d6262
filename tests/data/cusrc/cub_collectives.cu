// CUB block collectives: on integer items they move nothing through global
// memory and do no floating-point work, so the counts stay whole (with the
// shared-memory traffic of their TempStorage said to be left out); on
// float items the operator's adds are not counted and the counts say so.
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

template <int THREADS>
__global__ void histogram_total(const int *in, int *out)
{
    using Reduce = cub::BlockReduce<int, THREADS>;
    __shared__ typename Reduce::TempStorage temp;
    int i = blockIdx.x * THREADS + threadIdx.x;
    int total = Reduce(temp).Sum(in[i]);
    if (threadIdx.x == 0)
        out[blockIdx.x] = total;
}

__global__ void offsets(const unsigned *counts, unsigned *starts)
{
    using Scan = cub::BlockScan<unsigned, 128>;
    __shared__ typename Scan::TempStorage temp;
    int i = blockIdx.x * 128 + threadIdx.x;
    unsigned start;
    Scan(temp).ExclusiveSum(counts[i], start);
    starts[i] = start;
}

__global__ void float_total(const float *in, float *out)
{
    using Reduce = cub::BlockReduce<float, 256>;
    __shared__ typename Reduce::TempStorage temp;
    int i = blockIdx.x * 256 + threadIdx.x;
    float total = Reduce(temp).Sum(in[i]);
    if (threadIdx.x == 0)
        out[blockIdx.x] = total;
}

int main()
{
    int *a, *b;
    unsigned *c, *d;
    float *e, *f;
    cudaMalloc(&a, 1 << 22);
    cudaMalloc(&b, 1 << 22);
    cudaMalloc(&c, 1 << 22);
    cudaMalloc(&d, 1 << 22);
    cudaMalloc(&e, 1 << 22);
    cudaMalloc(&f, 1 << 22);
    histogram_total<256><<<4096, 256>>>(a, b);
    offsets<<<8192, 128>>>(c, d);
    float_total<<<4096, 256>>>(e, f);
    cudaDeviceSynchronize();
    return 0;
}
