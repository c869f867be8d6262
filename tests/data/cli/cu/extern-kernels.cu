// The kernels' unit: sizes from file-scope variables another unit defines.
#include "extern-sizes.h"

__global__ void relax(float *field, size_t n, int level)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        field[i] = field[i] * 0.5f + level;
}

void run_lattice(float *field)
{
    const int threads = 256;
    // half_sites: set once by its initializer in the other unit.
    relax<<<(half_sites + threads - 1) / threads, threads>>>(field, half_sites, 0);
    // verbosity: main may change it (with an argument), so it has no value.
    relax<<<verbosity * 64, threads>>>(field, half_sites, 1);
    // sweeps: this unit writes it, so no unit's value holds.
    sweeps = sweeps * 2;
    for (int s = 0; s < sweeps; s++)
        relax<<<(sites + threads - 1) / threads, threads>>>(field, sites, s);
}
