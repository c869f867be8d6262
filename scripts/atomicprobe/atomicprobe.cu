// How fast many threads' atomics land when they aim at K addresses: the
// contention a histogram's atomicAdd meets (HeCBench bincount). Every
// thread of a 2^24-thread grid adds 1 to out[h(i) % K], its address spread
// by a hash so that a warp's lanes hit K addresses as a uniform draw
// would; global memory (RED, the result unused, and ATOM, the result
// used), and a block's shared copy (K bins per block). Times by CUDA
// events, the best of five. Prints "kind K ms G_atomics_per_s".
#include <cstdio>

__device__ __forceinline__ unsigned mix(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

__global__ void red_global(int *out, unsigned k)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&out[mix(i) % k], 1);
}

__global__ void atom_global(int *out, unsigned k, int *sink)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    int old = atomicAdd(&out[mix(i) % k], 1);
    if (old == -1)
        sink[0] = i; /* never: keeps the returned value live */
}

__global__ void red_shared(int *out, unsigned k)
{
    extern __shared__ int bins[];
    for (unsigned b = threadIdx.x; b < k; b += blockDim.x)
        bins[b] = 0;
    __syncthreads();
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&bins[mix(i) % k], 1);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x % 1024] = bins[0];
}

int main()
{
    const unsigned n = 1u << 24, threads = 256, blocks = n / threads;
    int *out, *sink;
    cudaMalloc(&out, (size_t)n * sizeof(int));
    cudaMalloc(&sink, sizeof(int));
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    const unsigned ks[] = {1, 8, 32, 256, 768, 4096, 24576, 1u << 20, 1u << 24};
    for (int kind = 0; kind < 3; kind++)
        for (unsigned k : ks) {
            if (kind == 2 && k > 12288)
                continue; /* 48 KB of bins a block */
            float best = -1;
            for (int rep = 0; rep < 5; rep++) {
                cudaMemset(out, 0, (size_t)n * sizeof(int));
                cudaEventRecord(a);
                if (kind == 0)
                    red_global<<<blocks, threads>>>(out, k);
                else if (kind == 1)
                    atom_global<<<blocks, threads>>>(out, k, sink);
                else
                    red_shared<<<blocks, threads, k * sizeof(int)>>>(out, k);
                cudaEventRecord(b);
                cudaEventSynchronize(b);
                float ms;
                cudaEventElapsedTime(&ms, a, b);
                if (best < 0 || ms < best)
                    best = ms;
            }
            const char *name[] = {"red_global", "atom_global", "red_shared"};
            printf("%s %u %.4f %.2f\n", name[kind], k, best, n / (best * 1e-3) / 1e9);
        }
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
