#include <cuda_runtime.h>

#include "mesh.h"

__global__ void scale(double *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0;
}

int main(int argc, char *argv[])
{
    options opts;
    opts.steps = 10;
    opts.nx = 30;
    parse_options(argc, argv, &opts);
    Mesh *mesh = new Mesh(1, opts.nx);
    int elems = mesh->num_elems();
    int nodes = mesh->num_nodes();
    double *d;
    cudaMalloc(&d, sizeof(double) * nodes);
    for (int s = 0; s < opts.steps; s++) {
        scale<<<(elems + 255) / 256, 256>>>(d, elems);
        scale<<<(nodes + 127) / 128, 128>>>(d, nodes);
    }
    cudaDeviceSynchronize();
    cudaFree(d);
    delete mesh;
    return 0;
}
