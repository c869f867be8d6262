// The launch of header-kernel.cuh's kernel.
#include "header-kernel.cuh"

int main()
{
    const int rows = 4096, cols = 8192;
    float *a, *out;
    cudaMalloc(&a, (size_t)rows * cols * sizeof(float));
    cudaMalloc(&out, cols * sizeof(float));
    column_sums<1><<<cols / 256, 256>>>(a, out, rows, cols);
    return cudaDeviceSynchronize() != cudaSuccess;
}
