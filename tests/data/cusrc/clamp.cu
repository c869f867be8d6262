// A size clamped in host code, as CRC64's and many samples' launchers do:
// `threads` starts at a constant and an if lowers it for a small input, so
// no single assignment reaches the launch; its value there is the if's
// choice, decided once `bytes` has a value (one launch per call of run).
#include <cuda_runtime.h>

__global__ void bump(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}

static void run(float *x, int bytes)
{
    int threads = 96 * 8 * 32;
    if (bytes < threads * 64)
        threads = bytes / 64;
    int blocks = threads / 64;
    bump<<<blocks, 64>>>(x, threads);
}

int main()
{
    float *x;
    cudaMalloc(&x, 1 << 24);
    run(x, 1 << 20); /* clamped: 16384 threads */
    run(x, 1 << 24); /* not: 24576 */
    cudaDeviceSynchronize();
    return 0;
}
