// Options a constructor reads with getopt (the defaults it sets first, then
// the loop, run on --run-args); a second object built the same way would
// start getopt where the first left off, and is not claimed.
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

__global__ void fill(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 1.0f;
}

struct Params {
    int threads;
    int blocks;
    int reps;
    Params(int argc, char **argv)
    {
        threads = 64;
        blocks = 16;
        reps = 10;
        int opt;
        while ((opt = getopt(argc, argv, "hi:g:r:")) >= 0) {
            switch (opt) {
            case 'h':
                exit(0);
                break;
            case 'i': threads = atoi(optarg); break;
            case 'g': blocks = atoi(optarg); break;
            case 'r': reps = atoi(optarg); break;
            default:
                exit(1);
            }
        }
    }
};

int main(int argc, char **argv)
{
    const Params p(argc, argv);
    float *x;
    cudaMalloc(&x, 1 << 24);
    for (int r = 0; r < p.reps; r++)
        fill<<<p.blocks, p.threads>>>(x, p.blocks * p.threads);
    Params q(argc, argv);
    fill<<<q.blocks, q.threads>>>(x, q.blocks * q.threads);
    return 0;
}
