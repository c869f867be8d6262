// small_blocks.cu: block sizes that waste the hardware.
//
// A warp is 32 threads; a block of 40 threads occupies 2 warps, and the
// second runs 8 live lanes and 24 idle ones (62.5% of the lanes used). A block
// of 8 threads uses a quarter of a single warp, and the per-SM limit on
// resident blocks (32 on recent GPUs) caps an SM at 32 * 8 = 256 threads,
// an eighth of what it can hold.
//
// Build: nvcc -arch=sm_90 -o small_blocks small_blocks.cu
#include <cstdio>
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main()
{
    const int n = 1 << 20;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));

    const int odd = 40; // 2 warps, the second mostly idle
    saxpy<<<(n + odd - 1) / odd, odd>>>(n, 2.0f, x, y);

    const int tiny = 8; // a quarter of a warp per block
    saxpy<<<(n + tiny - 1) / tiny, tiny>>>(n, 2.0f, x, y);

    saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y); // for comparison

    cudaError_t err = cudaDeviceSynchronize();
    printf("small_blocks: %s\n", cudaGetErrorString(err));
    cudaFree(x);
    cudaFree(y);
    return err == cudaSuccess ? 0 : 1;
}
