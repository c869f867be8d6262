// Sizes picked from a table in main: an array set by its initializer and
// only read gives the element its index selects (a --run-args value, or a
// loop's counter, one launch per value); an array main writes to does not.
#include <cstdlib>

__global__ void fill(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 1.0f;
}

int main(int argc, char **argv)
{
    float *x = nullptr;
    int sizes[4] = {1, 8, 96, 256}; // MB, as the program's usage line says
    int select = argc > 1 ? atoi(argv[1]) : 0;
    int n = sizes[select] * 1024;
    fill<<<n / 256, 256>>>(x, n);
    int block_sizes[] = {128, 256, 512};
    for (size_t b = 0; b < sizeof(block_sizes) / sizeof(int); b++) {
        int bs = block_sizes[b];
        fill<<<(n + bs - 1) / bs, bs>>>(x, n);
    }
    int written[2] = {1, 2};
    written[1] = 5;
    fill<<<written[1], 32>>>(x, n);
    return 0;
}
