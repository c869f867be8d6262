// The kernels' unit of a program of two files (see sweep-main.cu): run()
// launches with the size main's loops hand it, one call per value.
#include <cstddef>

__global__ void add_one(float *x, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}

void run(float *x, size_t n, int block)
{
    add_one<<<(unsigned)((n + block - 1) / block), block>>>(x, n);
}
