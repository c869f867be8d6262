// A size computed in floating point from the command line, as benchmarks
// that take gigabytes do: (long)(gb * 2^30 / 16) with gb = atof(argv[2]),
// each operation rounded as the compiled host code rounds it.
#include <cstdlib>

__global__ void gate(double *m, const long n)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n)
        m[i] += 1.0;
}

int main(int argc, char *argv[])
{
    double gb = atof(argv[2]);
    long cells = (long)((gb * 1024.0 * 1024.0 * 1024.0) / (sizeof(double) * 2));
    double *m = nullptr;
    gate<<<(cells + 255) / 256, 256>>>(m, cells);
    return 0;
}
