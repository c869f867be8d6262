// launchprobe: what a launch costs besides its work. An empty kernel is the
// floor, but a kernel that stores cannot end before its stores reach L2,
// and real kernels store; so the same launch with one store, with a load
// and a store, and with a warp's 32 stores, at 1, 132 and 2112 blocks.
// Each launch twice (the second is the one to read: Nsight Compute flushes
// the caches before both). Run under Nsight Compute (card-truth.sh).
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void empty_kernel() {}

// Thread 0 of each block stores one word (a block's own line).
__global__ void store_one(int *p)
{
    if (threadIdx.x == 0)
        p[blockIdx.x * 32] = 1;
}

// Thread 0 of each block loads one word from DRAM and stores it.
__global__ void load_store_one(const int *a, int *p)
{
    if (threadIdx.x == 0)
        p[blockIdx.x * 32] = a[blockIdx.x * 32] + 1;
}

// Each thread of the first warp of each block stores one word: one
// coalesced 128-byte request a block.
__global__ void store_warp(int *p)
{
    if (threadIdx.x < 32)
        p[blockIdx.x * 32 + threadIdx.x] = 1;
}

int main()
{
    int *a, *p;
    CHECK(cudaMalloc(&a, 2112 * 128));
    CHECK(cudaMalloc(&p, 2112 * 128));
    CHECK(cudaMemset(a, 0, 2112 * 128));
    // Launch IDs: 6 per grid shape (empty, store_one, load_store_one,
    // store_warp... each twice): 0-7 at 1 block of 32, 8-15 at 132 blocks
    // of 256, 16-23 at 2112 blocks of 256.
    const struct { int blocks, threads; } shapes[] = {{1, 32}, {132, 256}, {2112, 256}};
    for (auto s : shapes) {
        for (int rep = 0; rep < 2; rep++) empty_kernel<<<s.blocks, s.threads>>>();
        for (int rep = 0; rep < 2; rep++) store_one<<<s.blocks, s.threads>>>(p);
        for (int rep = 0; rep < 2; rep++) load_store_one<<<s.blocks, s.threads>>>(a, p);
        for (int rep = 0; rep < 2; rep++) store_warp<<<s.blocks, s.threads>>>(p);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
    }
    printf("launchprobe: empty, store_one, load_store_one, store_warp x2 at 1x32, 132x256, 2112x256\n");
    return 0;
}
