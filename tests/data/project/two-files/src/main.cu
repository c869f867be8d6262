// The same benchmark with main in a CUDA file of its own: it launches its
// own kernel and calls into kernels.cu with its sizes.
#include "bench.h"

__global__ void fill(float *x, float v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = v;
}

int main()
{
    const int n = 1 << 20;
    float *x = nullptr, *y = nullptr;
    fill<<<n / 128, 128>>>(x, 1.0f, n);
    for (int step = 0; step < 5; step++)
        run_saxpy(y, x, n, 2);
    return 0;
}
