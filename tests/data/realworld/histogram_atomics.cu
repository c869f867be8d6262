// A byte histogram privatised in shared memory: per-block bins with shared
// atomics, merged with global atomics; the padded variant spreads warps
// over copies of the bins.
#define BINS 256

__global__ void histogram_shared(const unsigned char *data, unsigned *bins, int n)
{
    __shared__ unsigned local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        atomicAdd(&bins[b], local[b]);
}

__global__ void histogram_replicated(const unsigned char *data, unsigned *bins, int n)
{
    __shared__ unsigned local[8][BINS + 1];
    const int copy = (threadIdx.x / 32) % 8;
    for (int b = threadIdx.x; b < 8 * (BINS + 1); b += blockDim.x)
        (&local[0][0])[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[copy][data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned total = 0;
        for (int c = 0; c < 8; ++c)
            total += local[c][b];
        atomicAdd(&bins[b], total);
    }
}

void histogram(const unsigned char *d, unsigned *bins, int n)
{
    histogram_shared<<<264, 512>>>(d, bins, n);
    histogram_replicated<<<264, 512>>>(d, bins, n);
}
