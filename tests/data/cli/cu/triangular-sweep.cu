// A bitonic sort's launches: the inner loop starts at the outer loop's
// counter (a triangular nest), and the kernel's partner index is a local
// set in one arm of an if and tested after it.
#include <cuda_runtime.h>

__global__ void merge_step(int *keys, int span, int dir_span)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int half = span / 2;
    int partner = -1;
    if (i % span < half)
        partner = i + half;
    bool up = (i / dir_span) % 2 == 0;
    if (partner != -1) {
        int a = keys[i], b = keys[partner];
        if ((a > b) == up) {
            keys[i] = b;
            keys[partner] = a;
        }
    }
}

__global__ void touch(int *keys) { keys[blockIdx.x * blockDim.x + threadIdx.x] += 1; }

int main()
{
    const int log_n = 20, n = 1 << log_n;
    int *keys;
    cudaMalloc(&keys, n * sizeof(int));
    for (int pass = 0; pass < 4; pass++)
        for (int stage = pass; stage >= 0; stage--)
            merge_step<<<n / 256, 256>>>(keys, 2 << stage, 2 << pass);
    // Launches that read neither counter: 0 + 1 + 2 + 3 per round, 10 rounds.
    for (int round = 0; round < 10; round++)
        for (int pass = 0; pass < 4; pass++)
            for (int j = 0; j < pass; j++)
                touch<<<n / 256, 256>>>(keys);
    cudaFree(keys);
    return 0;
}
