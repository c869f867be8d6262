// timeprobe: the constants gpulint's time model takes from the hardware
// rather than from the kernels it is judged on: the time of an empty launch,
// the latency of a dependent load served by L1, L2 and DRAM, and the read
// bandwidth of L2 and DRAM. Run under Nsight Compute (run.sh), which also
// reports the units' peak rates per clock and the clocks it locked.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <random>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void empty_kernel() {}

// One thread follows a random cycle: every load waits for the one before.
__global__ void chase(const unsigned *next, int steps, unsigned *out)
{
    unsigned j = 0;
    for (int i = 0; i < steps; i++)
        j = next[j];
    *out = j;
}

// Every thread reads 16-byte vectors, grid-stride, `passes` times over n4;
// each pass starts a third of the way further, so that a block never meets
// in L1 what it read before and repeated passes are served by L2. The
// wrap is a compare and a subtract: a 64-bit remainder per load (as this
// probe had until 2026-11-28) is a software division whose instructions,
// not DRAM, bounded the probe on most cards (tests/data/timeprobe/README.md).
__global__ void read_bw(const float4 *a, long n4, int passes, float *out)
{
    float s = 0;
    long stride = (long)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++) {
        long shift = p * (n4 / 3 + 7) % n4;
        for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4; i += stride) {
            long j = i + shift;
            float4 v = a[j >= n4 ? j - n4 : j];
            s += v.x + v.y + v.z + v.w;
        }
    }
    if (s == 12345.f)
        *out = s;
}

// The chase again, timed inside the kernel: `warm` steps bring the cycle
// into the caches that can hold it, then `steps` more are timed with the SM
// clock, so that the latency of an L2 hit is measured with a warm L2 even
// though Nsight Compute flushes the caches before each launch.
__global__ void chase_timed(const unsigned *next, int warm, int steps, unsigned long long *out)
{
    unsigned j = 0;
    for (int i = 0; i < warm; i++)
        j = next[j];
    long long t0 = clock64();
    for (int i = 0; i < steps; i++)
        j = next[j];
    long long t1 = clock64();
    out[0] = j;
    out[1] = (unsigned long long)(t1 - t0);
}

// L2 bandwidth: every thread reads 16-byte vectors through L2 only
// (ld.global.cg), grid-stride with 32-bit indices and four loads in flight,
// `passes` times over a buffer that L2 holds; the first pass fills L2.
__global__ void read_l2(const float4 *a, int n4, int passes, float *out)
{
    float s = 0;
    int stride = gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i + 3 * stride < n4; i += 4 * stride) {
            float4 v0 = __ldcg(a + i), v1 = __ldcg(a + i + stride);
            float4 v2 = __ldcg(a + i + 2 * stride), v3 = __ldcg(a + i + 3 * stride);
            s += v0.x + v1.y + v2.z + v3.w;
        }
    if (s == 12345.f)
        *out = s;
}

// The same for stores: L2 is write-back, so repeated passes over a buffer
// it holds stay in L2.
__global__ void write_l2(float4 *a, int n4, int passes)
{
    int stride = gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride)
            __stcg(a + i, make_float4(p, p, p, p));
}

// `y[t] += x[i]` with y and x free to alias, as in the accumulating loops
// of polybench's atax, bicg, mvt or correlation: the compiler keeps y[t] in
// a register but must store it every iteration, and the next iteration's
// load of x[i] may not pass that store, which waits for this iteration's
// load: one load's latency an iteration, however many warps. With
// `chains` = 2 (y and y + n, two statements) the second statement's load
// waits for the first's store too. Timed inside the kernel too.
__global__ void reload(float *y, const float *x, int n, int steps, int chains,
                       unsigned long long *clocks)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    long long t0 = clock64();
    if (chains == 1)
        for (int i = 0; i < steps; i++)
            y[t] += x[i];
    else
        for (int i = 0; i < steps; i++) {
            y[t] += x[i];
            y[n + t] += x[i];
        }
    long long t1 = clock64();
    if (t == 0)
        clocks[0] = (unsigned long long)(t1 - t0);
}

// DRAM read and write together: every thread copies 16-byte vectors,
// grid-stride, from one buffer to another too large for L2 to keep what
// is written, so both directions reach DRAM at once.
__global__ void copy_bw(const float4 *a, float4 *b, long n4)
{
    long stride = (long)gridDim.x * blockDim.x;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4; i += stride)
        b[i] = a[i];
}

// Stores that write part of a sector: each lane writes 4 bytes into a
// sector of its own (a 128-byte stride, as a naive transpose's column
// writes do), `passes` times over a buffer L2 holds; the first pass fills
// L2. Beside it the same bytes written whole, a lane after a lane.
__global__ void write_partial(float *a, int lines, int passes, int whole)
{
    int stride = gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < lines; i += stride)
            a[whole ? i : (long)i * 32] = (float)p;
}

// One element per 128-byte line, visited in a random cycle so that no
// prefetch or sector reuse helps.
static std::vector<unsigned> cycle(size_t bytes, unsigned seed)
{
    size_t stride = 32, lines = bytes / 128;
    std::vector<unsigned> order(lines), next(lines * stride, 0);
    for (size_t i = 0; i < lines; i++)
        order[i] = (unsigned)i;
    std::shuffle(order.begin() + 1, order.end(), std::mt19937(seed));
    for (size_t i = 0; i < lines; i++)
        next[order[i] * stride] = order[(i + 1) % lines] * stride;
    return next;
}

static void run_chase_timed(const char *name, size_t bytes, int steps)
{
    size_t lines = bytes / 128;
    std::vector<unsigned> next = cycle(bytes, 11);
    unsigned *d;
    unsigned long long *o, h[2];
    CHECK(cudaMalloc(&d, next.size() * 4));
    CHECK(cudaMalloc(&o, sizeof h));
    CHECK(cudaMemcpy(d, next.data(), next.size() * 4, cudaMemcpyHostToDevice));
    chase_timed<<<1, 1>>>(d, (int)lines, steps, o);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost));
    printf("chase_timed %s: %zu bytes, %d warm + %d timed steps: %.1f clocks per load\n", name,
           bytes, (int)lines, steps, (double)h[1] / steps);
    CHECK(cudaFree(d));
    CHECK(cudaFree(o));
}

static void run_chase(const char *name, size_t bytes, int steps, unsigned *out)
{
    std::vector<unsigned> next = cycle(bytes, 7);
    unsigned *d;
    CHECK(cudaMalloc(&d, next.size() * 4));
    CHECK(cudaMemcpy(d, next.data(), next.size() * 4, cudaMemcpyHostToDevice));
    chase<<<1, 1>>>(d, steps, out); // warms the caches that can hold it
    chase<<<1, 1>>>(d, steps, out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("chase %s: %zu bytes, %d steps\n", name, bytes, steps);
    CHECK(cudaFree(d));
}

int main()
{
    unsigned *out;
    CHECK(cudaMalloc(&out, 64));
    empty_kernel<<<1, 32>>>();
    empty_kernel<<<132 * 16, 256>>>();
    CHECK(cudaDeviceSynchronize());
    run_chase("l1", 16 << 10, 4096, out);
    run_chase("l2", 8 << 20, 4096, out);
    run_chase("dram", 1u << 30, 4096, out);
    int sms;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    for (size_t mb : {16, 2048}) {
        long n4 = (long)(mb << 20) / 16;
        float4 *a;
        CHECK(cudaMalloc(&a, n4 * 16));
        CHECK(cudaMemset(a, 1, n4 * 16));
        int passes = mb == 16 ? 20 : 1;
        read_bw<<<sms * 8, 256>>>(a, n4, passes, (float *)out);
        read_bw<<<sms * 8, 256>>>(a, n4, passes, (float *)out);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        printf("read_bw %zu MB x %d passes\n", mb, passes);
        CHECK(cudaFree(a));
    }
    // Appended after launches 0-11 so that their IDs stay as recorded.
    run_chase_timed("l1", 16 << 10, 4096);  // launch 12
    run_chase_timed("l2", 8 << 20, 4096);   // launch 13
    {
        int n4 = (24 << 20) / 16; // 24 MiB: half of the H100's L2
        float4 *a;
        CHECK(cudaMalloc(&a, (size_t)n4 * 16));
        CHECK(cudaMemset(a, 1, (size_t)n4 * 16));
        for (int passes : {1, 41}) // launches 14, 15: the second less the first
            read_l2<<<sms * 8, 256>>>(a, n4, passes, (float *)out);
        for (int passes : {1, 41}) // launches 16, 17
            write_l2<<<sms * 8, 256>>>(a, n4, passes);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        printf("read_l2, write_l2: 24 MB x 1 and 41 passes\n");
        CHECK(cudaFree(a));
    }
    {
        // Launches 18-21: one warp, then 16 blocks of 256 threads (the
        // polybench kernels' 4096 threads), one chain and two, 4096 steps.
        int n = 4096, steps = 4096;
        float *y, *x;
        unsigned long long *clk, h;
        CHECK(cudaMalloc(&y, 2 * n * sizeof(float)));
        CHECK(cudaMalloc(&x, steps * sizeof(float)));
        CHECK(cudaMalloc(&clk, sizeof h));
        CHECK(cudaMemset(y, 0, 2 * n * sizeof(float)));
        CHECK(cudaMemset(x, 0, steps * sizeof(float)));
        for (int blocks : {1, 16})
            for (int chains : {1, 2}) {
                int threads = blocks == 1 ? 32 : 256;
                reload<<<blocks, threads>>>(y, x, n, steps, chains, clk);
                CHECK(cudaGetLastError());
                CHECK(cudaMemcpy(&h, clk, sizeof h, cudaMemcpyDeviceToHost));
                printf("reload %d x %d threads, %d chain(s): %.1f clocks per iteration\n", blocks,
                       threads, chains, (double)h / steps);
            }
        CHECK(cudaFree(y));
        CHECK(cudaFree(x));
        CHECK(cudaFree(clk));
    }
    {
        // Launches 22-23: a 1 GiB copy (warm-up, measured); 24-27: partial
        // and whole-sector stores over 24 MiB of lines, 1 and 41 passes.
        long n4 = (1L << 30) / 16;
        float4 *a, *b;
        CHECK(cudaMalloc(&a, n4 * 16));
        CHECK(cudaMalloc(&b, n4 * 16));
        CHECK(cudaMemset(a, 1, n4 * 16));
        for (int i = 0; i < 2; i++)
            copy_bw<<<sms * 8, 256>>>(a, b, n4);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        printf("copy_bw 1 GiB\n");
        CHECK(cudaFree(b));
        int lines = (24 << 20) / 128; // 24 MiB of 128-byte lines
        for (int whole : {0, 1})
            for (int passes : {1, 41})
                write_partial<<<sms * 8, 256>>>((float *)a, whole ? lines * 32 : lines, passes,
                                                whole);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        printf("write_partial: 24 MiB, 4 bytes a line and whole lines, 1 and 41 passes\n");
        CHECK(cudaFree(a));
    }
    {
        // Launches 28, 29: 262,144 empty blocks of 256 threads at the 8 an
        // SM that fit, then at one an SM (unused dynamic shared memory over
        // half the SM's): the least time between two blocks an SM starts
        // (block_interval_ns) and an empty block's whole life
        // (block_serial_ns), each the launch over the blocks an SM gets.
        int per_sm_smem, fit[2];
        CHECK(cudaDeviceGetAttribute(&per_sm_smem, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
        size_t one = (size_t)per_sm_smem / 2 + 1024;
        CHECK(cudaFuncSetAttribute(empty_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)one));
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit[0], empty_kernel, 256, 0));
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit[1], empty_kernel, 256, one));
        empty_kernel<<<262144, 256>>>();
        empty_kernel<<<262144, 256, one>>>();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        printf("empty_kernel 262144 x 256 threads: %d and %d blocks an SM (%zu B dynamic)\n", fit[0],
               fit[1], one);
    }
    return 0;
}
