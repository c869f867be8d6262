// relu.cu: y = max(x, 0) elementwise, scalar and with 16-byte vector loads.
// reluFloat4 moves four floats per load and store instruction; the bytes
// moved are the same, the instructions a quarter.
//
// Build: nvcc -arch=sm_90 -o relu relu.cu
#include <cstdio>
#include <cuda_runtime.h>

__global__ void relu(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

__global__ void reluFloat4(const float4 *x, float4 *y, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4)
        return;
    float4 v = x[i];
    v.x = fmaxf(v.x, 0.0f);
    v.y = fmaxf(v.y, 0.0f);
    v.z = fmaxf(v.z, 0.0f);
    v.w = fmaxf(v.w, 0.0f);
    y[i] = v;
}

int main()
{
    const int n = 1 << 24;
    const int block = 256;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));

    relu<<<(n + block - 1) / block, block>>>(x, y, n);
    reluFloat4<<<(n / 4 + block - 1) / block, block>>>((const float4 *)x, (float4 *)y, n / 4);

    cudaError_t err = cudaDeviceSynchronize();
    printf("relu: %s\n", cudaGetErrorString(err));
    cudaFree(x);
    cudaFree(y);
    return err == cudaSuccess ? 0 : 1;
}
