// A parameter struct filled by a helper that takes it by reference, then
// handed down to the launch (HeCBench's hadamard is written so): the
// fields hold what the helper assigns at its top level, with the call's
// arguments bound.
#include <cstdlib>

struct Params {
    int batch;
    int dim;
    float scale;
    void *x;
};

void set_params(Params &p, int batch, int dim, void *x, float scale)
{
    p = {};
    p.batch = batch;
    p.dim = dim;
    p.x = x;
    p.scale = scale;
}

// Sets dim only when asked: no value of dim holds after it.
void maybe_widen(Params &p, bool wide)
{
    if (wide)
        p.dim *= 2;
}

__global__ void scale_rows(Params p)
{
    int i = threadIdx.x;
    for (int c = i; c < p.dim; c += blockDim.x)
        ((float *)p.x)[(long)blockIdx.x * p.dim + c] *= p.scale;
}

template <int T> void launch(Params &params)
{
    dim3 grid(params.batch);
    scale_rows<<<grid, T>>>(params);
}

void run(int batch, int dim, bool wide)
{
    Params params;
    float *x;
    cudaMalloc(&x, sizeof(float) * batch * dim);
    set_params(params, batch, dim, x, 0.5f);
    launch<256>(params);
    maybe_widen(params, wide);
    launch<128>(params);
}

// A pointer kept to the struct may write the field where no call shows
// it: batch has no value after set_params here.
void run_alias(int batch, int dim)
{
    Params params;
    Params *alias = &params;
    float *x;
    cudaMalloc(&x, sizeof(float) * batch * dim);
    set_params(params, batch, dim, x, 0.5f);
    alias->batch = 7;
    launch<64>(params);
}

int main(int argc, char **argv)
{
    int batch = argc > 1 ? atoi(argv[1]) : 1024;
    run(batch, 4096, argc > 2);
    run_alias(batch, 4096);
    return 0;
}
