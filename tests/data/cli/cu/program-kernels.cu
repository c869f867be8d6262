// The kernels' unit of a two-file program (see program-main.cu).
#include "program.h"

__global__ void fill(float *o, Params p)
{
    uint32_t x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < p.width)
        o[blockIdx.y * p.width + x] = 1.0f;
}

__global__ void head(float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        o[i] = 0.0f;
}

void run(const Params &p, float *o, int n)
{
    const dim3 blocks((p.width + 127) / 128, p.height, 1);
    for (uint32_t i = 0; i < p.repeat; i++)
        fill<<<blocks, 128>>>(o, p);
    head<<<(n + 31) / 32, 32>>>(o, n);
}
