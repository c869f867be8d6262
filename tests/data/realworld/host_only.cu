// Host code only: allocates, copies and calls a launcher defined in another
// file. Linted alone it has no kernels; linted with the others, that is a
// note, not an error.
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

void launch_layernorm(float *out, const float *in, const float *g, const float *b, int rows,
                      int cols);

int main()
{
    const int rows = 64, cols = 1024;
    std::vector<float> host(rows * cols, 1.0f);
    float *in, *out, *g, *b;
    cudaMalloc(&in, host.size() * sizeof(float));
    cudaMalloc(&out, host.size() * sizeof(float));
    cudaMalloc(&g, cols * sizeof(float));
    cudaMalloc(&b, cols * sizeof(float));
    cudaMemcpy(in, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
    launch_layernorm(out, in, g, b, rows, cols);
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
