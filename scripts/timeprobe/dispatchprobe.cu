// dispatchprobe: how long an SM takes to be handed the blocks of a launch's
// first wave. Empty blocks retire as soon as they start, so an empty
// kernel's time with n blocks an SM is the launch plus handing out n blocks
// (and retiring them); blocks that each wait a fixed number of clocks show
// whether the last block of a full first wave starts later than the first,
// which is what the time model adds to a launch (docs/roofline.md). Block
// sizes 64, 256 and 1024 threads tell a cost per block from one per warp.
// Every shape twice (read the second; Nsight Compute flushes the caches
// before both). Run under Nsight Compute (card-more.sh).
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void empty_kernel() {}

// Each block waits `cycles` SM clocks from its own start.
__global__ void wait_kernel(long long cycles, int *out)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
    if (cycles < 0)
        out[0] = 1;
}

int main()
{
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int *out;
    CHECK(cudaMalloc(&out, 4));
    const int threads[] = {64, 256, 1024};
    printf("dispatchprobe: %d SMs; per block size, blocks an SM 1, 2, 4, ... up to one wave "
           "(2048 threads an SM, 32 blocks), and 16 an SM;\n"
           "each shape: empty x2, then wait_kernel(3000 clocks) x2\n", sms);
    for (int t : threads) {
        int wave = 2048 / t < 32 ? 2048 / t : 32;
        for (int n = 1; n <= 32; n *= 2) {
            if (n > wave && n != 16)
                continue;
            for (int rep = 0; rep < 2; rep++)
                empty_kernel<<<sms * n, t>>>();
            if (n <= wave)
                for (int rep = 0; rep < 2; rep++)
                    wait_kernel<<<sms * n, t>>>(3000, out);
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
            printf("  %4d threads, %2d blocks an SM (%d blocks)%s\n", t, n, sms * n,
                   n <= wave ? "" : ": empty only, past one wave");
        }
    }
    CHECK(cudaFree(out));
    return 0;
}
