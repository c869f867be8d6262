// File-scope sizes: one set first thing in main from the command line (as
// HeCBench's blockScan sets grid_size), one only initialised, and two
// gpulint must leave run-time values: one written in another function,
// one assigned in main after main has called code of the file.
#include <cstdlib>
#include <cuda_runtime.h>

int grid_size = 1;      // set from argv[1] in main, before anything runs
int block = 256;        // never written: its initializer
int tiles = 4;          // written in setup(): not followed
int late = 8;           // assigned in main after run() was called

__global__ void fill(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 1.f; }

void setup(int n) { tiles = n / 64; }

void run(float *x)
{
    fill<<<grid_size, block>>>(x, grid_size * block);
    fill<<<tiles, block>>>(x, tiles * block);
    fill<<<late, block>>>(x, late * block);
}

int main(int argc, char **argv)
{
    grid_size = atoi(argv[1]);
    float *x;
    cudaMalloc(&x, 1 << 26);
    setup(4096);
    run(x);
    late = 16;
    run(x);
    return 0;
}
