// barrierprobe: what one iteration of a loop whose body ends in
// __syncthreads costs a block, with and without a global store before the
// barrier: the constant the time model's lockstep loops (a tree reduction
// in global memory, a tiled loop) take from the hardware, not from the
// kernels it is judged on. Each thread follows a dependent chain of loads
// that L1 serves (the block's own 2 KiB, read before), so an iteration is
// one L1 hit, then (by mode) a store of the same word, a barrier, or both.
// Timed by clock64 in thread 0 and by events over the whole launch.
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

enum { STORE = 1, BARRIER = 2 };

__global__ void step(int *y, int steps, int mode, unsigned long long *clocks, int *sink)
{
    int *d = y + (long)blockIdx.x * blockDim.x;
    unsigned t = threadIdx.x;
    int acc = d[t]; // the block's words are 0: acc stays 0, unknown to nvcc
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < steps; i++) {
        int v = d[(t + 1 + i + acc) % blockDim.x];
        acc += v;
        if (mode & STORE)
            d[t] = acc;
        if (mode & BARRIER)
            __syncthreads();
    }
    long long t1 = clock64();
    if (t == 0 && blockIdx.x == 0)
        clocks[0] = (unsigned long long)(t1 - t0);
    if (acc == 12345)
        *sink = acc;
}

int main()
{
    int sms;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int threads = 512, steps = 4096;
    int *y, *sink;
    unsigned long long *clk;
    CHECK(cudaMalloc(&y, (size_t)sms * 4 * threads * sizeof(int)));
    CHECK(cudaMemset(y, 0, (size_t)sms * 4 * threads * sizeof(int)));
    CHECK(cudaMalloc(&sink, sizeof(int)));
    CHECK(cudaMalloc(&clk, sizeof *clk));
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    const char *names[] = {"load", "load+store", "load+barrier", "load+store+barrier"};
    for (int per_sm : {1, 4})
        for (int mode = 0; mode < 4; mode++) {
            float best = 1e30f;
            unsigned long long h = 0;
            for (int rep = 0; rep < 5; rep++) {
                CHECK(cudaEventRecord(a));
                step<<<sms * per_sm, threads>>>(y, steps, mode, clk, sink);
                CHECK(cudaEventRecord(b));
                CHECK(cudaEventSynchronize(b));
                float ms;
                CHECK(cudaEventElapsedTime(&ms, a, b));
                best = ms < best ? ms : best;
                CHECK(cudaMemcpy(&h, clk, sizeof h, cudaMemcpyDeviceToHost));
            }
            printf("step %-20s %d block(s) of %d per SM: %.1f clocks an iteration (thread 0), "
                   "%.2f ns an iteration (launch, best of 5)\n",
                   names[mode], per_sm, threads, (double)h / steps, best * 1e6 / steps);
        }
    return 0;
}
