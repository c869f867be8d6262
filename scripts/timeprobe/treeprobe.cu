// treeprobe: what one step of a block's tree in global memory costs (each
// step: the threads below the stride add the word `stride` above theirs in
// place, then __syncthreads), the constant the time model's lockstep
// loops that re-read what another warp stored take from the hardware. One
// wave of blocks of 512 threads (1, 2 or 4 an SM), each over its own 2 KiB,
// read once before timing so the first step does not wait for DRAM; the
// steps are timed in every block by %globaltimer and clock64 and the
// median block reported. Modes: the tree as the reductions write it
// (load, add, store), the same loads without the store, and the barrier
// alone. Run under Nsight Compute as well (treeprobe.sh) for where the
// loads hit.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e = (x);                                                                       \
        if (e != cudaSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e));            \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

enum { TREE, LOADS, BARRIER };
#define THREADS 512

__device__ unsigned long long now_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void tree(int *y, int reps, int mode, unsigned long long *ns, unsigned long long *clk,
                     int *sink)
{
    int *d = y + (long)blockIdx.x * THREADS;
    const unsigned tid = threadIdx.x;
    int acc = d[tid]; // warms L1 with the block's words (all 0)
    __syncthreads();
    unsigned long long t0 = now_ns();
    long long c0 = clock64();
    for (int r = 0; r < reps; r++)
        for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
            if (mode != BARRIER && tid < stride) {
                int v = d[tid + stride];
                if (mode == TREE)
                    d[tid] += v;
                else
                    acc += v;
            }
            __syncthreads();
        }
    long long c1 = clock64();
    unsigned long long t1 = now_ns();
    if (tid == 0) {
        ns[blockIdx.x] = t1 - t0;
        clk[blockIdx.x] = (unsigned long long)(c1 - c0);
    }
    if (acc == 12345)
        *sink = acc;
}

// A barrier step whose loads and stores touch `spread` 4-byte words apart
// (1: a line a warp's request, 32: a line a lane), by the first `warps`
// warps of the block, the rest waiting at the barrier: what each further
// line of a request costs a lockstep iteration.
__global__ void spread_step(int *y, int reps, int spread, int warps, unsigned long long *ns,
                            int *sink)
{
    int *d = y + (long)blockIdx.x * THREADS * 32;
    const unsigned tid = threadIdx.x;
    const bool active = tid < 32u * warps;
    int acc = active ? d[tid * spread] : 0;
    __syncthreads();
    unsigned long long t0 = now_ns();
    for (int r = 0; r < reps; r++) {
        if (active)
            d[tid * spread] += d[tid * spread + (r & 1)];
        __syncthreads();
    }
    unsigned long long t1 = now_ns();
    if (tid == 0)
        ns[blockIdx.x] = t1 - t0;
    if (acc == 12345)
        *sink = acc;
}

static double median_block(const unsigned long long *ns, int blocks)
{
    std::vector<unsigned long long> h(blocks);
    CHECK(cudaMemcpy(h.data(), ns, blocks * sizeof *ns, cudaMemcpyDeviceToHost));
    std::sort(h.begin(), h.end());
    return (double)h[blocks / 2];
}

int main()
{
    int sms;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int reps = 64, steps = 9 * reps, max_blocks = sms * 4;
    int *y, *sink;
    unsigned long long *ns, *clk;
    CHECK(cudaMalloc(&y, (size_t)max_blocks * THREADS * sizeof(int)));
    CHECK(cudaMemset(y, 0, (size_t)max_blocks * THREADS * sizeof(int)));
    CHECK(cudaMalloc(&sink, sizeof(int)));
    CHECK(cudaMalloc(&ns, max_blocks * sizeof *ns));
    CHECK(cudaMalloc(&clk, max_blocks * sizeof *clk));
    int fit;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, tree, THREADS, 0));
    printf("%d SMs, %d blocks of %d threads fit an SM\n", sms, fit, THREADS);
    const char *names[] = {"tree (load, add, store)", "loads, no store", "barrier alone"};
    std::vector<unsigned long long> hn(max_blocks), hc(max_blocks);
    for (int per_sm : {1, 2, 4})
        for (int mode = 0; mode < 3; mode++) {
            int blocks = sms * per_sm;
            tree<<<blocks, THREADS>>>(y, reps, mode, ns, clk, sink); // warm-up
            tree<<<blocks, THREADS>>>(y, reps, mode, ns, clk, sink);
            CHECK(cudaGetLastError());
            CHECK(cudaMemcpy(hn.data(), ns, blocks * sizeof *ns, cudaMemcpyDeviceToHost));
            CHECK(cudaMemcpy(hc.data(), clk, blocks * sizeof *clk, cudaMemcpyDeviceToHost));
            std::sort(hn.begin(), hn.begin() + blocks);
            std::sort(hc.begin(), hc.begin() + blocks);
            printf("%-24s %d block(s) of %d an SM: %.1f ns a step (median block; %.1f - %.1f), "
                   "%.1f clocks a step\n",
                   names[mode], per_sm, THREADS, (double)hn[blocks / 2] / steps,
                   (double)hn[0] / steps, (double)hn[blocks - 1] / steps,
                   (double)hc[blocks / 2] / steps);
        }
    // The spread steps: each block touches at most 4 KiB of its 64 KiB.
    int *z;
    CHECK(cudaMalloc(&z, (size_t)max_blocks * THREADS * 32 * sizeof(int)));
    CHECK(cudaMemset(z, 0, (size_t)max_blocks * THREADS * 32 * sizeof(int)));
    const int spread_reps = 512;
    for (int per_sm : {1, 4})
        for (int warps : {1, 4})
            for (int spread : {1, 2, 4, 8, 16, 32}) {
                if (warps * spread > 32)
                    continue; // past the 4 KiB
                int blocks = sms * per_sm;
                for (int i = 0; i < 2; i++)
                    spread_step<<<blocks, THREADS>>>(z, spread_reps, spread, warps, ns, sink);
                CHECK(cudaGetLastError());
                printf("spread %2d words, %d warp(s) active, %d block(s) an SM: %.1f ns a step\n",
                       spread, warps, per_sm, median_block(ns, blocks) / spread_reps);
            }
    return 0;
}
