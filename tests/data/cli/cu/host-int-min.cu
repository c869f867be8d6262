// Host code that clamps a grid with the integer min and max nvcc's headers
// declare for host code (crt/math_functions.hpp), of ints and of mixed
// widths: each launch keeps its size.
#include <cstddef>

#define MAX_BLOCKS 4096

__global__ void fill(int *p, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = 1;
}

int main()
{
    const size_t n = 1 << 20;
    int *p;
    cudaMalloc(&p, sizeof(int) * n);
    // min(int, int): 2048 blocks, which cover half of n
    dim3 grid(min(MAX_BLOCKS / 2, static_cast<int>((n + 255) / 256)));
    fill<<<grid, 256>>>(p, n);
    // max(unsigned long, long): the larger of 1 and n / 1024 blocks
    fill<<<max(n / 1024, 1L), 1024>>>(p, n);
    cudaDeviceSynchronize();
    return 0;
}
