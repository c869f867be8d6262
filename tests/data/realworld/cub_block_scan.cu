// Stream compaction with CUB's block-wide primitives: load, scan, store,
// each specialised on the block size and items per thread.
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

template <int THREADS, int ITEMS>
__global__ void compact_positive(const int *in, int *out, int *block_counts, int n)
{
    using Load = cub::BlockLoad<int, THREADS, ITEMS, cub::BLOCK_LOAD_TRANSPOSE>;
    using Scan = cub::BlockScan<int, THREADS>;
    using Store = cub::BlockStore<int, THREADS, ITEMS, cub::BLOCK_STORE_TRANSPOSE>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Scan::TempStorage scan;
        typename Store::TempStorage store;
    } temp;

    const int base = blockIdx.x * THREADS * ITEMS;
    int items[ITEMS], flags[ITEMS], slots[ITEMS];
    Load(temp.load).Load(in + base, items, n - base, 0);
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
        flags[i] = items[i] > 0;
    int total;
    Scan(temp.scan).ExclusiveSum(flags, slots, total);
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
        if (flags[i])
            out[base + slots[i]] = items[i];
    if (threadIdx.x == 0)
        block_counts[blockIdx.x] = total;
}

void compact(const int *in, int *out, int *counts, int n)
{
    constexpr int threads = 128, items = 8;
    int blocks = (n + threads * items - 1) / (threads * items);
    compact_positive<threads, items><<<blocks, threads>>>(in, out, counts, n);
}
