// hotlineprobe: stores that every block of a launch makes to the same
// addresses (HeCBench's blockScan writes one 4 KB tile from each of its
// 2.2 million blocks). L2 serves the writes to one 128-byte line one after
// another; this measures how long each takes, and whether lines in
// different places proceed side by side, for gpulint's hot-line term
// (docs/timing.md). One line per launch on stdout:
//
//   kind,lines,grid,block,us
//
//   same      every block writes the same `lines` lines, each once (a
//             warp stores 32 floats: one full line a request)
//   scalar    every block's thread 0 stores one float to the same address
//   distinct  each block writes its own `lines` lines (the baseline)
//
// Times are the median of 7 launches, cudaEvent-timed, after a warm-up.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void same(float *out, int lines)
{
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
    for (int j = warp; j < lines; j += warps)
        out[j * 32 + lane] = (float)blockIdx.x;
}

__global__ void scalar(float *out)
{
    if (threadIdx.x == 0)
        out[0] = (float)blockIdx.x;
}

__global__ void distinct(float *out, int lines)
{
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
    long base = (long)blockIdx.x * lines * 32;
    for (int j = warp; j < lines; j += warps)
        out[base + j * 32 + lane] = (float)blockIdx.x;
}

template <typename F> static float median_us(F launch)
{
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    launch();
    CHECK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int r = 0; r < 7; r++) {
        CHECK(cudaEventRecord(a));
        launch();
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms * 1000.0f);
    }
    std::sort(t.begin(), t.end());
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    return t[3];
}

int main()
{
    float *out;
    size_t max_floats = (size_t)1 << 28; /* 1 GB: distinct's largest */
    CHECK(cudaMalloc(&out, max_floats * sizeof(float)));
    const int grids[] = {1056, 8448, 67584, 540672};
    const int lines_of[] = {1, 2, 8, 32, 128, 512};
    const int blocks[] = {128, 1024};
    for (int block : blocks)
        for (int grid : grids)
            for (int lines : lines_of) {
                float us = median_us([&] { same<<<grid, block>>>(out, lines); });
                printf("same,%d,%d,%d,%.3f\n", lines, grid, block, us);
                if ((size_t)grid * lines * 32 <= max_floats) {
                    us = median_us([&] { distinct<<<grid, block>>>(out, lines); });
                    printf("distinct,%d,%d,%d,%.3f\n", lines, grid, block, us);
                }
            }
    for (int grid : grids) {
        float us = median_us([&] { scalar<<<grid, 128>>>(out); });
        printf("scalar,1,%d,128,%.3f\n", grid, us);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaFree(out));
    return 0;
}
