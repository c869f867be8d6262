// __launch_bounds__ in the forms real code uses: literals, macros, a
// template parameter, and the minimum-blocks hint that caps registers.
#define THREADS_PER_BLOCK 256
#define MIN_BLOCKS 4

__global__ void __launch_bounds__(THREADS_PER_BLOCK, MIN_BLOCKS)
    saxpy_bounded(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) polynomial(const double *x, double *y, int n)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i >= n)
        return;
    double v = x[i], acc = 0.0;
#pragma unroll
    for (int k = 0; k < 16; ++k)
        acc = acc * v + (k + 1) * 0.5;
    y[i] = acc;
}

__global__ void __launch_bounds__(1024, 1) wide_block(int *out)
{
    out[blockIdx.x * 1024 + threadIdx.x] = threadIdx.x;
}

void run(float *x, float *y, double *dx, double *dy, int *o, int n)
{
    saxpy_bounded<<<(n + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK, THREADS_PER_BLOCK>>>(2.0f, x, y,
                                                                                         n);
    polynomial<128><<<(n + 127) / 128, 128>>>(dx, dy, n);
    polynomial<512><<<(n + 511) / 512, 512>>>(dx, dy, n);
    wide_block<<<n / 1024, 1024>>>(o);
}
