// Sizes in a struct handed on by its address: through a pointer to const
// the callee can only read them, so main's fields reach its launches;
// through a plain pointer the callee could have changed them.
#include <cstdlib>

struct Params {
    int width, repeat;
};

__global__ void fill(float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        o[i] = 1.0f;
}

void run(const Params *p, float *o)
{
    for (int i = 0; i < p->repeat; i++)
        fill<<<(p->width + 127) / 128, 128>>>(o, p->width);
}

void run_mutable(Params *p, float *o)
{
    fill<<<(p->width + 127) / 128, 128>>>(o, p->width);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 1;
    Params p;
    p.width = atoi(argv[1]);
    p.repeat = 3;
    float *o;
    cudaMalloc(&o, sizeof(float) * p.width);
    run(&p, o);
    Params q;
    q.width = 2 * p.width;
    q.repeat = 1;
    run_mutable(&q, o);
    cudaFree(o);
    return 0;
}
