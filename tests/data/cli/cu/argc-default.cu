// A size with a default that the program's arguments may replace, the way
// many benchmarks read them: with --run-args, the if whose condition is
// then a constant either runs its assignment or leaves it out.
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

#include <cstdlib>

int main(int argc, char **argv)
{
    int n = 1 << 20;
    if (argc == 2) {
        n = atoi(argv[1]);
    }
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    scale<<<(n + 255) / 256, 256>>>(x, n);
    cudaFree(x);
    return 0;
}
