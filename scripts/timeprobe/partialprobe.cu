// partialprobe: what L2 takes to absorb stores that write part of a
// sector, told apart from how many lines a request spans. Each warp
// request stores 32 words of 4 bytes, lane i at word i * spread, over a
// 24 MiB buffer that L2 keeps (so no DRAM), 41 passes. spread 1: 4 whole
// sectors in one line; 2: 8 half sectors in 2 lines; 8: 32 sectors of one
// word in 8 lines; 32: 32 sectors of one word, each in a line of its own
// (timeprobe.cu's write_partial). Sectors a second from the time of 41
// passes less the time of 1.
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void store_spread(float *a, long words, int spread, int passes)
{
    long warps = (long)gridDim.x * blockDim.x / 32;
    long warp = ((long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    long span = 32L * spread; // words one request covers
    long requests = words / span;
    for (int p = 0; p < passes; p++)
        for (long r = warp; r < requests; r += warps)
            a[r * span + lane * spread] = (float)p;
}

int main()
{
    int sms;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const long words = (24L << 20) / 4;
    float *a;
    CHECK(cudaMalloc(&a, words * 4));
    CHECK(cudaMemset(a, 0, words * 4));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    for (int spread : {1, 2, 8, 32}) {
        float ms[2];
        int passes[2] = {1, 41};
        for (int k = 0; k < 2; k++) {
            float best = 1e30f;
            for (int rep = 0; rep < 3; rep++) {
                CHECK(cudaEventRecord(e0));
                store_spread<<<sms * 8, 256>>>(a, words, spread, passes[k]);
                CHECK(cudaEventRecord(e1));
                CHECK(cudaEventSynchronize(e1));
                float t;
                CHECK(cudaEventElapsedTime(&t, e0, e1));
                best = t < best ? t : best;
            }
            ms[k] = best;
        }
        long requests = words / (32L * spread);
        long sectors = requests * (spread == 1 ? 4 : spread == 2 ? 8 : 32);
        long lines = requests * (spread == 1 ? 1 : spread == 2 ? 2 : spread == 8 ? 8 : 32);
        double s = (ms[1] - ms[0]) * 1e-3 / 40;
        printf("spread %2d: %ld requests, %ld sectors, %ld lines a pass; %.1f us a pass: "
               "%.3g sectors/s (%.3g TB/s at 32 B), %.3g lines/s\n",
               spread, requests, sectors, lines, s * 1e6, sectors / s, 32.0 * sectors / s / 1e12,
               lines / s);
    }
    return 0;
}
