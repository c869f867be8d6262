// A batch loop: each launch covers the next batch of an input whose length
// the command line gives; the position moves on in the loop, so the
// arguments being known does not give the launch's grid.
#include <cstdlib>

__global__ void batch(float *a, unsigned start, unsigned length)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < length)
        a[start + i] *= 2.0f;
}

int main(int argc, char **argv)
{
    const unsigned n = atoi(argv[1]);
    float *a;
    cudaMalloc(&a, sizeof(float) * n);
    unsigned pos = 0;
    while (pos < n) {
        unsigned end = pos + 1024;
        if (end >= n)
            end = n;
        unsigned length = end - pos;
        batch<<<(length + 255) / 256, 256>>>(a, pos, length);
        pos = end;
    }
    cudaFree(a);
    return 0;
}
