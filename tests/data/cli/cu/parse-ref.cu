// Locals handed to functions by reference: an option parser that writes
// through it (run on --run-args), a function that may change it (its value
// is no longer the initializer's), one that only reads it (it keeps it).
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void fill(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 1.0f;
}

static void parse(int argc, char **argv, int &blocks)
{
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "-b"))
            blocks = atoi(argv[i + 1]);
}

static void grow(int &n) { n *= 2; }

static void peek(int &n) { printf("%d\n", n); }

int main(int argc, char **argv)
{
    int blocks = 256;
    parse(argc, argv, blocks);
    int wide = 64;
    grow(wide);
    int kept = 32;
    peek(kept);
    float *x;
    cudaMalloc(&x, 1 << 24);
    fill<<<blocks, 128>>>(x, blocks * 128);
    fill<<<wide, 128>>>(x, wide * 128);
    fill<<<kept, 128>>>(x, kept * 128);
    return 0;
}
