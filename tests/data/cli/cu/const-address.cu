// A const local whose address is handed on (an accessor built over its
// sizes, as PyTorch-style packed accessors are) keeps its value: nothing
// may write a const object through a pointer. A local that is not const
// and whose address goes to a function that may write it stays unknown.
#include <stdlib.h>

struct view {
    const float *data;
    const long *size;
};

__global__ void halve(float *x, long n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 0.5f;
}

void resize(long *n);

int main(int argc, char **argv)
{
    const long n = atol(argv[1]);
    long m = 1 << 20;
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    view v = {x, &n};
    resize(&m);
    halve<<<(n + 255) / 256, 256>>>(x, *v.size);
    halve<<<(m + 255) / 256, 256>>>(x, m);
    return 0;
}
