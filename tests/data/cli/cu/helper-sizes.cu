// Block and grid sizes a host helper of several statements computes: an
// early return, a local set by a loop, the last return.
#include <algorithm>
#include <cstdlib>

__global__ void smooth(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = 0.5f * p[i];
}

// The largest power of two that divides n (0 for 0).
int pow_two_divider(int n)
{
    if (n == 0)
        return 0;
    int divider = 1;
    while ((n & divider) == 0)
        divider <<= 1;
    return divider;
}

// Blocks to cover n with b threads each, at least one.
int blocks_for(int n, int b)
{
    int blocks = (n + b - 1) / b;
    if (blocks < 1)
        return 1;
    return blocks;
}

int main(int argc, char **argv)
{
    const int height = argc > 1 ? atoi(argv[1]) : 8192;
    float *d;
    cudaMalloc(&d, sizeof(float) * 3 * 8192);
    int block = std::min(pow_two_divider(height), 64);
    smooth<<<blocks_for(height, block), block>>>(d, height);
    // 24 is 8 x 3: blocks of 8 threads
    block = std::min(pow_two_divider(24), 64);
    smooth<<<blocks_for(24, block), block>>>(d, 24);
    cudaDeviceSynchronize();
    return 0;
}
