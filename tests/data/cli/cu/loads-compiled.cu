// Global loads as nvcc compiles them: a value already in a register is not
// loaded again. Requests per thread are in the comments; Nsight Compute's
// counts on an H100 are in tests/data/loadprobe/README.md.
#define N 256

// acc[r] stays in a register from its first store on: no load at all, a
// store in every iteration. Requests: 1 (store) + 256 (x) + 256 (stores).
__global__ void accumulate(const float *x, float *acc)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    acc[r] = 0.0f;
    for (int c = 0; c < N; c++)
        acc[r] += x[c * 4096 + r];
}

// The same element twice in one statement is one load; what was stored is
// not loaded again, and a store overwritten before any load is dropped.
// Requests: 1 (x) + 1 (store) = 2.
__global__ void reuse(const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i] * x[i];
    y[i] = y[i] + 1.0f;
}

// What nvcc must load again: after a barrier, after a store to another
// array that may alias, and in a loop that stores elsewhere. Requests:
// 2 (x, twice) + 1 (y) + 1 (x) + 1 (z) + 32 * 2 (x[i], z[i + j]) = 69.
__global__ void reload(const float *x, float *y, float *z)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = x[i];
    __syncthreads();
    y[i] = a + x[i];
    z[i] = x[i];
    for (int j = 0; j < 32; j++)
        z[i + j + 1] = x[i] * 2.0f;
}

int main()
{
    float *x, *y, *z;
    cudaMalloc(&x, N * 4096 * sizeof(float));
    cudaMalloc(&y, 4096 * sizeof(float));
    cudaMalloc(&z, (4096 + 64) * sizeof(float));
    cudaMemset(x, 0, N * 4096 * sizeof(float));
    accumulate<<<16, 256>>>(x, y);
    reuse<<<16, 256>>>(x, y);
    reload<<<16, 256>>>(x, y, z);
    cudaDeviceSynchronize();
    return 0;
}
