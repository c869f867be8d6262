// Cluster launches the runtime refuses (issue 49, "bad input"): sixteen
// blocks without cudaFuncAttributeNonPortableClusterSizeAllowed, and a grid
// that is not a whole number of clusters.
#include <cuda_runtime.h>

__global__ void wide(float *x)
{
    x[blockIdx.x * blockDim.x + threadIdx.x] -= 1.0f;
}

__global__ void triples(float *x)
{
    x[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
}

int main()
{
    float *x;
    cudaMalloc(&x, 1 << 22);
    cudaFuncSetAttribute(wide, cudaFuncAttributeRequiredClusterWidth, 16);
    wide<<<4096, 128>>>(x);

    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(1000);
    cfg.blockDim = dim3(256);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim = {3, 1, 1};
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    cudaLaunchKernelEx(&cfg, triples, x);
    cudaFree(x);
    return 0;
}
