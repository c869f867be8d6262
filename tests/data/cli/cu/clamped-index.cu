// Clamped indices: a window whose last element repeats (min), a stencil's
// edge rows (max and min), and a clamp written as a device helper of ifs
// and returns, as image code writes it. Each site's footprint is the union
// of its clamp's sides, exact.
#include <cuda_runtime.h>

__device__ inline int clip(int x, int lo, int hi)
{
    if (x > hi)
        return hi;
    else if (x < lo)
        return lo;
    else
        return x;
}

__global__ void window_tail(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[min(n - 1, i + 4)];
}

__global__ void blur_rows(const float *x, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y;
    if (c < cols)
        out[r * cols + c] = x[max(r - 1, 0) * cols + c] + x[r * cols + c] +
                            x[min(r + 1, rows - 1) * cols + c];
}

__global__ void diff_clip(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[clip(i + 2, 0, n - 1)] - x[clip(i - 2, 0, n - 1)];
}

int main()
{
    const int n = 1 << 20, rows = 512, cols = 2048;
    float *x, *out;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    window_tail<<<n / 256, 256>>>(x, out, n);
    blur_rows<<<dim3(cols / 256, rows), 256>>>(x, out, rows, cols);
    diff_clip<<<n / 256, 256>>>(x, out, n);
    cudaDeviceSynchronize();
    return 0;
}
