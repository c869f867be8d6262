// divergence.cu: branches that split a warp, and branches that do not
// (after "Professional CUDA C Programming", section 3.2).
//
//   mathKernel1   if (tid % 2 == 0): even and odd lanes of every warp take
//                 different paths, so each warp runs both (50% efficiency).
//   mathKernel2   if ((tid / warpSize) % 2 == 0): the condition changes only
//                 from one warp to the next; no warp diverges.
//   mathKernel3   the even/odd test of mathKernel1 kept in a variable: the
//                 same divergence, spelled differently.
//   laneLoop      a loop whose trip count is the lane index: lane 31 runs 31
//                 iterations while lane 0 waits.
//   boundsCheck   an ordinary `if (idx < n)` bounds check: diverges at most in
//                 the last warp, not flagged.
//
// Build: nvcc -arch=sm_90 -o divergence divergence.cu
#include <cstdio>
#include <cuda_runtime.h>

__global__ void mathKernel1(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float a = 0.0f, b = 0.0f;
    if (tid % 2 == 0)
        a = 100.0f;
    else
        b = 200.0f;
    c[tid] = a + b;
}

__global__ void mathKernel2(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float a = 0.0f, b = 0.0f;
    if ((tid / warpSize) % 2 == 0)
        a = 100.0f;
    else
        b = 200.0f;
    c[tid] = a + b;
}

__global__ void mathKernel3(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float a = 0.0f, b = 0.0f;
    bool ipred = (tid % 2 == 0);
    if (ipred)
        a = 100.0f;
    if (!ipred)
        b = 200.0f;
    c[tid] = a + b;
}

// Each lane sums its own number of terms: a per-lane trip count.
__global__ void laneLoop(const float *in, float *out)
{
    int lane = threadIdx.x % 32;
    float sum = 0.0f;
    for (int i = 0; i < lane; i++)
        sum += in[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void boundsCheck(const float *in, float *out, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n)
        out[idx] = 2.0f * in[idx];
}

int main()
{
    const int n = 1 << 20;
    const int block = 64;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));

    mathKernel1<<<n / block, block>>>(out);
    mathKernel2<<<n / block, block>>>(out);
    mathKernel3<<<n / block, block>>>(out);
    laneLoop<<<n / block, block>>>(in, out);
    boundsCheck<<<(n + block - 1) / block, block>>>(in, out, n);

    cudaError_t err = cudaDeviceSynchronize();
    printf("divergence: %s\n", cudaGetErrorString(err));
    cudaFree(in);
    cudaFree(out);
    return err == cudaSuccess ? 0 : 1;
}
