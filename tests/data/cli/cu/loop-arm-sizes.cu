// Launch sizes set in the arms of an if inside loops, as bitonic sorts
// set them: the assignment just above a launch in the same arm holds at
// the launch whatever the other arm assigns, since every way back to the
// launch passes it first; one made in an inner loop after the launch
// does not hold on the inner loop's next pass.
#include <cstdlib>

__global__ void merge(unsigned *keys, unsigned size, unsigned stride)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    keys[i] ^= size + stride;
}

void sort(unsigned *keys, unsigned n)
{
    unsigned threads, blocks;
    for (unsigned size = 2048; size <= n; size <<= 1) {
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            if (stride >= 1024) {
                threads = 256;
                blocks = n / 2 / threads;
                merge<<<blocks, threads>>>(keys, size, stride);
            } else {
                threads = 512;
                blocks = n / 2 / threads;
                merge<<<blocks, threads>>>(keys, size, stride);
                break;
            }
        }
    }
    threads = 128;
    for (int pass = 0; pass < 2; pass++) {
        merge<<<n / threads, threads>>>(keys, n, 0);
        threads = 64;
    }
}

int main()
{
    unsigned n = 1 << 16;
    unsigned *keys;
    cudaMalloc(&keys, n * sizeof(unsigned));
    sort(keys, n);
    cudaDeviceSynchronize();
    return 0;
}
