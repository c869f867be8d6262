// Options read into a struct main hands its address to (`parse(argc,
// argv, &opts)` writing `o->nx`): the fields the run writes, the defaults
// main set before the call for the others.
#include <cstdlib>
#include <cstring>

struct Options {
    int nx, ny, iters;
};

__global__ void fill(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 1.0f;
}

static void parse(int argc, char **argv, Options *o)
{
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-x"))
            o->nx = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-y"))
            o->ny = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-i"))
            o->iters = atoi(argv[i + 1]);
    }
}

int main(int argc, char **argv)
{
    Options opts;
    opts.nx = 64;
    opts.ny = 8;
    opts.iters = 1;
    parse(argc, argv, &opts);
    if (argc > 6)
        opts.ny = 3; // not with four arguments
    float *x;
    cudaMalloc(&x, 1 << 24);
    for (int it = 0; it < opts.iters; it++)
        fill<<<opts.nx, 128>>>(x, opts.nx * 128);
    fill<<<opts.ny, 128>>>(x, opts.ny * 128);
    return 0;
}
