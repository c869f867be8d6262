// Thread-block clusters set the three ways CUDA takes them (issue 49):
// __cluster_dims__ on the kernel, cudaLaunchAttributeClusterDimension on a
// cudaLaunchKernelEx launch, and cudaFuncSetAttribute's required cluster
// width; and a non-portable cluster with its opt-in. Two configurations in
// one function keep their own attributes.
#include <cuda_runtime.h>

__global__ void __cluster_dims__(2, 1, 1) pairs(float *x)
{
    x[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f;
}

__global__ void quads(float *x)
{
    x[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
}

__global__ void wide(float *x)
{
    x[blockIdx.x * blockDim.x + threadIdx.x] -= 1.0f;
}

__global__ void required(float *x)
{
    x[blockIdx.x * blockDim.x + threadIdx.x] *= 0.5f;
}

int main()
{
    const int n = 1 << 20;
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    pairs<<<n / 256, 256>>>(x);

    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(n / 128);
    cfg.blockDim = dim3(128);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = 4;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    cudaLaunchKernelEx(&cfg, quads, x);

    /* A second configuration in the same function: its own attributes. */
    cudaLaunchConfig_t cfg2 = {};
    cfg2.gridDim = dim3(n / 256);
    cfg2.blockDim = dim3(256);
    cudaLaunchAttribute attr2[1];
    attr2[0].id = cudaLaunchAttributeClusterDimension;
    attr2[0].val.clusterDim.x = 2;
    cfg2.attrs = attr2;
    cfg2.numAttrs = 1;
    cudaLaunchKernelEx(&cfg2, quads, x);

    cudaFuncSetAttribute(required, cudaFuncAttributeRequiredClusterWidth, 8);
    required<<<n / 512, 512>>>(x);

    cudaFuncSetAttribute(wide, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    cudaFuncSetAttribute(wide, cudaFuncAttributeRequiredClusterWidth, 16);
    wide<<<n / 128, 128>>>(x);
    cudaFree(x);
    return 0;
}
