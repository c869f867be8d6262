// File-scope sizes with initializers, read in another unit of the
// program through extern declarations.
#include "extern-sizes.h"

#define L 32
size_t sites = (size_t)L * L * L * L;
size_t half_sites = sites / 2;
int verbosity = 1;
int sweeps = 10;

int main(int argc, char **argv)
{
    if (argc > 1)
        verbosity = 2;
    float *field;
    cudaMalloc(&field, sites * sizeof(float));
    run_lattice(field);
    cudaDeviceSynchronize();
    return 0;
}
