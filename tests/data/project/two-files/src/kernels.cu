// The kernels and the functions main.cpp calls to launch them: the sizes
// come from the other file of the build.
#include "bench.h"

__global__ void saxpy(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

__global__ void reduce(const float *x, float *out, int64_t n)
{
    __shared__ float part[256];
    float s = 0.0f;
    for (int64_t i = blockIdx.x * 256 + threadIdx.x; i < n; i += (int64_t)gridDim.x * 256)
        s += x[i];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = 128; w > 0; w /= 2) {
        if (threadIdx.x < w)
            part[threadIdx.x] += part[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, part[0]);
}

void run_saxpy(float *y, const float *x, int n, int reps)
{
    for (int r = 0; r < reps; r++)
        saxpy<<<(n + 255) / 256, 256>>>(y, x, 2.0f, n);
}

void run_reduce(const float *x, float *out, int64_t n)
{
    reduce<<<1024, 256>>>(x, out, n);
}
