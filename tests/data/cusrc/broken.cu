// broken.cu: deliberately does not compile. The front end must still find
// the kernels (one of them defined through a macro), say what failed, and
// analyse what it can.
#include <cuda_runtime.h>
#include "no_such_header.h"

#define KERNEL(name) __global__ void name(float *a, int n)

KERNEL(hidden)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = 0.0f;
}

__global__ void usesUndeclared(float *a)
{
    a[threadIdx.x] = undeclared_function(threadIdx.x);
    a[threadIdx.x + 32] = a[unknown_index];
}

__global__ void fine(float *a)
{
    __shared__ float s[64];
    s[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    a[threadIdx.x] = s[63 - threadIdx.x];
}

int main()
{
    fine<<<1, 64>>>(nullptr);
    hidden<<<4, 128>>>(nullptr, 512);
    usesUndeclared<<<1, 32>>>(nullptr);
    return undeclared_variable;
}
