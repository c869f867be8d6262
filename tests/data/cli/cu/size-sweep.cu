// A benchmark that sweeps its sizes in loops, as most do: each launch
// whose grid or arguments read a loop's counter is one launch per value
// (a factor of 4 from 1024 to 65536; 1 to 3; a wrapper called in the
// loop), counted once per trip, and the values the if around a launch
// rules out are left out.
#include <cstdlib>

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

__global__ void fill(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 1.0f;
}

void run(float *x, int n)
{
    fill<<<(n + 255) / 256, 256>>>(x, n);
}

int main(int argc, char **argv)
{
    float *x = nullptr;
    int repeat = argc > 1 ? atoi(argv[1]) : 100;
    for (int n = 1024; n <= 65536; n *= 4) {
        for (int r = 0; r < repeat; r++)
            scale<<<(n + 255) / 256, 256>>>(x, n);
        if (n > 2000)
            run(x, n);
    }
    for (int blk = 1; blk <= 3; blk++)
        scale<<<blk, 128>>>(x, blk * 128);
    return 0;
}
