// vector_add.cu: c = a + b, the "hello world" of CUDA. A grid-stride loop
// lets any grid size cover any n; each iteration loads 8 bytes and stores 4
// for one flop, so the kernel is bound by memory bandwidth.
//
// Build: nvcc -arch=sm_90 -o vector_add vector_add.cu
#include <cstdio>
#include <cuda_runtime.h>

// gpulint: flops=n bytes=12*n
__global__ void vectorAdd(const float *a, const float *b, float *c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        c[i] = a[i] + b[i];
}

int main()
{
    const int n = 1 << 24;
    const int threadsPerBlock = 256;
    const int blocksPerGrid = (n + threadsPerBlock - 1) / threadsPerBlock;
    float *a, *b, *c;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&c, n * sizeof(float));

    vectorAdd<<<blocksPerGrid, threadsPerBlock>>>(a, b, c, n);

    cudaError_t err = cudaDeviceSynchronize();
    printf("vector_add: %s\n", cudaGetErrorString(err));
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return err == cudaSuccess ? 0 : 1;
}
