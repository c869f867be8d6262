// A size one thread of each block computes and hands to the others
// through a __shared__ scalar. After the barrier every thread reads what
// thread 0 stored (count: n / 4 = 1024 loads a thread); without the
// barrier (no_barrier) nothing says the store came first, and a value
// read from memory (from_memory) is data.
#include <cuda_runtime.h>

__global__ void count(const float *in, float *out, int n)
{
    __shared__ int k;
    if (threadIdx.x == 0)
        k = n / 4;
    __syncthreads();
    float s = 0.f;
    for (int i = 0; i < k; i++)
        s += in[i * 32 + threadIdx.x % 32];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void no_barrier(const float *in, float *out, int n)
{
    __shared__ int k;
    if (threadIdx.x == 0)
        k = n / 4;
    float s = 0.f;
    for (int i = 0; i < k; i++)
        s += in[i * 32 + threadIdx.x % 32];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void from_memory(const float *in, const int *len, float *out)
{
    __shared__ int k;
    if (threadIdx.x == 0)
        k = len[blockIdx.x];
    __syncthreads();
    float s = 0.f;
    for (int i = 0; i < k; i++)
        s += in[i * 32 + threadIdx.x % 32];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

int main()
{
    const int n = 4096;
    float *in, *out;
    int *len;
    cudaMalloc(&in, n * 32 * sizeof(float));
    cudaMalloc(&out, 256 * 256 * sizeof(float));
    cudaMalloc(&len, 256 * sizeof(int));
    count<<<256, 256>>>(in, out, n);
    no_barrier<<<256, 256>>>(in, out, n);
    from_memory<<<256, 256>>>(in, len, out);
    cudaDeviceSynchronize();
    return 0;
}
