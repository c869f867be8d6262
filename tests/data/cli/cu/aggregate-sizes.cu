// Sizes held in a struct initialized by a braced list, the way C-style
// programs keep a problem's shape: the fields take the list's values in
// declaration order; a field the list leaves out has none, and so does
// every field of a designated list ('{.batch = 8}'), which is not read.
#include <cstdio>

struct shape {
    int batch, channels, height, width;
    int kernel;
};

__global__ void sample(float *out, const shape s, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (float)(i % s.width);
}

int main()
{
    shape s = {16, 3, 480, 640};
    size_t n = (size_t)s.batch * s.channels * s.height * s.width;
    float *out;
    cudaMalloc(&out, n * sizeof(float));
    sample<<<(n + 255) / 256, 256>>>(out, s, n);
    sample<<<s.kernel, 256>>>(out, s, n);
    shape d = {.batch = 8, .channels = 3};
    sample<<<d.batch, 256>>>(out, d, n);
    cudaDeviceSynchronize();
    return 0;
}
