// partialprobe: what L2 takes to absorb stores that write part of a
// sector, told apart from how many lines a request spans and how many of
// a line's sectors it writes. Each warp request stores 32 words of 4 or 8
// bytes, lane i at word i * spread, over a 24 MiB buffer that L2 keeps (so
// no DRAM), 41 passes. 4-byte words, spread 1: 4 whole sectors in one
// line; 2: 8 half sectors in 2 lines; 8: 32 sectors of one word in 8
// lines (all 4 sectors of each); 16: 32 sectors in 16 lines (2 of each);
// 32: 32 sectors, each in a line of its own (timeprobe.cu's
// write_partial). 8-byte words, spread 2: the 4 sectors of 16 lines, half
// of each; 8: 2 sectors of a line, a quarter of each (lulesh's hgc). The
// sectors and lines a request writes are counted from its addresses.
// Sectors a second from the time of 41 passes less the time of 1.
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

template <typename T>
__global__ void store_spread(T *a, long words, int spread, int passes)
{
    long warps = (long)gridDim.x * blockDim.x / 32;
    long warp = ((long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    long span = 32L * spread; // words one request covers
    long requests = words / span;
    for (int p = 0; p < passes; p++)
        for (long r = warp; r < requests; r += warps)
            a[r * span + lane * spread] = (T)p;
}

// Distinct units of `unit` bytes the 32 lanes of one request write.
static int distinct(int size, int spread, int unit)
{
    int n = 0, last = -1;
    for (int lane = 0; lane < 32; lane++) {
        int u = lane * spread * size / unit;
        n += u != last;
        last = u;
    }
    return n;
}

template <typename T>
static void run(int sms, void *buf, long bytes, int spread, cudaEvent_t e0, cudaEvent_t e1)
{
    long words = bytes / (long)sizeof(T);
    float ms[2];
    int passes[2] = {1, 41};
    for (int k = 0; k < 2; k++) {
        float best = 1e30f;
        for (int rep = 0; rep < 3; rep++) {
            CHECK(cudaEventRecord(e0));
            store_spread<T><<<sms * 8, 256>>>((T *)buf, words, spread, passes[k]);
            CHECK(cudaEventRecord(e1));
            CHECK(cudaEventSynchronize(e1));
            float t;
            CHECK(cudaEventElapsedTime(&t, e0, e1));
            best = t < best ? t : best;
        }
        ms[k] = best;
    }
    long requests = words / (32L * spread);
    long sectors = requests * distinct((int)sizeof(T), spread, 32);
    long lines = requests * distinct((int)sizeof(T), spread, 128);
    double s = (ms[1] - ms[0]) * 1e-3 / 40;
    printf("%d-byte spread %2d: %ld requests, %ld sectors, %ld lines a pass; %.1f us a pass: "
           "%.3g sectors/s (%.3g TB/s at 32 B), %.3g lines/s\n",
           (int)sizeof(T), spread, requests, sectors, lines, s * 1e6, sectors / s,
           32.0 * sectors / s / 1e12, lines / s);
}

int main()
{
    int sms;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const long bytes = 24L << 20;
    void *a;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMemset(a, 0, bytes));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    for (int spread : {1, 2, 4, 8, 16, 32})
        run<float>(sms, a, bytes, spread, e0, e1);
    for (int spread : {1, 2, 4, 8, 16})
        run<double>(sms, a, bytes, spread, e0, e1);
    return 0;
}
