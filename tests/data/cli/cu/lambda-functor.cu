// A STREAM-style program of our own (gpulint test input): kernels are device lambdas handed to
// one template for_each kernel, as Thrust and PyTorch write elementwise work.
#include <cstdio>
template <class F>
__global__ void for_each(long n, F f)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n)
        f(i);
}

struct Scale {
    const float *a;
    float *b;
    float s;
    __device__ void operator()(long i) const { b[i] = s * a[i]; }
};

int main()
{
    long n = 1 << 25;
    float *a, *b, *c;
    cudaMalloc(&a, n * 4);
    cudaMalloc(&b, n * 4);
    cudaMalloc(&c, n * 4);
    int threads = 256;
    long blocks = (n + threads - 1) / threads;
    for_each<<<blocks, threads>>>(n, [=] __device__(long i) { c[i] = a[i] + b[i]; });
    for_each<<<blocks, threads>>>(n, Scale{a, b, 3.0f});
    cudaDeviceSynchronize();
    return 0;
}
