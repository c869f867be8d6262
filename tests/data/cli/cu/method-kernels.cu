// The unit that defines Scaler::run (see method-main.cu): its launch is
// sized by the arguments main's loop hands the method in the other unit.
#include "method-scaler.h"

__global__ void scale(float *x, float factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= factor;
}

void Scaler::run(float *x, int n, int block)
{
    scale<<<(n + block - 1) / block, block>>>(x, factor, n);
}
