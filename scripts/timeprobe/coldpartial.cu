// coldpartial: stores that write part of a sector into a cold L2, and
// whether DRAM reads the rest of each sector. Every kernel stores 8-byte
// words over a span of `words` doubles; under Nsight Compute's default
// cache control L2 is flushed before each launch, as in the HeCBench
// truth set. HeCBench ace's boundary kernels (fitting half) store one
// double into each of 316,808 sectors and read 8.2 MB from DRAM for it.
//
//   cp_whole   every word: whole sectors (the baseline)
//   cp_half    words 0 and 1 of each 4-word sector: 16 of 32 bytes
//   cp_sector  word 0 of each sector: 8 of 32 bytes, sectors side by side
//   cp_line    word 0 of each 128-byte line: 8 bytes, one sector a line
//   cp_far     word 0 of each 400-word row (3,200 bytes apart), as ace's
//              face iz == 0 is written
//
// Each is launched over 16 MiB and 256 MiB spans; a cudaEvent median of
// 5 launches after a warm-up goes to stdout (warm L2: the span's lines are
// resident and dirty from the launch before where they fit).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void cp_whole(double *a, long words)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < words)
        a[i] = 1.0;
}

__global__ void cp_half(double *a, long words)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    long w = 4 * (i / 2) + i % 2;
    if (w < words)
        a[w] = 1.0;
}

__global__ void cp_sector(double *a, long words)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (4 * i < words)
        a[4 * i] = 1.0;
}

__global__ void cp_line(double *a, long words)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (16 * i < words)
        a[16 * i] = 1.0;
}

__global__ void cp_far(double *a, long words)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (400 * i < words)
        a[400 * i] = 1.0;
}

typedef void (*kernel_t)(double *, long);

int main()
{
    const struct {
        const char *name;
        kernel_t k;
        long per_thread; // words of span a thread stands for
        long threads_per; // threads per that span
    } kinds[] = {{"whole", cp_whole, 1, 1}, {"half", cp_half, 4, 2}, {"sector", cp_sector, 4, 1},
                 {"line", cp_line, 16, 1}, {"far", cp_far, 400, 1}};
    double *a;
    const long most = (256L << 20) / 8;
    CHECK(cudaMalloc(&a, most * 8));
    CHECK(cudaMemset(a, 0, most * 8));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    printf("kind,span_bytes,threads,us\n");
    for (long span : {16L << 20, 256L << 20}) {
        long words = span / 8;
        for (auto &k : kinds) {
            long threads = (words + k.per_thread - 1) / k.per_thread * k.threads_per;
            long blocks = (threads + 255) / 256;
            std::vector<float> ms;
            for (int rep = 0; rep < 6; rep++) {
                CHECK(cudaEventRecord(e0));
                k.k<<<blocks, 256>>>(a, words);
                CHECK(cudaEventRecord(e1));
                CHECK(cudaEventSynchronize(e1));
                float t;
                CHECK(cudaEventElapsedTime(&t, e0, e1));
                if (rep)
                    ms.push_back(t);
            }
            std::sort(ms.begin(), ms.end());
            printf("%s,%ld,%ld,%.2f\n", k.name, span, threads, 1000 * ms[ms.size() / 2]);
        }
    }
    CHECK(cudaDeviceSynchronize());
    return 0;
}
