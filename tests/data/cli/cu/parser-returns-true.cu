// Sizes a parser hands back through pointers, the parser returning true
// (a bool literal) when the arguments are there and false otherwise.
#include <cstdio>
#include <cstdlib>

bool parse(int argc, char **argv, unsigned *iterations, unsigned *width, unsigned *height)
{
    if (argc != 4) {
        printf("usage: %s iterations width height\n", argv[0]);
        return false;
    }
    *iterations = atoi(argv[1]);
    *width = atoi(argv[2]);
    *height = atoi(argv[3]);
    return true;
}

__global__ void fill(float *a, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = 1.0f;
}

int main(int argc, char **argv)
{
    unsigned iterations, width, height;
    if (!parse(argc, argv, &iterations, &width, &height))
        return 1;
    unsigned n = width * height;
    float *a;
    cudaMalloc(&a, n * sizeof(float));
    for (unsigned k = 0; k < iterations; k++)
        fill<<<(n + 255) / 256, 256>>>(a, n);
    cudaDeviceSynchronize();
    return 0;
}
