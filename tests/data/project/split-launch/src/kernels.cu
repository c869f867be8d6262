#include "kernels.h"

__global__ void scale(float *out, const float *in, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * in[i];
}

__global__ void rowsum(float *sums, const float *m, struct shape s)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= s.rows)
        return;
    float acc = 0.0f;
    for (int c = 0; c <= split_min(s.cols - 1, 1023); c++)
        acc += m[(long)c * s.rows + r];
    sums[r] = acc;
}
