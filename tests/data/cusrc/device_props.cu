// A persistent grid sized from the device: 4 blocks per SM from
// cudaGetDeviceProperties, and a block as large as the device allows; 2
// blocks per SM from cudaDeviceGetAttribute. The
// fields come from the model of --gpu (132 SMs on an H200, 1024 threads a
// block); without a product the SM count is named as unknown.
#include <cuda_runtime.h>

__global__ void scale(float *x, long n)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
         i += (long)gridDim.x * blockDim.x)
        x[i] *= 2.0f;
}

int main()
{
    const long n = 1L << 26;
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int blocks = 4 * prop.multiProcessorCount;
    scale<<<blocks, prop.maxThreadsPerBlock>>>(x, n);

    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    scale<<<2 * sms, 256>>>(x, n);
    cudaDeviceSynchronize();
    return 0;
}
