// argv_launch.cu: a launch whose configuration is only known at run time.
// The block size comes from the command line and the grid size is derived
// from it, so a static tool can only report them as expressions; pass
// `gpulint --block N` to have them evaluated.
//
// Build: nvcc -arch=sm_90 -o argv_launch argv_launch.cu
// Run:   ./argv_launch 256 1000000
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scale(float *data, float factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= factor;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 128;
    int n = argc > 2 ? atoi(argv[2]) : 1 << 20;
    int blocks = (n + threads - 1) / threads;

    float *data;
    cudaMalloc(&data, n * sizeof(float));
    scale<<<blocks, threads>>>(data, 2.0f, n);

    // The same kernel with a 2D launch whose shape also comes from argv.
    dim3 block(threads);
    dim3 grid((n + block.x - 1) / block.x);
    scale<<<grid, block>>>(data, 0.5f, n);

    cudaError_t err = cudaDeviceSynchronize();
    printf("argv_launch: %s\n", cudaGetErrorString(err));
    cudaFree(data);
    return err == cudaSuccess ? 0 : 1;
}
