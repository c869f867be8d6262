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
// in L1 what it read before and repeated passes are served by L2.
__global__ void read_bw(const float4 *a, long n4, int passes, float *out)
{
    float s = 0;
    long stride = (long)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4; i += stride) {
            float4 v = a[(i + p * (n4 / 3 + 7)) % n4];
            s += v.x + v.y + v.z + v.w;
        }
    if (s == 12345.f)
        *out = s;
}

static void run_chase(const char *name, size_t bytes, int steps, unsigned *out)
{
    // One element per 128-byte line, visited in a random cycle so that no
    // prefetch or sector reuse helps.
    size_t stride = 32, lines = bytes / 128;
    std::vector<unsigned> order(lines), next(lines * stride, 0);
    for (size_t i = 0; i < lines; i++)
        order[i] = (unsigned)i;
    std::shuffle(order.begin() + 1, order.end(), std::mt19937(7));
    for (size_t i = 0; i < lines; i++)
        next[order[i] * stride] = order[(i + 1) % lines] * stride;
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
    return 0;
}
