// Grids sized the way host code often sizes them: a float ceil of a
// quotient, a ceil whose quotient is outside it and truncated by the cast,
// a double ceil of a runtime size, and INFINITY (a compiler builtin) in a
// kernel, which is no call to code gpulint cannot see.
#include <math.h>

#define N 1000
#define M 2048

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * 2.0f;
}

__global__ void running_max(const float *x, float *out, int n)
{
    float best = -INFINITY;
    for (int j = 0; j < n; j++)
        best = fmaxf(best, x[j] + 1.0f);
    out[blockIdx.x * blockDim.x + threadIdx.x] = best;
}

void run(float *x, float *out, int rows)
{
    dim3 block(256);
    dim3 grid1((size_t)ceil(((float)N) / ((float)block.x)));      // 4 blocks
    dim3 grid2((size_t)(ceil((float)(M)) / ((float)block.x)));    // 8 blocks
    dim3 grid3((unsigned)ceil((double)rows / 128.0));             // runtime rows
    scale<<<grid1, block>>>(x, N);
    scale<<<grid2, block>>>(x, M);
    running_max<<<grid3, 128>>>(x, out, 64);
}

int main()
{
    float *x = 0, *out = 0;
    run(x, out, 4096);
    return 0;
}
