// launch_api.cu: the same kernel launched through the runtime API instead
// of <<<>>>: cudaLaunchKernel, cudaLaunchCooperativeKernel (grid-wide sync
// needs all blocks resident at once) and cudaLaunchKernelEx with a launch
// configuration struct.
//
// Build: nvcc -arch=sm_90 -o launch_api launch_api.cu
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(float *data, float value, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = value;
}

int main()
{
    int n = 1 << 20;
    float value = 1.0f;
    float *data;
    cudaMalloc(&data, n * sizeof(float));
    void *args[] = {&data, &value, &n};

    cudaLaunchKernel((const void *)fill, dim3(n / 256), dim3(256), args, 0, 0);

    // Cooperative launches must fit on the GPU at once: 132 SMs x 1 block.
    cudaLaunchCooperativeKernel((const void *)fill, dim3(132), dim3(1024), args, 0, 0);

    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(n / 512);
    cfg.blockDim = dim3(512);
    cfg.dynamicSmemBytes = 0;
    cudaLaunchKernelEx(&cfg, fill, data, 2.0f, n);

    cudaError_t err = cudaDeviceSynchronize();
    printf("launch_api: %s\n", cudaGetErrorString(err));
    cudaFree(data);
    return err == cudaSuccess ? 0 : 1;
}
