// A grid clamped to the device's largest grid (cudaDeviceProp's
// maxGridSize[0]) in a helper, and a block of the device's largest z
// extent (maxThreadsDim[2]): both from the model of --gpu.
#include <algorithm>
#include <cstdint>

__global__ void copy(float *out, const float *in, int64_t n)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void planes(float *out)
{
    out[threadIdx.z * 16 + threadIdx.x] = 1.0f;
}

int blocks_for(int64_t n)
{
    int64_t blocks = (n + 255) / 256;
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    return (int)std::min((int64_t)prop.maxGridSize[0], blocks);
}

int main()
{
    const int64_t n = 1 << 24;
    float *in, *out;
    cudaMalloc(&in, sizeof(float) * n);
    cudaMalloc(&out, sizeof(float) * n);
    copy<<<blocks_for(n), 256>>>(out, in, n);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    planes<<<1, dim3(16, 1, prop.maxThreadsDim[2])>>>(out);
    cudaDeviceSynchronize();
    return 0;
}
