// dynamic_smem.cu: dynamic shared memory above the 48 KB default.
//
// A block may use more than 48 KB of shared memory (up to 227 KB on sm_90)
// only after the kernel opts in with cudaFuncSetAttribute(...,
// cudaFuncAttributeMaxDynamicSharedMemorySize, bytes). The first launch of
// blockSum below asks for 64 KB without opting in and fails with "invalid
// argument"; the second opts in first and runs.
//
// Build: nvcc -arch=sm_90 -o dynamic_smem dynamic_smem.cu
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kThreads = 256;
constexpr size_t kSmemBytes = 64 * 1024; // 16384 floats

// Stages blockDim.x * per_thread floats in shared memory, then sums them.
__global__ void blockSum(const float *in, float *out, int per_thread)
{
    extern __shared__ float buf[];
    float *mine = buf + threadIdx.x * per_thread; // this thread's slice
    const float *src = in + blockIdx.x * blockDim.x * per_thread;
    for (int k = 0; k < per_thread; k++)
        mine[k] = src[threadIdx.x * per_thread + k];
    __syncthreads();
    float s = 0.0f;
    for (int k = 0; k < per_thread; k++)
        s += buf[k * blockDim.x + threadIdx.x]; // conflict-free: consecutive lanes, consecutive words
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// The same with two arrays carved out of one dynamic allocation.
__global__ void twoBuffers(const float *in, float *out)
{
    extern __shared__ float smem[];
    float *a = smem;
    float *b = smem + kThreads;
    a[threadIdx.x] = in[blockIdx.x * kThreads + threadIdx.x];
    b[threadIdx.x] = 2.0f * a[threadIdx.x];
    __syncthreads();
    out[blockIdx.x * kThreads + threadIdx.x] = a[kThreads - 1 - threadIdx.x] + b[threadIdx.x];
}

int main()
{
    const int blocks = 1024;
    const int per_thread = kSmemBytes / sizeof(float) / kThreads; // 16
    float *in, *out;
    cudaMalloc(&in, blocks * kThreads * per_thread * sizeof(float));
    cudaMalloc(&out, blocks * kThreads * sizeof(float));

    // 64 KB without the opt-in: the launch fails.
    blockSum<<<blocks, kThreads, kSmemBytes>>>(in, out, per_thread);
    printf("without opt-in: %s\n", cudaGetErrorString(cudaGetLastError()));

    // Opt in, then the same launch of the second kernel succeeds.
    cudaFuncSetAttribute(twoBuffers, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
    twoBuffers<<<blocks, kThreads, kSmemBytes>>>(in, out);
    printf("with opt-in: %s\n", cudaGetErrorString(cudaGetLastError()));

    cudaError_t err = cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    return err == cudaSuccess ? 0 : 1;
}
