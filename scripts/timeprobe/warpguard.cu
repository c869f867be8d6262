// warpguard: a block-stride loop that only some warps of the block run.
// Each block walks its own slice of n floats; `all` with every thread,
// `upper` with threads 256-511 (their index less 256, as moe-align's
// counting threads past a fill group), `lower` with threads 0-255, `odd`
// with the odd warps. upper and lower do the same work, so they take the
// same time; a model that walks only the first warp sees upper load
// nothing. Run by scripts/timeprobe/warpguard.sh under Nsight Compute.
#include <cstdio>

__global__ void wg_all(float *x, int n)
{
    float *s = x + (size_t)blockIdx.x * n;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s[i] += 1.0f;
}

__global__ void wg_upper(float *x, int n)
{
    float *s = x + (size_t)blockIdx.x * n;
    if (threadIdx.x >= 256)
        for (int i = threadIdx.x - 256; i < n; i += blockDim.x - 256)
            s[i] += 1.0f;
}

__global__ void wg_lower(float *x, int n)
{
    float *s = x + (size_t)blockIdx.x * n;
    if (threadIdx.x < 256)
        for (int i = threadIdx.x; i < n; i += 256)
            s[i] += 1.0f;
}

__global__ void wg_odd(float *x, int n)
{
    float *s = x + (size_t)blockIdx.x * n;
    if ((threadIdx.x / 32) % 2 == 1)
        for (int i = threadIdx.x / 64 * 32 + threadIdx.x % 32; i < n; i += 256)
            s[i] += 1.0f;
}

int main()
{
    const int n = 100000, blocks = 132;
    float *x;
    if (cudaMalloc(&x, (size_t)blocks * n * sizeof(float)) != cudaSuccess)
        return 1;
    cudaMemset(x, 0, (size_t)blocks * n * sizeof(float));
    wg_all<<<blocks, 512>>>(x, n);
    wg_upper<<<blocks, 512>>>(x, n);
    wg_lower<<<blocks, 512>>>(x, n);
    wg_odd<<<blocks, 512>>>(x, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("warpguard: %s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
